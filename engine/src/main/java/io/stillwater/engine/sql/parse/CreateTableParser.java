package io.stillwater.engine.sql.parse;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * CREATE TABLE: columns, their types, NOT NULL, DEFAULT constants and the key
 * constraints Stillwater accepts without enforcing (see {@code TableBuilder}). Part of
 * {@link UtilityParser}; stateless.
 */
final class CreateTableParser {
    private CreateTableParser() {}

    /** {@code CREATE TABLE [IF NOT EXISTS] name (elements) }, the cursor at TABLE. */
    static Statement createTable(TokenCursor c) {
        c.next(); // TABLE
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        String table = c.tableName();
        if (c.atWord("as")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE AS is not supported");
        }
        c.expectSymbol("(");
        TableBuilder builder = new TableBuilder(table);
        if (!c.atSymbol(")")) {
            do {
                tableElement(c, builder);
            } while (c.acceptSymbol(","));
        }
        c.expectSymbol(")");
        if (c.atWord("with")) TableMaintenanceParser.storageParameters(c); // pgbench's WITH (fillfactor=100)
        if (c.atWord("with") || c.atWord("partition") || c.atWord("inherits") || c.atWord("tablespace")) {
            throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE ... %s is not supported",
                    c.peek().text().toUpperCase(Locale.ROOT));
        }
        return new Statement.CreateTable(table, ifNotExists, builder.build(), builder.primaryKeyPositions());
    }

    /**
     * Collects a table's columns and checks PostgreSQL's rules across them.
     *
     * <p>Decision: Stillwater tables are bags (multisets of rows) and enforce no keys.
     * PRIMARY KEY and UNIQUE are accepted and NOT enforced, so that scripts written for
     * other databases (the SQLite sqllogictest corpus declares {@code x INTEGER PRIMARY
     * KEY} and {@code UNIQUE}) run; their column names are still checked. PRIMARY KEY
     * still implies NOT NULL, as in PostgreSQL, because that part costs nothing to enforce.
     * CHECK, REFERENCES, EXCLUDE and generated columns are rejected (0A000) rather than
     * ignored, since ignoring them would silently accept data they are meant to refuse.
     */
    private static final class TableBuilder {
        private final String table;
        private final Map<String, Column> columns = new LinkedHashMap<>();
        private final List<Token> keyColumns = new ArrayList<>();
        /** The primary key's columns in key order. */
        private final Set<String> primaryKeyColumns = new LinkedHashSet<>();
        private boolean hasPrimaryKey;

        TableBuilder(String table) { this.table = table; }

        void addColumn(Column column) {
            if (columns.putIfAbsent(column.name, column) != null) {
                throw SqlException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" specified more than once", column.name);
            }
        }

        void primaryKey() {
            if (hasPrimaryKey) {
                throw SqlException.of(SqlState.INVALID_TABLE_DEFINITION,
                        "multiple primary keys for table \"%s\" are not allowed", table);
            }
            hasPrimaryKey = true;
        }

        /** The 0-based positions of the primary key's columns, in key order; call after {@link #build}. */
        List<Integer> primaryKeyPositions() {
            List<String> names = new ArrayList<>(columns.keySet());
            return primaryKeyColumns.stream().map(names::indexOf).toList();
        }

        List<ColumnDef> build() {
            for (Token key : keyColumns) {
                if (!columns.containsKey(key.text())) {
                    throw SqlException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" named in key does not exist", key.text());
                }
            }
            List<ColumnDef> defs = new ArrayList<>();
            for (Column col : columns.values()) {
                boolean notNull = col.notNull || primaryKeyColumns.contains(col.name);
                if (notNull && col.explicitNull) {
                    throw SqlException.of(SqlState.SYNTAX_ERROR,
                            "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", col.name, table);
                }
                defs.add(new ColumnDef(col.name, col.type, notNull, col.defaultValue));
            }
            return defs;
        }
    }

    /** A column while its constraints are being read. */
    private static final class Column {
        final String name;
        final SqlType type;
        boolean notNull;
        boolean explicitNull;
        boolean hasDefault;
        Object defaultValue;

        Column(String name, SqlType type) {
            this.name = name;
            this.type = type;
        }
    }

    private static void tableElement(TokenCursor c, TableBuilder table) {
        if (c.atWord("constraint") || c.atWord("primary") || c.atWord("unique") || c.atWord("check")
                || c.atWord("foreign") || c.atWord("exclude") || c.atWord("like")) {
            tableConstraint(c, table);
            return;
        }
        Column column = new Column(c.name(), TypeNames.parse(c));
        while (columnConstraint(c, table, column)) { }
        table.addColumn(column);
    }

    /** Reads one column constraint; false when there is none at the cursor. */
    private static boolean columnConstraint(TokenCursor c, TableBuilder table, Column column) {
        if (c.acceptWord("constraint")) {
            c.name(); // constraint names are accepted and not kept: no constraint is addressable later
            if (!startsColumnConstraint(c)) throw c.syntaxError();
        }
        if (c.acceptWords("not", "null")) {
            if (column.explicitNull) throw conflictingNull(column, table);
            column.notNull = true;
        } else if (c.acceptWord("null")) {
            if (column.notNull) throw conflictingNull(column, table);
            column.explicitNull = true;
        } else if (c.acceptWord("default")) {
            if (column.hasDefault) {
                throw SqlException.of(SqlState.SYNTAX_ERROR,
                        "multiple default values specified for column \"%s\" of table \"%s\"", column.name, table.table);
            }
            column.hasDefault = true;
            column.defaultValue = DefaultConstant.parse(c, column.type);
        } else if (c.acceptWords("primary", "key")) {
            table.primaryKey();
            table.primaryKeyColumns.add(column.name);
        } else if (c.acceptWord("unique")) {
            uniqueNulls(c);
        } else if (c.atWord("check")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "CHECK constraints are not supported");
        } else if (c.atWord("references")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "foreign key constraints are not supported");
        } else if (c.atWord("generated")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "generated columns are not supported");
        } else if (c.atWord("collate")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "COLLATE is not supported");
        } else {
            return false;
        }
        return true;
    }

    private static boolean startsColumnConstraint(TokenCursor c) {
        return c.atWords("not", "null") || c.atWord("null") || c.atWord("default") || c.atWord("primary")
                || c.atWord("unique") || c.atWord("check") || c.atWord("references") || c.atWord("generated");
    }

    private static SqlException conflictingNull(Column column, TableBuilder table) {
        return SqlException.of(SqlState.SYNTAX_ERROR,
                "conflicting NULL/NOT NULL declarations for column \"%s\" of table \"%s\"", column.name, table.table);
    }

    /** {@code UNIQUE NULLS [NOT] DISTINCT} (PostgreSQL 15). */
    private static void uniqueNulls(TokenCursor c) {
        if (c.acceptWord("nulls")) {
            c.acceptWord("not");
            c.expectWord("distinct");
        }
    }

    private static void tableConstraint(TokenCursor c, TableBuilder table) {
        if (c.acceptWord("constraint")) c.name();
        if (c.acceptWords("primary", "key")) {
            table.primaryKey();
            for (Token key : keyColumnList(c)) {
                table.keyColumns.add(key);
                table.primaryKeyColumns.add(key.text());
            }
        } else if (c.acceptWord("unique")) {
            uniqueNulls(c);
            table.keyColumns.addAll(keyColumnList(c));
        } else if (c.atWord("check")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "CHECK constraints are not supported");
        } else if (c.atWord("foreign")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "foreign key constraints are not supported");
        } else if (c.atWord("exclude")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "exclusion constraints are not supported");
        } else if (c.atWord("like")) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE ... LIKE is not supported");
        } else {
            throw c.syntaxError();
        }
    }

    /** {@code ( col [, col ...] )}; the name tokens, for the existence check at the end. */
    private static List<Token> keyColumnList(TokenCursor c) {
        c.expectSymbol("(");
        List<Token> names = new ArrayList<>();
        do {
            Token t = c.peek();
            String name = c.name();
            names.add(new Token(t.kind(), name, t.source(), t.offset()));
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        return names;
    }
}
