package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL string functions. Positions and lengths count code points (characters in
 * UTF-8), never UTF-16 units.
 */
final class StringFuncs {
    private StringFuncs() {}

    /** Above PostgreSQL's 1 GB field limit a result is refused rather than built. */
    private static final long MAX_LENGTH = (1L << 30) - 1;

    static String s(Object o) { return (String) o; }

    static int len(String s) { return s.codePointCount(0, s.length()); }

    /** Code point range [from, to) (0-based, clamped) of {@code s}. */
    static String cpSubstring(String s, long from, long to) {
        int n = len(s);
        int a = (int) Math.max(0, Math.min(from, n));
        int b = (int) Math.max(a, Math.min(to, n));
        return s.substring(s.offsetByCodePoints(0, a), s.offsetByCodePoints(0, b));
    }

    private static SqlException tooLong() {
        return new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large");
    }

    /** substring(s, from[, count]) with PostgreSQL's 1-based, negative-start semantics. */
    static Object substring(String str, long start, Long count) {
        if (count == null) return cpSubstring(str, start - 1, Long.MAX_VALUE);
        if (count < 0) throw new SqlException(SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
        long end = start + count; // exclusive, 1-based
        if (end < start) end = Long.MAX_VALUE;
        return cpSubstring(str, Math.max(start, 1) - 1, end - 1);
    }

    static Object substringBytes(ByteString b, long start, Long count) {
        byte[] bytes = b.toByteArray();
        long end;
        if (count == null) end = Long.MAX_VALUE;
        else {
            if (count < 0) throw new SqlException(SqlState.SUBSTRING_ERROR, "negative substring length not allowed");
            end = start + count;
        }
        int a = (int) Math.min(Math.max(start, 1) - 1, bytes.length);
        int e = (int) Math.max(a, Math.min(end - 1, bytes.length));
        return ByteString.wrap(Arrays.copyOfRange(bytes, a, e));
    }

    /** substring(s from pattern): the first parenthesized group if any, else the whole match. */
    static Object substringRegex(String str, Pattern p) {
        Matcher m = p.matcher(str);
        if (!m.find()) return null;
        return m.groupCount() > 0 ? m.group(1) : m.group();
    }

    /** 1-based code point position of needle in haystack, 0 if absent. */
    static int position(String needle, String haystack) {
        int i = haystack.indexOf(needle);
        return i < 0 ? 0 : haystack.codePointCount(0, i) + 1;
    }

    static String trim(String str, String chars, boolean leading, boolean trailing) {
        int a = 0, b = str.length();
        if (leading) {
            while (a < b) {
                int c = str.codePointAt(a);
                if (chars.indexOf(c) < 0) break;
                a += Character.charCount(c);
            }
        }
        if (trailing) {
            while (b > a) {
                int c = str.codePointBefore(b);
                if (chars.indexOf(c) < 0) break;
                b -= Character.charCount(c);
            }
        }
        return str.substring(a, b);
    }

    static String repeat(String str, long n) {
        if (n <= 0 || str.isEmpty()) return "";
        if ((long) str.length() * n > MAX_LENGTH) throw tooLong();
        return str.repeat((int) n);
    }

    static String left(String str, long n) {
        int l = len(str);
        return n >= 0 ? cpSubstring(str, 0, n) : cpSubstring(str, 0, l + n);
    }

    static String right(String str, long n) {
        int l = len(str);
        return n >= 0 ? cpSubstring(str, l - n, l) : cpSubstring(str, -n, l);
    }

    static String pad(String str, long length, String fill, boolean leftSide) {
        if (length <= 0) return "";
        if (length > MAX_LENGTH) throw tooLong();
        int l = len(str);
        if (l >= length || fill.isEmpty()) return cpSubstring(str, 0, length);
        int need = (int) length - l;
        int[] f = fill.codePoints().toArray();
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < need; i++) p.appendCodePoint(f[i % f.length]);
        return leftSide ? p + str : str + p;
    }

