package io.stillwater.engine.sql.parse;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a simple-query string into its statements at top-level semicolons, using
 * {@link SqlLexer} so that semicolons inside string constants, quoted identifiers,
 * dollar quotes and comments never split, and semicolons inside parentheses don't
 * either (like psql).
 *
 * <p>Statements without a token (only whitespace and comments) are dropped. Each piece
 * keeps its text exactly, minus surrounding whitespace, comments included. The splitter
 * never fails: if the text stops lexing (an unterminated quote or comment), everything
 * from the current statement's start to the end is one last piece, and parsing that
 * piece reports the error.
 */
public final class SqlSplitter {
    private SqlSplitter() {}

    /** One statement's text and the char offset of its first character in the original string. */
    public record Piece(String text, int offset) {}

    /** The statements' texts, in order. */
    public static List<String> split(String sql) {
        return pieces(sql).stream().map(Piece::text).toList();
    }

    /** The statements with their offsets in {@code sql}, for error positions relative to the whole query. */
    public static List<Piece> pieces(String sql) {
        List<Piece> out = new ArrayList<>();
        SqlLexer lexer = new SqlLexer(sql);
        int segmentStart = 0;
        boolean hasToken = false;
        int depth = 0;
        while (true) {
            Token t;
            try {
                t = lexer.next();
            } catch (SqlSyntaxException e) {
                add(out, sql, segmentStart, sql.length());
                return out;
            }
            if (t.kind() == TokenKind.EOF) {
                if (hasToken) add(out, sql, segmentStart, sql.length());
                return out;
            }
            if (t.kind() == TokenKind.PUNCTUATION) {
                switch (t.text()) {
                    case "(" -> depth++;
                    case ")" -> depth = Math.max(0, depth - 1);
                    case ";" -> {
                        if (depth == 0) {
                            if (hasToken) add(out, sql, segmentStart, t.offset());
                            segmentStart = t.end();
                            hasToken = false;
                            continue;
                        }
                    }
                    default -> { }
                }
            }
            hasToken = true;
        }
    }

    private static void add(List<Piece> out, String sql, int from, int to) {
        int start = from;
        int end = to;
        while (start < end && SqlLexer.isSpace(sql.charAt(start))) start++;
        while (end > start && SqlLexer.isSpace(sql.charAt(end - 1))) end--;
        if (start < end) out.add(new Piece(sql.substring(start, end), start));
    }
}
