package io.stillwater.bench.feature.scenario;

import io.stillwater.bench.scenario.ScenarioDefinitionException;
import java.util.ArrayList;
import java.util.List;

/**
 * A lexer just precise enough to split PostgreSQL-dialect scripts: it knows where string literals
 * ({@code '...'} with {@code ''}, {@code E'...'} with backslash escapes), quoted identifiers
 * ({@code "..."} with {@code ""}), dollar-quoted strings ({@code $$...$$}, {@code $tag$...$tag$}),
 * line comments ({@code --}) and block comments ({@code /* *}{@code /}, nested as in PostgreSQL)
 * start and end, so that a {@code ;} or a marker inside them is not mistaken for syntax. Everything
 * else is {@link Kind#CODE}. The tokens cover the text without gaps, in order.
 */
final class SqlTokens {
    enum Kind {
        /** Anything outside quotes and comments other than whitespace and {@code ;}. */
        CODE,
        SPACE,
        SEMICOLON,
        /** A string literal, quoted identifier or dollar-quoted string, quotes included. */
        QUOTED,
        LINE_COMMENT,
        /** Including its {@code /*} and {@code *}{@code /}. */
        BLOCK_COMMENT
    }

    record Token(Kind kind, int start, int end) {
        String text(String source) {
            return source.substring(start, end);
        }
    }

    private SqlTokens() {
    }

    /**
     * @param strict whether an unterminated quote or comment is an error; when not, it runs to the
     *     end of the text (for free-text descriptions, which may contain a lone apostrophe)
     * @throws ScenarioDefinitionException when strict and a quote or comment is not closed
     */
    static List<Token> lex(String s, boolean strict) {
        List<Token> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        int codeStart = -1;
        while (i < n) {
            char c = s.charAt(i);
            int end = -1;
            Kind kind = null;
            if (Character.isWhitespace(c)) {
                end = i + 1;
                while (end < n && Character.isWhitespace(s.charAt(end))) {
                    end++;
                }
                kind = Kind.SPACE;
            } else if (c == ';') {
                end = i + 1;
                kind = Kind.SEMICOLON;
            } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
                end = s.indexOf('\n', i);
                end = end < 0 ? n : end;
                kind = Kind.LINE_COMMENT;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                end = blockCommentEnd(s, i, strict);
                kind = Kind.BLOCK_COMMENT;
            } else if (c == '\'') {
                boolean backslashEscapes = i > 0 && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e')
                        && (i < 2 || !isIdentifierChar(s.charAt(i - 2)));
                end = quotedEnd(s, i, '\'', backslashEscapes, strict, "string literal");
                kind = Kind.QUOTED;
            } else if (c == '"') {
                end = quotedEnd(s, i, '"', false, strict, "quoted identifier");
                kind = Kind.QUOTED;
            } else if (c == '$' && (i == 0 || !isIdentifierChar(s.charAt(i - 1)))) {
                String tag = dollarTag(s, i);
                if (tag != null) {
                    int close = s.indexOf(tag, i + tag.length());
                    if (close < 0) {
                        if (strict) {
                            throw unterminated(s, i, "dollar-quoted string (no closing " + tag + ")");
                        }
                        end = n;
                    } else {
                        end = close + tag.length();
                    }
                    kind = Kind.QUOTED;
                }
            }
            if (kind == null) {
                if (codeStart < 0) {
                    codeStart = i;
                }
                i++;
                continue;
            }
            if (codeStart >= 0) {
                out.add(new Token(Kind.CODE, codeStart, i));
                codeStart = -1;
            }
            out.add(new Token(kind, i, end));
            i = end;
        }
        if (codeStart >= 0) {
            out.add(new Token(Kind.CODE, codeStart, n));
        }
        return out;
    }

    /** Letters, digits, {@code _} and {@code $}: what may continue an identifier or keyword. */
    static boolean isIdentifierChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The opening {@code $tag$} at {@code i}, or null when the {@code $} does not open a dollar quote ({@code $1}). */
    private static String dollarTag(String s, int i) {
        int j = i + 1;
        if (j < s.length() && s.charAt(j) == '$') {
            return "$$";
        }
        if (j >= s.length() || !(Character.isLetter(s.charAt(j)) || s.charAt(j) == '_')) {
            return null;
        }
        while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
            j++;
        }
        return j < s.length() && s.charAt(j) == '$' ? s.substring(i, j + 1) : null;
    }

    private static int quotedEnd(String s, int open, char quote, boolean backslashEscapes, boolean strict,
            String what) {
        int j = open + 1;
        while (j < s.length()) {
            char c = s.charAt(j);
            if (backslashEscapes && c == '\\') {
                j += 2;
            } else if (c == quote) {
                if (j + 1 < s.length() && s.charAt(j + 1) == quote) {
                    j += 2; // doubled quote: an escaped quote, not the end
                } else {
                    return j + 1;
                }
            } else {
                j++;
            }
        }
        if (strict) {
            throw unterminated(s, open, what + " (no closing " + quote + ")");
        }
        return s.length();
    }

    private static int blockCommentEnd(String s, int open, boolean strict) {
        int depth = 0;
        int j = open;
        while (j < s.length()) {
            if (s.startsWith("/*", j)) {
                depth++;
                j += 2;
            } else if (s.startsWith("*/", j)) {
                depth--;
                j += 2;
                if (depth == 0) {
                    return j;
                }
            } else {
                j++;
            }
        }
        if (strict) {
            throw unterminated(s, open, "block comment (no closing */)");
        }
        return s.length();
    }

    private static ScenarioDefinitionException unterminated(String s, int at, String what) {
        int line = 1;
        int lineStart = 0;
        for (int k = 0; k < at; k++) {
            if (s.charAt(k) == '\n') {
                line++;
                lineStart = k + 1;
            }
        }
        String excerpt = s.substring(at, Math.min(s.length(), at + 40)).replace('\n', ' ');
        return new ScenarioDefinitionException("unterminated " + what + " at line " + line + ", column "
                + (at - lineStart + 1) + ": " + excerpt + (at + 40 < s.length() ? "..." : "")
                + " (close it; a ; inside it does not end the statement)");
    }
}