    /**
     * Case mapping one code point at a time, like PostgreSQL's towupper/towlower: 'ß'
     * stays 'ß' (Java's String.toUpperCase would expand it to "SS").
     */
    static String mapCodePoints(String str, IntUnaryOperator f) {
        StringBuilder sb = new StringBuilder(str.length());
        str.codePoints().forEach(c -> sb.appendCodePoint(f.applyAsInt(c)));
        return sb.toString();
    }

    static String initcap(String str) {
        StringBuilder sb = new StringBuilder(str.length());
        boolean inWord = false;
        for (int i = 0; i < str.length(); ) {
            int c = str.codePointAt(i);
            i += Character.charCount(c);
            sb.appendCodePoint(inWord ? Character.toLowerCase(c) : Character.toUpperCase(c));
            inWord = Character.isLetterOrDigit(c);
        }
        return sb.toString();
    }

    static String splitPart(String str, String delim, long n) {
        if (n == 0) throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "field position must not be zero");
        if (delim.isEmpty()) return (n == 1 || n == -1) ? str : "";
        List<String> parts = new ArrayList<>();
        int from = 0;
        while (true) {
            int i = str.indexOf(delim, from);
            if (i < 0) { parts.add(str.substring(from)); break; }
            parts.add(str.substring(from, i));
            from = i + delim.length();
        }
        if (str.isEmpty()) return "";
        long idx = n > 0 ? n - 1 : parts.size() + n;
        return idx < 0 || idx >= parts.size() ? "" : parts.get((int) idx);
    }

    static String translate(String str, String from, String to) {
        int[] f = from.codePoints().toArray();
        int[] t = to.codePoints().toArray();
        StringBuilder sb = new StringBuilder(str.length());
        str.codePoints().forEach(c -> {
            int i = -1;
            for (int k = 0; k < f.length; k++) if (f[k] == c) { i = k; break; }
            if (i < 0) sb.appendCodePoint(c);
            else if (i < t.length) sb.appendCodePoint(t[i]);
        });
        return sb.toString();
    }

    static String reverse(String str) {
        return new StringBuilder(str).reverse().toString(); // StringBuilder.reverse keeps surrogate pairs
    }

    static Object chr(long code) {
        if (code == 0) throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
        if (code < 0 || code > 0x10FFFF) {
            throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character too large for encoding: " + code);
        }
        if (code >= 0xD800 && code <= 0xDFFF) {
            throw new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character not valid for encoding: " + code);
        }
        return new String(Character.toChars((int) code));
    }

    static int ascii(String str) { return str.isEmpty() ? 0 : str.codePointAt(0); }

    static String md5(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] utf8(String str) { return str.getBytes(StandardCharsets.UTF_8); }

    /** PostgreSQL's reserved key words (ScanKeyword with RESERVED/COL_NAME/TYPE_FUNC categories quoted by quote_ident). */
    private static final Set<String> KEYWORDS = Set.of(
            "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "between",
            "bigint", "binary", "bit", "boolean", "both", "case", "cast", "char", "character", "check", "coalesce",
            "collate", "collation", "column", "concurrently", "constraint", "create", "cross", "current_catalog",
            "current_date", "current_role", "current_schema", "current_time", "current_timestamp", "current_user",
            "dec", "decimal", "default", "deferrable", "desc", "distinct", "do", "else", "end", "except", "exists",
            "extract", "false", "fetch", "float", "for", "foreign", "freeze", "from", "full", "grant", "greatest",
            "group", "grouping", "having", "ilike", "in", "initially", "inner", "inout", "int", "integer", "intersect",
            "interval", "into", "is", "isnull", "join", "lateral", "leading", "least", "left", "like", "limit",
            "localtime", "localtimestamp", "national", "natural", "nchar", "none", "normalize", "not", "notnull",
            "null", "nullif", "numeric", "offset", "on", "only", "or", "order", "out", "outer", "overlaps", "overlay",
            "placing", "position", "precision", "primary", "real", "references", "returning", "right", "row",
            "select", "session_user", "setof", "similar", "smallint", "some", "substring", "symmetric", "system_user",
            "table", "tablesample", "then", "time", "timestamp", "to", "trailing", "treat", "trim", "true", "union",
            "unique", "user", "using", "values", "varchar", "variadic", "verbose", "when", "where", "window", "with",
            "xmlattributes", "xmlconcat", "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces", "xmlparse",
            "xmlpi", "xmlroot", "xmlserialize", "xmltable");

    static String quoteIdent(String id) {
        boolean safe = !id.isEmpty() && (Character.isLowerCase(id.charAt(0)) && id.charAt(0) < 128 || id.charAt(0) == '_');
        for (int i = 0; safe && i < id.length(); i++) {
            char c = id.charAt(i);
            safe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        }
        if (safe && !KEYWORDS.contains(id)) return id;
        return "\"" + id.replace("\"", "\"\"") + "\"";
    }

    static String quoteLiteral(String str) {
        String body = str.replace("'", "''");
        if (str.indexOf('\\') >= 0) return "E'" + body.replace("\\", "\\\\") + "'";
        return "'" + body + "'";
    }

    static String toHex(Object v) {
        if (v instanceof Long l) return Long.toHexString(l);
        if (v instanceof Short s) return Integer.toHexString(s);
        return Integer.toHexString(((Number) v).intValue());
    }

    // ---------------------------------------------------------------- encode / decode

    static String encode(ByteString b, String format) {
        byte[] bytes = b.toByteArray();
        return switch (format.toLowerCase(Locale.ROOT)) {
            case "hex" -> HexFormat.of().formatHex(bytes);
            case "base64" -> {
                String enc = Base64.getEncoder().encodeToString(bytes);
                StringBuilder sb = new StringBuilder(enc.length() + enc.length() / 76);
                for (int i = 0; i < enc.length(); i += 76) {
                    if (i > 0) sb.append('\n');
                    sb.append(enc, i, Math.min(enc.length(), i + 76));
                }
                yield sb.toString();
            }
            case "escape" -> {
                StringBuilder sb = new StringBuilder(bytes.length);
                for (byte x : bytes) {
                    int u = x & 0xff;
                    if (u == '\\') sb.append("\\\\");
                    else if (u == 0 || u >= 0x80) sb.append('\\').append(String.format("%03o", u));
                    else sb.append((char) u);
                }
                yield sb.toString();
            }
            default -> throw unknownEncoding(format);
        };
    }

    private static SqlException unknownEncoding(String format) {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized encoding: \"" + format + "\"");
    }

    static ByteString decode(String text, String format) {
        return switch (format.toLowerCase(Locale.ROOT)) {
            case "hex" -> {
                String t = text.replaceAll("\\s", "");
                if (t.length() % 2 != 0) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal data: odd number of digits");
                }
                try {
                    yield ByteString.wrap(HexFormat.of().parseHex(t));
                } catch (IllegalArgumentException e) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal digit");
                }
            }
            case "base64" -> {
                try {
                    yield ByteString.wrap(Base64.getMimeDecoder().decode(text));
                } catch (IllegalArgumentException e) {
                    // PostgreSQL's words, not Java's ("Input byte array has wrong 4-byte ending unit")
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "invalid base64 end sequence", null,
                            "Input data is missing padding, is truncated, or is otherwise corrupted.");
                }
            }
            case "escape" -> (ByteString) DatumText.parse(
                    SqlType.BYTEA, text.startsWith("\\x") ? "\\\\" + text.substring(1) : text);
            default -> throw unknownEncoding(format);
        };
    }

    static Object getByte(ByteString b, long n) {
        if (n < 0 || n >= b.length()) {
            throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR,
                    "index " + n + " out of valid range, 0.." + (b.length() - 1));
        }
        return b.byteAt((int) n) & 0xff;
    }
}
