package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import java.util.Optional;

/**
 * Cursor statements: DECLARE (whose query the {@code StatementPlanner} plans, see
 * {@link #declared}), FETCH, MOVE and CLOSE. Cursors are forward-only: SCROLL and
 * backward fetches are refused. Part of {@link UtilityParser}; stateless.
 */
public final class CursorParser {
    private CursorParser() {}

    /** A DECLARE's cursor name, whether it is WITH HOLD, and where its query starts in the statement text. */
    public record Declared(String name, boolean hold, int queryOffset) {}

    /**
     * For {@code DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [NO SCROLL] CURSOR
     * [{WITH | WITHOUT} HOLD] FOR query}: the name, WITH HOLD, and the query's offset (the
     * caller plans the query). Empty when {@code sql} is not a DECLARE.
     *
     * @throws SqlException 0A000 for SCROLL cursors, 42601 for syntax errors
     */
    public static Optional<Declared> declared(String sql) {
        TokenCursor c = new TokenCursor(sql);
        while (c.acceptSymbol(";")) { }
        if (!c.acceptWord("declare")) return Optional.empty();
        String name = c.name();
        while (true) {
            if (c.acceptWord("binary") || c.acceptWord("insensitive") || c.acceptWord("asensitive")
                    || c.acceptWords("no", "scroll")) {
                continue;
            }
            if (c.atWord("scroll")) throw Unsupported.named("DECLARE ... SCROLL CURSOR");
            break;
        }
        c.expectWord("cursor");
        boolean hold = c.acceptWords("with", "hold");
        if (!hold) c.acceptWords("without", "hold");
        c.expectWord("for");
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) throw c.syntaxError();
        return Optional.of(new Declared(name, hold, first.offset()));
    }

    /**
     * {@code FETCH | MOVE [NEXT | FORWARD [n | ALL] | n | ALL] [FROM | IN] name}.
     *
     * @throws SqlException 55000 for backward directions (the cursor scans forward only),
     *     0A000 for ABSOLUTE / RELATIVE / FIRST / LAST, 42601 for syntax errors
     */
    static Statement fetch(TokenCursor c) {
        boolean move = c.next().isWord("move");
        long count = 1;
        if (c.acceptWord("next")) {
            count = 1;
        } else if (c.acceptWord("forward")) {
            if (c.acceptWord("all")) count = Long.MAX_VALUE;
            else if (atCount(c)) count = count(c);
        } else if (c.acceptWord("all")) {
            count = Long.MAX_VALUE;
        } else if (atCount(c)) {
            count = count(c);
        } else if (c.atWord("prior") || c.atWord("backward")) {
            throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "cursor can only scan forward", null,
                    "Stillwater cursors are NO SCROLL: fetch forward only.");
        } else if (c.atWord("absolute") || c.atWord("relative") || c.atWord("first") || c.atWord("last")) {
            throw Unsupported.named((move ? "MOVE " : "FETCH ") + c.peek().text().toUpperCase(java.util.Locale.ROOT));
        }
        if (!c.acceptWord("from")) c.acceptWord("in");
        return new Statement.FetchCursor(c.name(), count, move);
    }

    /** {@code CLOSE name | ALL}. */
    static Statement close(TokenCursor c) {
        c.next(); // CLOSE
        if (c.acceptWord("all")) return new Statement.CloseCursor(null);
        return new Statement.CloseCursor(c.name());
    }

    private static boolean atCount(TokenCursor c) {
        return c.peek().kind() == TokenKind.INTEGER || c.atSymbol("+") || c.atSymbol("-")
                || c.peek().kind() == TokenKind.OPERATOR && (c.peek().text().equals("+") || c.peek().text().equals("-"));
    }

    /** A signed row count; negative counts scan backward, which a NO SCROLL cursor cannot. */
    private static long count(TokenCursor c) {
        boolean negative = false;
        Token sign = c.peek();
        if (sign.kind() != TokenKind.INTEGER) {
            negative = sign.text().equals("-");
            c.next();
        }
        Token n = c.peek();
        if (n.kind() != TokenKind.INTEGER) throw c.syntaxError();
        c.next();
        long value;
        try {
            value = Long.parseLong(n.text());
        } catch (NumberFormatException e) {
            throw SqlSyntaxException.at(n);
        }
        if (negative && value != 0) {
            throw new SqlException(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "cursor can only scan forward", null,
                    "Stillwater cursors are NO SCROLL: fetch forward only.");
        }
        return value;
    }
}
