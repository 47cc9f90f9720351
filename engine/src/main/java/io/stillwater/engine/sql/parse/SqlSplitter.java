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
 * is the exact text from its first token to its last, comments between them included;
 * comments before the first token and after the last are not part of it (so appending
 * to a piece can never land inside a trailing {@code --} comment). The splitter
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
        int first = -1; // offset of the current statement's first token, -1 before it
        int last = -1; // end of its last token so far
        int depth = 0;
        while (true) {
            Token t;
            try {
                t = lexer.next();
            } catch (SqlSyntaxException e) {
                // Unlexable from here on: the rest is one statement, whose parse reports the error.
                int from = first >= 0 ? first : e.offset();
                out.add(new Piece(sql.substring(from).strip(), from));
                return out;
            }
            if (t.kind() == TokenKind.EOF) {
                if (first >= 0) out.add(new Piece(sql.substring(first, last), first));
                return out;
            }
            if (t.kind() == TokenKind.PUNCTUATION) {
                switch (t.text()) {
                    case "(" -> depth++;
                    case ")" -> depth = Math.max(0, depth - 1);
                    case ";" -> {
                        if (depth == 0) {
                            if (first >= 0) out.add(new Piece(sql.substring(first, last), first));
                            first = -1;
                            continue;
                        }
                    }
                    default -> { }
                }
            }
            if (first < 0) first = t.offset();
            last = t.end();
        }
    }
}
