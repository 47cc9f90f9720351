package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Translation of SQL pattern languages (LIKE, SIMILAR TO) and POSIX regular expressions
 * into {@link java.util.regex.Pattern}s. Translated patterns are matched whole
 * ({@code matches()}); regular expressions search ({@code find()}).
 *
 * <p>Java's regex dialect stands in for PostgreSQL's ARE: ordinary expressions
 * (classes, quantifiers, groups, anchors, alternation) behave alike; ARE-only escapes
 * such as {@code \m} or {@code [[:<:]]} are not supported.
 */
final class Patterns {
    private Patterns() {}

    /** LIKE/ILIKE: % any run, _ one character, {@code escape} (or -1 for none) quotes the next. */
    static Pattern like(String pattern, int escape, boolean caseInsensitive) {
        StringBuilder re = new StringBuilder(pattern.length() + 8);
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == escape) {
                if (i >= pattern.length()) {
                    throw new SqlException(SqlState.INVALID_ESCAPE_SEQUENCE, "LIKE pattern must not end with escape character");
                }
                int n = pattern.codePointAt(i);
                i += Character.charCount(n);
                literal(re, n);
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                literal(re, c);
            }
        }
        int flags = Pattern.DOTALL | (caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        return Pattern.compile(re.toString(), flags);
    }

    private static void literal(StringBuilder re, int c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' || c > 127) {
            re.appendCodePoint(c);
        } else {
            re.append('\\').appendCodePoint(c);
        }
    }

    /** Parses the escape argument of LIKE/SIMILAR: empty means none; more than one character is 22025. */
    static int escapeChar(String esc) {
        if (esc.isEmpty()) return -1;
        if (esc.codePointCount(0, esc.length()) != 1) {
            throw new SqlException(SqlState.INVALID_ESCAPE_SEQUENCE, "invalid escape string",
                    null, "Escape string must be empty or one character.");
        }
        return esc.codePointAt(0);
    }

    /** SIMILAR TO: SQL regular expressions as PostgreSQL's similar_to_escape translates them. */
    static Pattern similar(String pattern, int escape) {
        // Escape-double-quote markers only matter to substring(); here they group nothing.
        return compileRegex(similarRegex(pattern, escape).replace("\u0000", ""), 0);
    }

    /**
     * {@code substring(s similar pattern escape e)}: the pattern is split by the markers
     * e" into three parts and the middle part is returned; the first part matches as
     * little as possible, as in PostgreSQL.
     */
    static Pattern similarSubstring(String pattern, int escape) {
        String re = similarRegex(pattern, escape);
        int markers = re.length() - re.replace("\u0000", "").length();
        if (markers == 0) return compileRegex("(" + re + ")", 0);
        if (markers != 2) {
            throw new SqlException(SqlState.INVALID_ESCAPE_SEQUENCE,
                    "SQL regular expression may not contain more than two escape-double-quote separators");
        }
        int a = re.indexOf('\u0000'), b = re.indexOf('\u0000', a + 1);
        String first = re.substring(0, a).replace(".*", ".*?");
        return compileRegex(first + "(" + re.substring(a + 1, b) + ")" + re.substring(b + 1), 0);
    }

    /** Translates a SIMILAR TO pattern; escape-double-quote markers become U+0000 (used by substring only). */
    private static String similarRegex(String pattern, int escape) {
        StringBuilder re = new StringBuilder(pattern.length() + 8);
        boolean inBracket = false;
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == escape && i < pattern.length() && pattern.charAt(i) == '"') {
                re.append('\u0000');
                i++;
            } else if (c == escape) {
                if (i >= pattern.length()) {
                    throw new SqlException(SqlState.INVALID_ESCAPE_SEQUENCE,
                            "SIMILAR TO pattern must not end with escape character");
                }
                int n = pattern.codePointAt(i);
                i += Character.charCount(n);
                literal(re, n);
            } else if (inBracket) {
                if (c == ']') inBracket = false;
                if (c == '\\') re.append('\\');
                re.appendCodePoint(c);
            } else if (c == '[') {
                inBracket = true;
                re.append('[');
                if (i < pattern.length() && pattern.charAt(i) == '^') { re.append('^'); i++; }
                if (i < pattern.length() && pattern.charAt(i) == ']') { re.append("\\]"); i++; }
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else if (c == '.' || c == '^' || c == '$' || c == '\\') {
                re.append('\\').appendCodePoint(c);
            } else {
                re.appendCodePoint(c);
            }
        }
        return re.toString();
    }

    static Pattern regex(String pattern, boolean caseInsensitive) {
        return compileRegex(translateAre(pattern), caseInsensitive ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
    }

    private static final String[][] POSIX_CLASSES = {
            {"[:alpha:]", "\\p{IsAlphabetic}"}, {"[:digit:]", "0-9"}, {"[:alnum:]", "\\p{IsAlphabetic}0-9"},
            {"[:upper:]", "\\p{IsUppercase}"}, {"[:lower:]", "\\p{IsLowercase}"}, {"[:space:]", "\\s"},
            {"[:punct:]", "\\p{Punct}"}, {"[:xdigit:]", "0-9A-Fa-f"}, {"[:word:]", "\\w"},
            {"[:blank:]", " \\t"}, {"[:cntrl:]", "\\p{Cntrl}"}, {"[:print:]", "\\p{Print}"}, {"[:graph:]", "\\p{Graph}"}};

    /** Rewrites the ARE features Java spells differently: POSIX bracket classes and \m \M \y word anchors. */
    private static String translateAre(String pattern) {
        String p = pattern;
        if (p.contains("[:")) {
            for (String[] c : POSIX_CLASSES) p = p.replace(c[0], c[1]);
        }
        if (p.indexOf('\\') >= 0) {
            StringBuilder sb = new StringBuilder(p.length());
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (c == '\\' && i + 1 < p.length()) {
                    char n = p.charAt(++i);
                    switch (n) {
                        case 'm' -> sb.append("\\b(?=\\w)");
                        case 'M' -> sb.append("\\b(?<=\\w)");
                        case 'y' -> sb.append("\\b");
                        case 'Y' -> sb.append("\\B");
                        default -> sb.append(c).append(n);
                    }
                } else {
                    sb.append(c);
                }
            }
            p = sb.toString();
        }
        return p;
    }

    private static Pattern compileRegex(String re, int flags) {
        try {
            return Pattern.compile(re, flags);
        } catch (PatternSyntaxException e) {
            throw new SqlException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: " + e.getDescription());
        }
    }
}
