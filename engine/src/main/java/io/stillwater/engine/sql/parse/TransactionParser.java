package io.stillwater.engine.sql.parse;

import io.stillwater.engine.sql.Statement;

/**
 * Transaction control: BEGIN / START TRANSACTION with their modes, COMMIT / END,
 * ROLLBACK / ABORT; also the isolation level words SET TRANSACTION shares. Part of
 * {@link UtilityParser}; stateless.
 */
final class TransactionParser {
    private TransactionParser() {}

    static Statement begin(TokenCursor c) {
        c.next(); // BEGIN
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        return new Statement.Begin(transactionModes(c));
    }

    static Statement startTransaction(TokenCursor c) {
        c.next(); // START
        c.expectWord("transaction");
        return new Statement.Begin(transactionModes(c));
    }

    /**
     * {@code ISOLATION LEVEL level | READ ONLY | READ WRITE | [NOT] DEFERRABLE}, separated
     * by commas or spaces; returns the isolation level (null when not given). Access mode
     * and deferrability have no place in {@link Statement.Begin} and are accepted and
     * dropped: every Stillwater transaction is serializable over a snapshot.
     */
    private static String transactionModes(TokenCursor c) {
        String isolation = null;
        boolean first = true;
        while (true) {
            if (!first && c.atSymbol(",")) {
                c.next();
                if (!startsTransactionMode(c)) throw c.syntaxError();
            }
            if (c.acceptWords("isolation", "level")) {
                isolation = isolationLevel(c);
            } else if (c.acceptWords("read", "only") || c.acceptWords("read", "write")
                    || c.acceptWord("deferrable") || c.acceptWords("not", "deferrable")) {
                // accepted, see above
            } else {
                return isolation;
            }
            first = false;
        }
    }

    static boolean startsTransactionMode(TokenCursor c) {
        return c.atWord("isolation") || c.atWord("read") || c.atWord("deferrable") || c.atWord("not");
    }

    /** PostgreSQL's four levels and Materialize's STRICT SERIALIZABLE, lower case. */
    static String isolationLevel(TokenCursor c) {
        if (c.acceptWord("serializable")) return "serializable";
        if (c.acceptWords("strict", "serializable")) return "strict serializable";
        if (c.acceptWords("repeatable", "read")) return "repeatable read";
        if (c.acceptWords("read", "committed")) return "read committed";
        if (c.acceptWords("read", "uncommitted")) return "read uncommitted";
        throw c.syntaxError();
    }

    static Statement commit(TokenCursor c) {
        Token verb = c.next();
        if (verb.isWord("commit") && c.atWord("prepared")) throw Unsupported.named("COMMIT PREPARED");
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        if (c.atWord("and")) throw Unsupported.named("COMMIT AND CHAIN");
        return new Statement.Commit();
    }

    static Statement rollback(TokenCursor c) {
        Token verb = c.next();
        if (verb.isWord("rollback") && c.atWord("prepared")) throw Unsupported.named("ROLLBACK PREPARED");
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        if (c.atWord("to")) throw Unsupported.named("ROLLBACK TO SAVEPOINT");
        if (c.atWord("and")) throw Unsupported.named("ROLLBACK AND CHAIN");
        return new Statement.Rollback();
    }
}
