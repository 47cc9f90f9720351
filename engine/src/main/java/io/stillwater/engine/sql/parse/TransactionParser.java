package io.stillwater.engine.sql.parse;

import io.stillwater.engine.sql.Statement;

/**
 * Transaction control: BEGIN / START TRANSACTION with their modes, COMMIT / END,
 * ROLLBACK / ABORT, SAVEPOINT, ROLLBACK TO SAVEPOINT, RELEASE SAVEPOINT; also the
 * isolation level words SET TRANSACTION shares. Part of {@link UtilityParser}; stateless.
 */
final class TransactionParser {
    private TransactionParser() {}

    static Statement begin(TokenCursor c) {
        c.next(); // BEGIN
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        return transactionModes(c);
    }

    static Statement startTransaction(TokenCursor c) {
        c.next(); // START
        c.expectWord("transaction");
        return transactionModes(c);
    }

    /**
     * {@code ISOLATION LEVEL level | READ ONLY | READ WRITE | [NOT] DEFERRABLE}, separated
     * by commas or spaces, as a BEGIN: the isolation level (null when not given) and the
     * access mode (null when not given). Deferrability is accepted and dropped.
     */
    private static Statement.Begin transactionModes(TokenCursor c) {
        String isolation = null;
        Boolean readOnly = null;
        boolean first = true;
        while (true) {
            if (!first && c.atSymbol(",")) {
                c.next();
                if (!startsTransactionMode(c)) throw c.syntaxError();
            }
            if (c.acceptWords("isolation", "level")) {
                isolation = isolationLevel(c);
            } else if (c.acceptWords("read", "only")) {
                readOnly = true;
            } else if (c.acceptWords("read", "write")) {
                readOnly = false;
            } else if (c.acceptWord("deferrable") || c.acceptWords("not", "deferrable")) {
                // only meaningful for SERIALIZABLE READ ONLY in PostgreSQL; no effect here
            } else {
                return new Statement.Begin(isolation, readOnly);
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
        if (c.acceptWord("to")) {
            c.acceptWord("savepoint");
            return new Statement.Savepoint(c.name(), Statement.SavepointAction.ROLLBACK_TO);
        }
        if (c.atWord("and")) throw Unsupported.named("ROLLBACK AND CHAIN");
        return new Statement.Rollback();
    }

    /** SAVEPOINT name. */
    static Statement savepoint(TokenCursor c) {
        c.next(); // SAVEPOINT
        return new Statement.Savepoint(c.name(), Statement.SavepointAction.DEFINE);
    }

    /** RELEASE [SAVEPOINT] name. */
    static Statement release(TokenCursor c) {
        c.next(); // RELEASE
        c.acceptWord("savepoint");
        return new Statement.Savepoint(c.name(), Statement.SavepointAction.RELEASE);
    }
}
