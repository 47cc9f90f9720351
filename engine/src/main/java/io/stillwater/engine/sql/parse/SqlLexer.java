package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's lexical rules (src/backend/parser/scan.l, as of PostgreSQL 16) for one
 * SQL string, read token by token on demand.
 *
 * <p>Whitespace and comments ({@code --} to end of line, nested {@code /* *}{@code /})
 * separate tokens and are not returned. Unquoted identifiers are folded to lower case
 * (ASCII letters only, as PostgreSQL does for UTF-8); {@code standard_conforming_strings}
 * is on, so backslashes are literal in {@code '..'} and escapes only work in {@code E'..'}.
 * String constants separated only by whitespace that contains a newline are one constant.
 *
 * <p>Not thread-safe: one lexer belongs to one parse.
 */
public final class SqlLexer {
    /** PostgreSQL's reserved keywords (Appendix C, "reserved" in PostgreSQL): never identifiers unquoted. */
    static final Set<String> RESERVED = Set.of(
            "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both", "case",
            "cast", "check", "collate", "column", "constraint", "create", "current_catalog", "current_date",
            "current_role", "current_time", "current_timestamp", "current_user", "default", "deferrable",
            "desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "from",
            "grant", "group", "having", "in", "initially", "intersect", "into", "lateral", "leading",
            "limit", "localtime", "localtimestamp", "not", "null", "offset", "on", "only", "or", "order",
            "placing", "primary", "references", "returning", "select", "session_user", "some", "symmetric",
            "table", "then", "to", "trailing", "true", "union", "unique", "user", "using", "variadic",
            "when", "where", "window", "with");

    private static final String OP_CHARS = "~!@#^&|`?+-*/%<>=";
    /** Characters after which a trailing '+'/'-' may end a multi-character operator. */
    private static final String NON_SQL_OP_CHARS = "~!@#^&|`?%";

    private final String sql;
    private final int length;
    private int pos;

    public SqlLexer(String sql) {
        this.sql = sql;
        this.length = sql.length();
    }

    /** All tokens of {@code sql}, ending with exactly one {@link TokenKind#EOF}. */
    public static List<Token> tokenize(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        List<Token> tokens = new ArrayList<>();
        Token t;
        do {
            t = lexer.next();
            tokens.add(t);
        } while (t.kind() != TokenKind.EOF);
        return tokens;
    }

    /** The text being lexed. */
    public String sql() { return sql; }

    /** The next token; {@link TokenKind#EOF} (repeatedly) at the end. Lexical errors are {@link SqlSyntaxException}s. */
    public Token next() {
        skipSpaceAndComments();
        if (pos >= length) return new Token(TokenKind.EOF, "", "", length);
        int start = pos;
        char c = sql.charAt(pos);
        char c1 = at(pos + 1);
        if (c1 == '\'') {
            switch (c) {
                case 'e', 'E' -> { pos++; return string(start, Quote.ESCAPE); }
                case 'n', 'N' -> { pos++; return string(start, Quote.STANDARD); }
                case 'b', 'B' -> { pos++; return bitString(start, 'b'); }
                case 'x', 'X' -> { pos++; return bitString(start, 'x'); }
                default -> { }
            }
        }
        if ((c == 'u' || c == 'U') && c1 == '&' && (at(pos + 2) == '\'' || at(pos + 2) == '"')) {
            pos += 2;
            return at(pos) == '\'' ? string(start, Quote.UNICODE) : quotedIdentifier(start, true);
        }
        if (c == '\'') return string(start, Quote.STANDARD);
        if (c == '"') return quotedIdentifier(start, false);
        if (c == '$') return dollar(start);
        if (isIdentStart(c)) return identifier(start);
        if (isDigit(c) || (c == '.' && isDigit(c1))) return number(start);
        if (c == ':') {
            pos += (c1 == ':' || c1 == '=') ? 2 : 1;
            return token(TokenKind.PUNCTUATION, sql.substring(start, pos), start);
        }
        if (c == '.') {
            pos += c1 == '.' ? 2 : 1;
            return token(TokenKind.PUNCTUATION, sql.substring(start, pos), start);
        }
        if (",()[];".indexOf(c) >= 0) {
            pos++;
            return token(TokenKind.PUNCTUATION, String.valueOf(c), start);
        }
        if (OP_CHARS.indexOf(c) >= 0) return operator(start);
        pos += Character.charCount(sql.codePointAt(pos));
        return token(TokenKind.OTHER, sql.substring(start, pos), start);
    }

    // ---- whitespace and comments

    private void skipSpaceAndComments() {
        while (pos < length) {
            char c = sql.charAt(pos);
            if (isSpace(c)) {
                pos++;
            } else if (c == '-' && at(pos + 1) == '-') {
                skipLineComment();
            } else if (c == '/' && at(pos + 1) == '*') {
                skipBlockComment();
            } else {
                return;
            }
        }
    }

    private void skipLineComment() {
        while (pos < length && sql.charAt(pos) != '\n' && sql.charAt(pos) != '\r') pos++;
    }

    private void skipBlockComment() {
        int start = pos;
        int depth = 0;
        while (pos < length) {
            if (sql.startsWith("/*", pos)) {
                depth++;
                pos += 2;
            } else if (sql.startsWith("*/", pos)) {
                depth--;
                pos += 2;
                if (depth == 0) return;
            } else {
                pos++;
            }
        }
        throw new SqlSyntaxException("unterminated /* comment at or near \"" + sql.substring(start) + "\"", start);
    }

    // ---- identifiers

    private Token identifier(int start) {
        pos++;
        while (pos < length && isIdentCont(sql.charAt(pos))) pos++;
        String source = sql.substring(start, pos);
        String folded = foldAscii(source);
        return new Token(RESERVED.contains(folded) ? TokenKind.KEYWORD : TokenKind.IDENTIFIER, folded, source, start);
    }

    private Token quotedIdentifier(int start, boolean unicode) {
        pos++; // opening "
        StringBuilder value = new StringBuilder();
        while (true) {
            if (pos >= length) {
                throw new SqlSyntaxException(
                        "unterminated quoted identifier at or near \"" + sql.substring(start) + "\"", start);
            }
            char c = sql.charAt(pos++);
            if (c == '"') {
                if (at(pos) == '"') {
                    value.append('"');
                    pos++;
                } else {
                    break;
                }
            } else {
                value.append(c);
            }
        }
        String text = value.toString();
        if (text.isEmpty()) {
            throw new SqlSyntaxException(
                    "zero-length delimited identifier at or near \"" + sql.substring(start, pos) + "\"", start);
        }
        if (unicode) text = unicodeUnescape(text, uescape(), start);
        return token(TokenKind.QUOTED_IDENTIFIER, text, start);
    }

    // ---- strings

    private enum Quote { STANDARD, ESCAPE, UNICODE }

    /** A quoted string starting at {@code pos} (the opening quote), with continuations. */
    private Token string(int start, Quote quote) {
        StringBuilder text = new StringBuilder();
        while (true) {
            String piece = quote == Quote.ESCAPE ? escapeBody(start) : standardBody(start);
            text.append(piece);
            if (!continuation()) break;
        }
        String value = text.toString();
        if (quote == Quote.UNICODE) value = unicodeUnescape(value, uescape(), start);
        return token(TokenKind.STRING, value, start);
    }

    /** Reads {@code '...'} with {@code ''} as an escaped quote, from the opening quote at {@code pos}. */
    private String standardBody(int start) {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= length) throw unterminatedString(start);
            char c = sql.charAt(pos++);
            if (c == '\'') {
                if (at(pos) == '\'') {
                    sb.append('\'');
                    pos++;
                } else {
                    return sb.toString();
                }
            } else {
                sb.append(c);
            }
        }
    }

    /**
     * Reads the body of an {@code E'...'} string. Escapes are decoded into UTF-8 bytes so that
     * {@code \xNN} and octal escapes can build multi-byte characters, then decoded strictly.
     */
    private String escapeBody(int start) {
        pos++;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (true) {
            if (pos >= length) throw unterminatedString(start);
            char c = sql.charAt(pos++);
            if (c == '\'') {
                if (at(pos) == '\'') {
                    bytes.write('\'');
                    pos++;
                    continue;
                }
                break;
            }
            if (c != '\\') {
                int cp = c;
                if (Character.isHighSurrogate(c) && pos < length && Character.isLowSurrogate(sql.charAt(pos))) {
                    cp = Character.toCodePoint(c, sql.charAt(pos++));
                }
                writeUtf8(bytes, cp);
                continue;
            }
            if (pos >= length) throw unterminatedString(start);
            int escStart = pos - 1;
            char e = sql.charAt(pos++);
            switch (e) {
                case 'b' -> bytes.write('\b');
                case 'f' -> bytes.write('\f');
                case 'n' -> bytes.write('\n');
                case 'r' -> bytes.write('\r');
                case 't' -> bytes.write('\t');
                case 'x' -> {
                    int v = 0, n = 0;
                    while (n < 2 && pos < length && Character.digit(sql.charAt(pos), 16) >= 0) {
                        v = v * 16 + Character.digit(sql.charAt(pos++), 16);
                        n++;
                    }
                    if (n == 0) bytes.write('x'); // "\x" without digits is just 'x', as in PostgreSQL
                    else bytes.write(v);
                }
                case 'u', 'U' -> {
                    int cp = hexDigits(e == 'u' ? 4 : 8, escStart);
                    if (Character.isHighSurrogate((char) cp) && cp <= 0xFFFF) {
                        if (!(at(pos) == '\\' && (at(pos + 1) == 'u' || at(pos + 1) == 'U'))) {
                            throw new SqlSyntaxException("invalid Unicode surrogate pair", escStart);
                        }
                        char u = sql.charAt(pos + 1);
                        pos += 2;
                        int low = hexDigits(u == 'u' ? 4 : 8, escStart);
                        if (low > 0xFFFF || !Character.isLowSurrogate((char) low)) {
                            throw new SqlSyntaxException("invalid Unicode surrogate pair", escStart);
                        }
                        cp = Character.toCodePoint((char) cp, (char) low);
                    } else if (cp <= 0xFFFF && Character.isLowSurrogate((char) cp)) {
                        throw new SqlSyntaxException("invalid Unicode surrogate pair", escStart);
                    }
                    if (cp == 0 || !Character.isValidCodePoint(cp)) {
                        throw new SqlSyntaxException("invalid Unicode escape value", escStart);
                    }
                    writeUtf8(bytes, cp);
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int v = e - '0', n = 1;
                        while (n < 3 && at(pos) >= '0' && at(pos) <= '7') {
                            v = v * 8 + (sql.charAt(pos++) - '0');
                            n++;
                        }
                        bytes.write(v & 0xFF);
                    } else {
                        int cp = e;
                        if (Character.isHighSurrogate(e) && pos < length && Character.isLowSurrogate(sql.charAt(pos))) {
                            cp = Character.toCodePoint(e, sql.charAt(pos++));
                        }
                        writeUtf8(bytes, cp);
                    }
                }
            }
        }
        byte[] raw = bytes.toByteArray();
        for (byte b : raw) {
            if (b == 0) {
                // PostgreSQL text cannot hold NUL; it reports 22021 (character_not_in_repertoire).
                throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                        "invalid byte sequence for encoding \"UTF8\": 0x00");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (CharacterCodingException ex) {
            // PostgreSQL reports 22021 (character_not_in_repertoire); the closest state we carry.
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid byte sequence for encoding \"UTF8\" in string constant");
        }
    }

    private int hexDigits(int count, int escStart) {
        int v = 0;
        for (int i = 0; i < count; i++) {
            int d = pos < length ? Character.digit(sql.charAt(pos), 16) : -1;
            if (d < 0) throw new SqlSyntaxException("invalid Unicode escape", escStart);
            // 8 hex digits can exceed int: any value above the Unicode range is invalid anyway.
            v = (v > 0x10FFFF) ? v : v * 16 + d;
            pos++;
        }
        return v;
    }

    private static void writeUtf8(ByteArrayOutputStream out, int cp) {
        byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
    }

    /**
     * SQL's string continuation: after a closing quote, whitespace that includes a newline
     * (and {@code --} comments after it) followed by another quote continues the constant.
     * Leaves {@code pos} on the next opening quote when it returns true.
     */
    private boolean continuation() {
        int p = pos;
        boolean newline = false;
        while (p < length) {
            char c = sql.charAt(p);
            if (c == '\n' || c == '\r') {
                newline = true;
                p++;
            } else if (isSpace(c)) {
                p++;
            } else if (c == '-' && p + 1 < length && sql.charAt(p + 1) == '-') {
                while (p < length && sql.charAt(p) != '\n' && sql.charAt(p) != '\r') p++;
            } else {
                break;
            }
        }
        if (newline && p < length && sql.charAt(p) == '\'') {
            pos = p;
            return true;
        }
        return false;
    }

    /** An optional {@code UESCAPE 'c'} after a U& literal; returns the escape character. */
    private char uescape() {
        int save = pos;
        skipSpaceAndComments();
        if (pos + 7 <= length && sql.regionMatches(true, pos, "uescape", 0, 7)
                && (pos + 7 == length || !isIdentCont(sql.charAt(pos + 7)))) {
            int kw = pos;
            pos += 7;
            skipSpaceAndComments();
            if (at(pos) == '\'' && at(pos + 2) == '\'' && pos + 2 < length) {
                char e = sql.charAt(pos + 1);
                pos += 3;
                if (isHexDigit(e) || e == '+' || e == '\'' || e == '"' || isSpace(e)) {
                    throw new SqlSyntaxException("invalid Unicode escape character", kw);
                }
                return e;
            }
            throw new SqlSyntaxException("UESCAPE must be followed by a simple string literal", kw);
        }
        pos = save;
        return '\\';
    }

    /** Resolves {@code U&} escapes: {@code <e>XXXX}, {@code <e>+XXXXXX}, {@code <e><e>}. */
    private static String unicodeUnescape(String s, char esc, int start) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != esc) {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 < s.length() && s.charAt(i + 1) == esc) {
                out.append(esc);
                i += 2;
                continue;
            }
            int digits = (i + 1 < s.length() && s.charAt(i + 1) == '+') ? 6 : 4;
            int from = i + (digits == 6 ? 2 : 1);
            if (from + digits > s.length()) throw invalidUnicodeEscape(start);
            int cp = 0;
            for (int k = from; k < from + digits; k++) {
                int d = Character.digit(s.charAt(k), 16);
                if (d < 0) throw invalidUnicodeEscape(start);
                cp = cp * 16 + d;
            }
            i = from + digits;
            if (cp <= 0xFFFF && Character.isHighSurrogate((char) cp)) {
                // A surrogate pair written as two escapes.
                if (i + 5 <= s.length() && s.charAt(i) == esc) {
                    int low = 0;
                    for (int k = i + 1; k < i + 5; k++) {
                        int d = Character.digit(s.charAt(k), 16);
                        if (d < 0) throw invalidUnicodeEscape(start);
                        low = low * 16 + d;
                    }
                    if (Character.isLowSurrogate((char) low)) {
                        out.appendCodePoint(Character.toCodePoint((char) cp, (char) low));
                        i += 5;
                        continue;
                    }
                }
                throw new SqlSyntaxException("invalid Unicode surrogate pair", start);
            }
            if (cp == 0 || !Character.isValidCodePoint(cp) || (cp <= 0xFFFF && Character.isLowSurrogate((char) cp))) {
                throw new SqlSyntaxException("invalid Unicode escape value", start);
            }
            out.appendCodePoint(cp);
        }
        return out.toString();
    }

    private static SqlSyntaxException invalidUnicodeEscape(int start) {
        return new SqlSyntaxException("invalid Unicode escape (Unicode escapes must be \\XXXX or \\+XXXXXX)", start);
    }

    private SqlSyntaxException unterminatedString(int start) {
        return new SqlSyntaxException("unterminated quoted string at or near \"" + sql.substring(start) + "\"", start);
    }

    private Token bitString(int start, char prefix) {
        String body = standardBody(start);
        while (continuation()) body += standardBody(start);
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            boolean ok = prefix == 'b' ? (c == '0' || c == '1') : isHexDigit(c);
            if (!ok) {
                throw new SqlSyntaxException("\"" + c + "\" is not a valid " + (prefix == 'b' ? "binary" : "hexadecimal")
                        + " digit", start);
            }
        }
        return token(TokenKind.BIT_STRING, prefix + body, start);
    }

    // ---- $: parameters and dollar quotes

    private Token dollar(int start) {
        char c1 = at(pos + 1);
        if (isDigit(c1)) {
            pos++;
            while (pos < length && isDigit(sql.charAt(pos))) pos++;
            if (pos < length && isIdentCont(sql.charAt(pos))) {
                int end = pos;
                while (end < length && isIdentCont(sql.charAt(end))) end++;
                throw new SqlSyntaxException(
                        "trailing junk after parameter at or near \"" + sql.substring(start, end) + "\"", start);
            }
            return token(TokenKind.PARAMETER, sql.substring(start + 1, pos), start);
        }
        // $tag$ where tag is empty or [A-Za-z\200-\377_][A-Za-z\200-\377_0-9]*
        int p = pos + 1;
        if (p < length && isIdentStart(sql.charAt(p))) {
            p++;
            while (p < length && isIdentCont(sql.charAt(p)) && sql.charAt(p) != '$') p++;
        }
        if (p < length && sql.charAt(p) == '$') {
            String delimiter = sql.substring(start, p + 1);
            int bodyStart = p + 1;
            int close = sql.indexOf(delimiter, bodyStart);
            if (close < 0) {
                throw new SqlSyntaxException(
                        "unterminated dollar-quoted string at or near \"" + sql.substring(start) + "\"", start);
            }
            pos = close + delimiter.length();
            return token(TokenKind.STRING, sql.substring(bodyStart, close), start);
        }
        pos++;
        return token(TokenKind.OTHER, "$", start);
    }

    // ---- numbers

    private Token number(int start) {
        boolean decimal = false;
        if (sql.charAt(pos) == '0' && (at(pos + 1) == 'x' || at(pos + 1) == 'X' || at(pos + 1) == 'o'
                || at(pos + 1) == 'O' || at(pos + 1) == 'b' || at(pos + 1) == 'B')) {
            int radix = switch (at(pos + 1)) {
                case 'x', 'X' -> 16;
                case 'o', 'O' -> 8;
                default -> 2;
            };
            int p = pos + 2;
            int digitsStart = p;
            while (p < length && (Character.digit(sql.charAt(p), radix) >= 0
                    || (sql.charAt(p) == '_' && p > digitsStart && Character.digit(at(p + 1), radix) >= 0))) {
                p++;
            }
            if (p > digitsStart) {
                pos = p;
                checkTrailingJunk(start);
                String digits = sql.substring(digitsStart, p).replace("_", "");
                return token(TokenKind.INTEGER, new BigInteger(digits, radix).toString(), start);
            }
            // "0x" without digits: the 0 is a number and "x..." is junk after it.
        }
        scanDigits();
        if (at(pos) == '.' && at(pos + 1) != '.') {
            decimal = true;
            pos++;
            scanDigits();
        }
        if (at(pos) == 'e' || at(pos) == 'E') {
            int p = pos + 1;
            if (at(p) == '+' || at(p) == '-') p++;
            if (isDigit(at(p))) {
                decimal = true;
                pos = p;
                scanDigits();
            } else {
                throw new SqlSyntaxException("trailing junk after numeric literal at or near \""
                        + sql.substring(start, Math.min(p, length)) + "\"", start);
            }
        }
        checkTrailingJunk(start);
        String text = sql.substring(start, pos).replace("_", "");
        return token(decimal ? TokenKind.DECIMAL : TokenKind.INTEGER, text, start);
    }

    /** Digits with single underscores between them (PostgreSQL 16). */
    private void scanDigits() {
        while (pos < length) {
            char c = sql.charAt(pos);
            if (isDigit(c)) pos++;
            else if (c == '_' && pos > 0 && isDigit(sql.charAt(pos - 1)) && isDigit(at(pos + 1))) pos++;
            else break;
        }
    }

    private void checkTrailingJunk(int start) {
        if (pos < length && isIdentStart(sql.charAt(pos))) {
            int end = pos;
            while (end < length && isIdentCont(sql.charAt(end))) end++;
            throw new SqlSyntaxException(
                    "trailing junk after numeric literal at or near \"" + sql.substring(start, end) + "\"", start);
        }
    }

    // ---- operators

    private Token operator(int start) {
        int end = pos;
        while (end < length && OP_CHARS.indexOf(sql.charAt(end)) >= 0) end++;
        String op = sql.substring(start, end);
        int n = op.length();
        // A comment start inside the run ends the operator there.
        int slashStar = op.indexOf("/*");
        int dashDash = op.indexOf("--");
        int cut = slashStar < 0 ? dashDash : (dashDash < 0 ? slashStar : Math.min(slashStar, dashDash));
        if (cut >= 0) n = cut;
        // SQL compatibility: a multi-char operator cannot end in + or - unless it contains
        // a character that is not in any SQL-standard operator ("=-1" is "=" then "-1").
        if (n > 1 && (op.charAt(n - 1) == '+' || op.charAt(n - 1) == '-')) {
            boolean nonSql = false;
            for (int i = 0; i < n - 1; i++) if (NON_SQL_OP_CHARS.indexOf(op.charAt(i)) >= 0) nonSql = true;
            if (!nonSql) {
                do n--; while (n > 1 && (op.charAt(n - 1) == '+' || op.charAt(n - 1) == '-'));
            }
        }
        pos = start + n;
        return token(TokenKind.OPERATOR, op.substring(0, n), start);
    }

    // ---- helpers

    private Token token(TokenKind kind, String text, int start) {
        return new Token(kind, text, sql.substring(start, pos), start);
    }

    private char at(int i) { return i < length ? sql.charAt(i) : '\0'; }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\u000B';
    }

    static boolean isDigit(char c) { return c >= '0' && c <= '9'; }

    private static boolean isHexDigit(char c) { return Character.digit(c, 16) >= 0 && c < 0x80; }

    static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    static boolean isIdentCont(char c) { return isIdentStart(c) || isDigit(c) || c == '$'; }

    /** PostgreSQL's downcase_identifier for UTF-8: only ASCII letters fold. */
    static String foldAscii(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (sb == null) sb = new StringBuilder(s);
                sb.setCharAt(i, (char) (c + ('a' - 'A')));
            }
        }
        return sb == null ? s : sb.toString();
    }
}
