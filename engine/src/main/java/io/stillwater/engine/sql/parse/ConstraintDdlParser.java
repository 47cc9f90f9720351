package io.stillwater.engine.sql.parse;

import io.stillwater.engine.sql.Statement;

/**
 * Statements about table constraints and table maintenance, part of {@link
 * UtilityParser}: {@code CREATE UNIQUE INDEX [IF NOT EXISTS] [name] ON t (columns)} (the
 * rest as CREATE INDEX reads it).
 */
final class ConstraintDdlParser {
    private ConstraintDdlParser() {}

    /** At {@code UNIQUE INDEX}. */
    static Statement createUniqueIndex(TokenCursor c) {
        c.next(); // UNIQUE
        Statement.CreateIndex index = (Statement.CreateIndex) ObjectDdlParser.createIndex(c, false);
        if (index.keySql().isEmpty()) throw c.syntaxError(); // PostgreSQL needs the column list
        return index.asUnique();
    }
}
