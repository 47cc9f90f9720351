package io.stillwater.engine.sql.parse;

import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements about table constraints and table maintenance, part of {@link
 * UtilityParser}: {@code CREATE UNIQUE INDEX [IF NOT EXISTS] [name] ON t (columns)} (the
 * rest as CREATE INDEX reads it), and {@code ALTER TABLE t ADD [CONSTRAINT name] {PRIMARY
 * KEY | UNIQUE} (columns)}, which is a unique index on those columns named as PostgreSQL
 * names the constraint's index ({@code t_pkey}, {@code t_a_b_key}).
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

    /**
     * At {@code TABLE} after ALTER: the unique index of {@code ADD PRIMARY KEY} or {@code ADD
     * UNIQUE}; null for any other ALTER TABLE (the caller reports it as unsupported).
     */
    static Statement alterTableAddConstraint(TokenCursor c) {
        c.next(); // TABLE
        c.acceptWords("if", "exists");
        c.acceptWord("only");
        String table = c.tableName();
        c.acceptSymbol("*");
        if (!c.acceptWord("add")) return null;
        String name = null;
        if (c.acceptWord("constraint")) name = c.name();
        boolean primary;
        if (c.acceptWords("primary", "key")) {
            primary = true;
        } else if (c.acceptWord("unique")) {
            primary = false;
        } else {
            return null;
        }
        c.expectSymbol("(");
        List<String> columns = new ArrayList<>();
        do {
            columns.add(c.name());
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        if (name == null) name = table + (primary ? "_pkey" : "_" + String.join("_", columns) + "_key");
        List<String> keys = columns.stream().map(ConstraintDdlParser::quote).toList();
        return new Statement.CreateIndex(name, false, null, table, keys, false).asUnique();
    }

    private static String quote(String name) { return "\"" + name.replace("\"", "\"\"") + "\""; }
}
