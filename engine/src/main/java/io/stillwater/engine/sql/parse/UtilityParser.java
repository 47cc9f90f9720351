package io.stillwater.engine.sql.parse;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engine's own parser for the statements Calcite does not handle: CREATE TABLE,
 * DROP TABLE, CREATE/DROP VIEW, CREATE/DROP [DEFAULT] INDEX and MATERIALIZED VIEW, CREATE/ALTER/DROP
 * CLUSTER, CREATE/DROP CLUSTER REPLICA, SHOW CLUSTERS / CLUSTER REPLICAS, SHOW
 * TABLES/VIEWS/MATERIALIZED VIEWS/INDEXES, transaction control, SET/RESET/SHOW,
 * ALTER SYSTEM SET/RESET. Queries and DML (SELECT, VALUES,
 * WITH, TABLE, INSERT, UPDATE, DELETE) are not its business: {@link #parse} returns
 * empty for them without reading further than the first token, and the caller hands
 * them to Calcite. Recognised statements that Stillwater does not implement (CREATE
 * UNIQUE INDEX, ALTER, COPY, TRUNCATE, the SQLite corpus's REPLACE INTO and PRAGMA, ...) are
 * 0A000 errors naming the statement; unknown words are PostgreSQL's 42601 syntax error.
 *
 * <p>Input is one statement (see {@link SqlSplitter}); trailing semicolons are allowed.
 * Stateless and thread-safe.
 */
public final class UtilityParser {
    private UtilityParser() {}

    /** First words of the statements that go to Calcite. */
    private static final Set<String> CALCITE_STATEMENTS =
            Set.of("select", "insert", "update", "delete", "values", "with", "table");

    /** First words of statements PostgreSQL, Materialize or SQLite know and Stillwater does not implement. */
    private static final Set<String> UNSUPPORTED_VERBS = Set.of(
            "alter", "analyze", "analyse", "attach", "call", "checkpoint", "close", "cluster", "comment", "copy",
            "deallocate", "declare", "detach", "discard", "do", "execute", "fetch", "grant", "import",
            "listen", "load", "lock", "merge", "move", "notify", "pragma", "prepare", "reassign", "refresh",
            "reindex", "release", "replace", "revoke", "savepoint", "security", "subscribe", "truncate",
            "unlisten", "vacuum");

    /** Words between CREATE/DROP/ALTER and the object kind ({@code CREATE OR REPLACE VIEW}). */
    private static final Set<String> OBJECT_MODIFIERS = Set.of(
            "or", "replace", "unique", "default", "temp", "temporary", "unlogged", "materialized", "global",
            "local", "recursive", "foreign", "event", "constraint", "trusted", "procedural");

    /** Object kinds after CREATE/DROP/ALTER. */
    private static final Set<String> OBJECT_KINDS = Set.of(
            "table", "view", "index", "sequence", "schema", "database", "function", "procedure", "trigger",
            "type", "domain", "role", "user", "extension", "cluster", "source", "sink", "connection", "secret",
            "rule", "policy", "aggregate", "operator", "collation", "server", "publication", "subscription",
            "statistics", "language", "cast", "conversion", "tablespace", "group", "transform", "system",
            "owned", "default", "routine", "access", "text", "webhook", "network");

    /**
     * Parses one statement. Empty when it is a statement for Calcite; {@link Statement.Empty}
     * when {@code sql} has no tokens; otherwise the parsed utility statement.
     *
     * @throws SqlException 42601 for syntax errors ({@link SqlSyntaxException}, with the
     *     offset), 0A000 for statements Stillwater does not support, and the type and
     *     coercion errors of CREATE TABLE
     */
    public static Optional<Statement> parse(String sql) {
        TokenCursor c = new TokenCursor(sql);
        while (c.acceptSymbol(";")) { }
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) return Optional.of(new Statement.Empty());
        if (first.isSymbol("(")) return Optional.empty();
        if (first.kind() != TokenKind.IDENTIFIER && first.kind() != TokenKind.KEYWORD) throw c.syntaxError();
        String verb = first.text();
        if (CALCITE_STATEMENTS.contains(verb)) return Optional.empty();
        Statement statement = switch (verb) {
            case "create" -> create(c);
            case "drop" -> drop(c);
            case "begin" -> begin(c);
            case "start" -> startTransaction(c);
            case "commit", "end" -> commit(c);
            case "rollback", "abort" -> rollback(c);
            case "set" -> set(c);
            case "reset" -> reset(c);
            case "show" -> show(c);
            case "alter" -> alter(c);
            case "explain" -> {
                // Planned by StatementPlanner (it needs the catalog): see explainedQuery.
                explainedQuery(sql);
                yield null;
            }
            default -> {
                if (UNSUPPORTED_VERBS.contains(verb)) throw unsupported(c);
                throw c.syntaxError();
            }
        };
        if (statement == null) return Optional.empty();
        c.expectEnd();
        return Optional.of(statement);
    }

    // ---- EXPLAIN

    /**
     * For {@code EXPLAIN [[OPTIMIZED | PHYSICAL] PLAN [AS TEXT] FOR] query}: the offset in
     * {@code sql} where the explained query starts (the caller plans it). Empty when
     * {@code sql} is not an EXPLAIN.
     *
     * @throws SqlException 0A000 for EXPLAIN forms Stillwater does not support (ANALYZE,
     *     options, other stages or formats, DML, EXPLAIN of a named object), 42601 for
     *     syntax errors
     */
    public static java.util.OptionalInt explainedQuery(String sql) {
        TokenCursor c = new TokenCursor(sql);
        while (c.acceptSymbol(";")) { }
        if (!c.atWord("explain")) return java.util.OptionalInt.empty();
        c.next();
        if (c.atWord("analyze") || c.atWord("analyse") || c.atWord("verbose")) {
            throw unsupportedNamed("EXPLAIN " + c.peek().text().toUpperCase(Locale.ROOT));
        }
        if (c.atSymbol("(") && !startsQuery(c.peek(1))) throw unsupportedNamed("EXPLAIN with options");
        boolean stage = c.acceptWord("optimized") || c.acceptWord("physical");
        if (c.acceptWord("plan")) {
            if (c.acceptWord("as")) {
                if (!c.atWord("text")) throw unsupportedNamed("EXPLAIN ... AS " + c.peek().source().toUpperCase(Locale.ROOT));
                c.next();
            }
            if (c.atWord("with")) throw unsupportedNamed("EXPLAIN PLAN WITH (options)");
            c.expectWord("for");
        } else if (stage) {
            throw c.syntaxError();
        } else if (c.atWord("raw") || c.atWord("decorrelated") || c.atWord("locally") || c.atWord("timestamp")
                || c.atWord("filter") || c.atWord("key") || c.atWord("replan")) {
            throw unsupportedNamed("EXPLAIN " + c.peek().text().toUpperCase(Locale.ROOT));
        }
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) throw c.syntaxError();
        if (startsQuery(first)) return java.util.OptionalInt.of(first.offset());
        if (first.isWord("insert") || first.isWord("update") || first.isWord("delete") || first.isWord("create")
                || first.isWord("index") || first.isWord("view") || first.isWord("materialized")) {
            throw unsupportedNamed("EXPLAIN of " + first.text().toUpperCase(Locale.ROOT));
        }
        throw c.syntaxError();
    }

    /** SELECT, VALUES, WITH, TABLE or a parenthesised query. */
    private static boolean startsQuery(Token t) {
        return t.isSymbol("(") || t.isWord("select") || t.isWord("values") || t.isWord("with") || t.isWord("table");
    }

    // ---- CREATE TABLE

    private static Statement create(TokenCursor c) {
        int start = c.mark();
        c.next(); // CREATE
        boolean orReplace = c.acceptWords("or", "replace");
        if (c.atWord("view")) return createView(c, orReplace);
        if (!orReplace && c.atWords("cluster", "replica")) return createClusterReplica(c);
        if (!orReplace && c.atWord("cluster")) return createCluster(c);
        if (c.atWords("materialized", "view")) return createMaterializedView(c, orReplace);
        if (!orReplace && c.atWord("index")) return createIndex(c, false);
        if (!orReplace && c.atWords("default", "index")) {
            c.next(); // DEFAULT
            return createIndex(c, true);
        }
        if (orReplace || !c.atWord("table")) {
            c.reset(start);
            throw unsupported(c);
        }
        c.next();
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        String table = tableName(c);
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
        if (c.atWord("with") || c.atWord("partition") || c.atWord("inherits") || c.atWord("tablespace")) {
            throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE ... %s is not supported",
                    c.peek().text().toUpperCase(Locale.ROOT));
        }
        return new Statement.CreateTable(table, ifNotExists, builder.build());
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
        private final Set<String> primaryKeyColumns = new HashSet<>();
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

    /**
     * A table name. {@code public.t} is {@code t}: every table lives in the one schema
     * {@code public}, which is what PostgreSQL clients assume by default.
     */
    private static String tableName(TokenCursor c) {
        String name = c.name();
        if (c.acceptSymbol(".")) {
            String schema = name;
            name = c.name();
            if (c.atSymbol(".")) throw c.syntaxError();
            if (!schema.equals("public")) {
                throw SqlException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "schema \"%s\" is not supported: tables live in schema \"public\"", schema);
            }
        }
        return name;
    }

    // ---- CREATE VIEW

    /**
     * {@code CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name [(column, ...)] AS query}, the
     * cursor at VIEW. The query is kept as text (everything after AS, without trailing
     * semicolons) and planned by the session.
     */
    private static Statement createView(TokenCursor c, boolean orReplace) {
        c.next(); // VIEW
        int ifAt = c.mark();
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        if (ifNotExists && orReplace) {
            c.reset(ifAt);
            throw new SqlException(SqlState.SYNTAX_ERROR, "cannot specify both OR REPLACE and IF NOT EXISTS");
        }
        String name = tableName(c);
        List<String> columns = new ArrayList<>();
        if (c.acceptSymbol("(")) {
            do {
                columns.add(c.name());
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        c.expectWord("as");
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) throw c.syntaxError();
        String query = c.sql().substring(first.offset()).strip();
        while (query.endsWith(";")) query = query.substring(0, query.length() - 1).strip();
        while (c.peek().kind() != TokenKind.EOF) c.next();
        return new Statement.CreateView(name, columns, query, first.offset(), orReplace, ifNotExists);
    }

    // ---- CREATE INDEX / CREATE MATERIALIZED VIEW

    /**
     * Materialize's {@code CREATE [DEFAULT] INDEX [IF NOT EXISTS] [name] [IN CLUSTER c] ON
     * obj [USING arrangement] [(expr, ...)]}, the cursor at INDEX. A DEFAULT index has
     * neither a name nor a key list (its key is every column). Each key expression is
     * kept as SQL text, planned by the coordinator against the object's columns; a
     * trailing ASC/DESC/NULLS FIRST/LAST (PostgreSQL and SQLite scripts) is accepted and
     * dropped, since an arrangement's order does not change any result. A missing key
     * list means every column, as for DEFAULT.
     */
    private static Statement createIndex(TokenCursor c, boolean isDefault) {
        c.next(); // INDEX
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        String name = null;
        if (!c.atWord("on") && !c.atWords("in", "cluster")) {
            if (isDefault) throw c.syntaxError();
            name = c.name();
        } else if (ifNotExists && !isDefault) {
            throw c.syntaxError(); // PostgreSQL: IF NOT EXISTS needs an index name
        }
        String cluster = null;
        if (c.acceptWords("in", "cluster")) cluster = clusterName(c);
        c.expectWord("on");
        String on = tableName(c);
        if (c.acceptWord("using")) {
            String m = c.name();
            if (!m.equals("arrangement")) {
                throw new SqlException(SqlState.UNDEFINED_OBJECT, "access method \"" + m + "\" does not exist", null,
                        "Stillwater indexes are arrangements: USING arrangement, or omit USING.");
            }
        }
        List<String> keys = new ArrayList<>();
        if (c.atSymbol("(")) {
            if (isDefault) throw c.syntaxError();
            c.next();
            do {
                keys.add(keyExpression(c));
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        if (c.atWord("where")) throw unsupportedNamed("CREATE INDEX ... WHERE");
        if (c.atWord("include")) throw unsupportedNamed("CREATE INDEX ... INCLUDE");
        if (c.atWord("with")) throw unsupportedNamed("CREATE INDEX ... WITH");
        return new Statement.CreateIndex(name, isDefault || keys.isEmpty(), cluster, on, keys, ifNotExists);
    }

    /** A cluster name: an identifier, or the reserved word {@code default} (Materialize's default cluster). */
    private static String clusterName(TokenCursor c) {
        if (c.acceptWord("default")) return "default";
        return c.name();
    }

    /** One key expression's text, up to a {@code ,} or {@code )} outside parentheses; ordering words dropped. */
    private static String keyExpression(TokenCursor c) {
        List<Token> tokens = new ArrayList<>();
        int depth = 0;
        while (true) {
            Token t = c.peek();
            if (t.kind() == TokenKind.EOF) throw c.syntaxError();
            if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) break;
            if (t.isSymbol("(") || t.isSymbol("[")) depth++;
            if (t.isSymbol(")") || t.isSymbol("]")) depth--;
            tokens.add(c.next());
        }
        int n = tokens.size();
        if (n >= 2 && tokens.get(n - 2).isWord("nulls") && (tokens.get(n - 1).isWord("first") || tokens.get(n - 1).isWord("last"))) {
            n -= 2;
        }
        if (n >= 1 && (tokens.get(n - 1).isWord("asc") || tokens.get(n - 1).isWord("desc"))) n--;
        if (n == 0) throw SqlSyntaxException.at(tokens.isEmpty() ? c.peek() : tokens.get(0));
        return c.sql().substring(tokens.get(0).offset(), tokens.get(n - 1).end());
    }

    /**
     * {@code CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] name [(column, ...)] [IN
     * CLUSTER c] AS query}, the cursor at MATERIALIZED. The query is kept as text, as for
     * {@link #createView}.
     */
    private static Statement createMaterializedView(TokenCursor c, boolean orReplace) {
        c.next(); // MATERIALIZED
        c.next(); // VIEW
        int ifAt = c.mark();
        boolean ifNotExists = c.acceptWords("if", "not", "exists");
        if (ifNotExists && orReplace) {
            c.reset(ifAt);
            throw new SqlException(SqlState.SYNTAX_ERROR, "cannot specify both OR REPLACE and IF NOT EXISTS");
        }
        String name = tableName(c);
        List<String> columns = new ArrayList<>();
        if (c.acceptSymbol("(")) {
            do {
                columns.add(c.name());
            } while (c.acceptSymbol(","));
            c.expectSymbol(")");
        }
        String cluster = null;
        if (c.acceptWords("in", "cluster")) cluster = clusterName(c);
        if (c.atWord("with")) throw unsupportedNamed("CREATE MATERIALIZED VIEW ... WITH");
        c.expectWord("as");
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) throw c.syntaxError();
        String query = c.sql().substring(first.offset()).strip();
        while (query.endsWith(";")) query = query.substring(0, query.length() - 1).strip();
        while (c.peek().kind() != TokenKind.EOF) c.next();
        return new Statement.CreateMaterializedView(name, columns, cluster, query, first.offset(), orReplace, ifNotExists);
    }

    // ---- DROP TABLE / VIEW / MATERIALIZED VIEW / INDEX

    private static Statement drop(TokenCursor c) {
        int start = c.mark();
        c.next(); // DROP
        if (c.atWord("cluster")) return dropCluster(c);
        ObjectKind kind;
        if (c.atWord("table")) kind = ObjectKind.TABLE;
        else if (c.atWord("view")) kind = ObjectKind.VIEW;
        else if (c.atWord("index")) kind = ObjectKind.INDEX;
        else if (c.atWords("materialized", "view")) {
            kind = ObjectKind.MATERIALIZED_VIEW;
            c.next();
        } else {
            c.reset(start);
            throw unsupported(c);
        }
        c.next();
        if (kind == ObjectKind.INDEX && c.atWord("concurrently")) throw unsupportedNamed("DROP INDEX CONCURRENTLY");
        boolean ifExists = c.acceptWords("if", "exists");
        List<String> names = new ArrayList<>();
        do {
            names.add(tableName(c));
        } while (c.acceptSymbol(","));
        boolean cascade = c.acceptWord("cascade");
        if (!cascade) c.acceptWord("restrict");
        return switch (kind) {
            case VIEW -> new Statement.DropView(List.copyOf(names), ifExists, cascade);
            case TABLE -> new Statement.DropTable(List.copyOf(names), ifExists, cascade);
            default -> new Statement.DropObjects(kind, names, ifExists, cascade);
        };
    }

    // ---- transactions

    private static Statement begin(TokenCursor c) {
        c.next(); // BEGIN
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        return new Statement.Begin(transactionModes(c));
    }

    private static Statement startTransaction(TokenCursor c) {
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

    private static boolean startsTransactionMode(TokenCursor c) {
        return c.atWord("isolation") || c.atWord("read") || c.atWord("deferrable") || c.atWord("not");
    }

    /** PostgreSQL's four levels and Materialize's STRICT SERIALIZABLE, lower case. */
    private static String isolationLevel(TokenCursor c) {
        if (c.acceptWord("serializable")) return "serializable";
        if (c.acceptWords("strict", "serializable")) return "strict serializable";
        if (c.acceptWords("repeatable", "read")) return "repeatable read";
        if (c.acceptWords("read", "committed")) return "read committed";
        if (c.acceptWords("read", "uncommitted")) return "read uncommitted";
        throw c.syntaxError();
    }

    private static Statement commit(TokenCursor c) {
        Token verb = c.next();
        if (verb.isWord("commit") && c.atWord("prepared")) throw unsupportedNamed("COMMIT PREPARED");
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        if (c.atWord("and")) throw unsupportedNamed("COMMIT AND CHAIN");
        return new Statement.Commit();
    }

    private static Statement rollback(TokenCursor c) {
        Token verb = c.next();
        if (verb.isWord("rollback") && c.atWord("prepared")) throw unsupportedNamed("ROLLBACK PREPARED");
        if (!c.acceptWord("work")) c.acceptWord("transaction");
        if (c.atWord("to")) throw unsupportedNamed("ROLLBACK TO SAVEPOINT");
        if (c.atWord("and")) throw unsupportedNamed("ROLLBACK AND CHAIN");
        return new Statement.Rollback();
    }

    // ---- SET / RESET / SHOW

    private static Statement set(TokenCursor c) {
        c.next(); // SET
        boolean local = false;
        if (c.atWord("local") && !isAssignment(c.peek(1))) {
            c.next();
            local = true;
        } else if (c.atWord("session") && !isAssignment(c.peek(1))) {
            c.next();
            if (c.atWord("authorization")) throw unsupportedNamed("SET SESSION AUTHORIZATION");
            if (c.acceptWords("characteristics", "as", "transaction")) {
                return transactionSetting(c, "default_", false);
            }
        }
        if (c.acceptWords("time", "zone")) return new Statement.SetVariable("timezone", timeZoneValue(c), local);
        if (c.atWord("transaction") && !isAssignment(c.peek(1))) {
            c.next();
            if (c.atWord("snapshot")) throw unsupportedNamed("SET TRANSACTION SNAPSHOT");
            return transactionSetting(c, "", local);
        }
        if (c.atWord("names") && !isAssignment(c.peek(1))) {
            c.next();
            return new Statement.SetVariable("client_encoding", c.acceptWord("default") ? null : value(c), local);
        }
        if (c.atWord("schema") && !isAssignment(c.peek(1))) {
            c.next();
            Token t = c.peek();
            if (t.kind() != TokenKind.STRING) throw c.syntaxError();
            c.next();
            return new Statement.SetVariable("search_path", t.text(), local);
        }
        if (c.atWord("role") && !isAssignment(c.peek(1))) throw unsupportedNamed("SET ROLE");
        String name = variableName(c);
        if (!c.acceptWord("to") && !c.acceptSymbol("=")) throw c.syntaxError();
        if (c.acceptWord("default")) return new Statement.SetVariable(name, null, local);
        List<String> values = new ArrayList<>();
        do {
            values.add(value(c));
        } while (c.acceptSymbol(","));
        return new Statement.SetVariable(name, String.join(", ", values), local);
    }

    private static boolean isAssignment(Token t) { return t.isWord("to") || t.isSymbol("="); }

    /** One transaction mode as a setting: {@code [default_]transaction_isolation} and friends. */
    private static Statement transactionSetting(TokenCursor c, String prefix, boolean local) {
        Statement.SetVariable setting;
        if (c.acceptWords("isolation", "level")) {
            setting = new Statement.SetVariable(prefix + "transaction_isolation", isolationLevel(c), local);
        } else if (c.acceptWords("read", "only")) {
            setting = new Statement.SetVariable(prefix + "transaction_read_only", "on", local);
        } else if (c.acceptWords("read", "write")) {
            setting = new Statement.SetVariable(prefix + "transaction_read_only", "off", local);
        } else if (c.acceptWord("deferrable")) {
            setting = new Statement.SetVariable(prefix + "transaction_deferrable", "on", local);
        } else if (c.acceptWords("not", "deferrable")) {
            setting = new Statement.SetVariable(prefix + "transaction_deferrable", "off", local);
        } else {
            throw c.syntaxError();
        }
        if (c.atSymbol(",") || startsTransactionMode(c)) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "setting more than one transaction mode in one statement is not supported");
        }
        return setting;
    }

    /** {@code SET TIME ZONE}: a string, identifier or signed number; LOCAL and DEFAULT mean the default. */
    private static String timeZoneValue(TokenCursor c) {
        if (c.acceptWord("local") || c.acceptWord("default")) return null;
        if (c.atWord("interval")) throw unsupportedNamed("SET TIME ZONE INTERVAL");
        return value(c);
    }

    /**
     * A setting value as PostgreSQL's grammar passes it on: a string's content, a number
     * as written (with its sign), an identifier case-folded, TRUE/FALSE/ON lower case.
     */
    private static String value(TokenCursor c) {
        Token t = c.peek();
        String sign = "";
        if (t.isSymbol("-") || t.isSymbol("+")) {
            Token n = c.peek(1);
            if (n.kind() != TokenKind.INTEGER && n.kind() != TokenKind.DECIMAL) throw SqlSyntaxException.at(n);
            c.next();
            sign = t.text().equals("-") ? "-" : "";
            t = c.peek();
        }
        switch (t.kind()) {
            case INTEGER, DECIMAL -> {
                c.next();
                return sign + t.text();
            }
            case STRING, IDENTIFIER, QUOTED_IDENTIFIER -> {
                c.next();
                return t.text();
            }
            case KEYWORD -> {
                if (t.text().equals("true") || t.text().equals("false") || t.text().equals("on")) {
                    c.next();
                    return t.text();
                }
                throw c.syntaxError();
            }
            default -> throw c.syntaxError();
        }
    }

    /** A dotted setting name, lower-cased (setting names are case-insensitive). */
    private static String variableName(TokenCursor c) {
        StringBuilder name = new StringBuilder(c.name());
        while (c.acceptSymbol(".")) name.append('.').append(c.name());
        return name.toString().toLowerCase(Locale.ROOT);
    }

    private static Statement reset(TokenCursor c) {
        c.next(); // RESET
        return new Statement.ResetVariable(settingName(c, "RESET"));
    }

    private static Statement show(TokenCursor c) {
        c.next(); // SHOW
        boolean alone = c.peek(1).kind() == TokenKind.EOF || c.peek(1).isSymbol(";");
        if (alone && c.acceptWord("clusters")) return new Statement.ShowClusters(false);
        if (c.atWords("cluster", "replicas") && (c.peek(2).kind() == TokenKind.EOF || c.peek(2).isSymbol(";"))) {
            c.next();
            c.next();
            return new Statement.ShowClusters(true);
        }
        if (alone && c.acceptWord("tables")) return new Statement.ShowObjects(ObjectKind.TABLE);
        if (alone && c.acceptWord("views")) return new Statement.ShowObjects(ObjectKind.VIEW);
        if (c.atWords("materialized", "views")) {
            c.next();
            c.next();
            String cluster = c.acceptWords("in", "cluster") ? clusterName(c) : null;
            return new Statement.ShowObjects(ObjectKind.MATERIALIZED_VIEW, null, cluster);
        }
        if (c.atWord("indexes") && (alone || c.peek(1).isWord("on") || c.peek(1).isWord("in"))) {
            c.next();
            String on = c.acceptWord("on") ? tableName(c) : null;
            String cluster = c.acceptWords("in", "cluster") ? clusterName(c) : null;
            return new Statement.ShowObjects(ObjectKind.INDEX, on, cluster);
        }
        return new Statement.ShowVariable(settingName(c, "SHOW"));
    }

    /** The setting named after RESET or SHOW: {@code all}, {@code time zone}, {@code transaction isolation level}, or a name. */
    private static String settingName(TokenCursor c, String verb) {
        if (c.acceptWord("all")) return "all";
        if (c.acceptWords("time", "zone")) return "timezone";
        if (c.acceptWords("transaction", "isolation", "level")) return "transaction_isolation";
        if (c.acceptWords("session", "authorization")) {
            if (verb.equals("SHOW")) return "session_authorization";
            throw unsupportedNamed("RESET SESSION AUTHORIZATION");
        }
        return variableName(c);
    }

    // ---- ALTER SYSTEM

    /**
     * {@code ALTER SYSTEM SET name {TO|=} value|DEFAULT} and {@code ALTER SYSTEM RESET
     * name|ALL}; every other ALTER is unsupported. SET ... DEFAULT is a RESET, as in
     * PostgreSQL. Names are lower-cased; the value is read like a SET value.
     */
    private static Statement alter(TokenCursor c) {
        int start = c.mark();
        c.next(); // ALTER
        if (c.atWord("cluster") && !c.peek(1).isWord("replica")) return alterCluster(c);
        if (!c.acceptWord("system")) {
            c.reset(start);
            throw unsupported(c);
        }
        if (c.acceptWord("set")) {
            String name = variableName(c);
            if (!c.acceptWord("to") && !c.acceptSymbol("=")) throw c.syntaxError();
            if (c.acceptWord("default")) return new Statement.AlterSystemReset(name);
            return new Statement.AlterSystemSet(name, value(c));
        }
        if (c.acceptWord("reset")) {
            if (c.acceptWord("all")) return new Statement.AlterSystemReset("all");
            return new Statement.AlterSystemReset(variableName(c));
        }
        throw c.syntaxError();
    }

    // ---- clusters

    /**
     * {@code CREATE CLUSTER name (SIZE [=] 'size' [, REPLICATION FACTOR [=] n])} (managed;
     * the parentheses may be left out) or {@code CREATE CLUSTER name REPLICAS (r1 (SIZE
     * [=] 'size'), ...)} (unmanaged). The cursor is at CLUSTER.
     */
    private static Statement createCluster(TokenCursor c) {
        c.next(); // CLUSTER
        String name = clusterName(c);
        if (c.acceptWord("replicas")) {
            c.expectSymbol("(");
            List<Statement.ReplicaOption> replicas = new ArrayList<>();
            if (!c.atSymbol(")")) {
                do {
                    String replica = c.name();
                    c.expectSymbol("(");
                    String size = null;
                    do {
                        if (!c.acceptWord("size")) throw unsupportedOption(c, "cluster replica");
                        c.acceptSymbol("=");
                        size = value(c);
                    } while (c.acceptSymbol(","));
                    c.expectSymbol(")");
                    replicas.add(new Statement.ReplicaOption(replica, size));
                } while (c.acceptSymbol(","));
            }
            c.expectSymbol(")");
            return new Statement.CreateCluster(name, false, null, 0, replicas);
        }
        ClusterOptions o = clusterOptions(c, "cluster");
        if (o.size == null) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "SIZE option is required for managed clusters", null,
                    "Write CREATE CLUSTER " + name + " (SIZE = 'scale=1,workers=1'), or list REPLICAS (...).");
        }
        return new Statement.CreateCluster(name, true, o.size, o.replicationFactor < 0 ? 1 : o.replicationFactor, List.of());
    }

    /** {@code ALTER CLUSTER name SET (SIZE = 'size', REPLICATION FACTOR = n)}; the cursor is at CLUSTER. */
    private static Statement alterCluster(TokenCursor c) {
        c.next(); // CLUSTER
        String name = clusterName(c);
        if (c.atWord("reset") || c.atWord("rename") || c.atWord("swap") || c.atWord("owner")) {
            throw unsupportedNamed("ALTER CLUSTER " + c.peek().text().toUpperCase(Locale.ROOT));
        }
        c.expectWord("set");
        if (!c.atSymbol("(")) throw c.syntaxError();
        ClusterOptions o = clusterOptions(c, "cluster");
        return new Statement.AlterCluster(name, o.size, o.replicationFactor);
    }

    private static final class ClusterOptions {
        String size;
        int replicationFactor = -1;
    }

    /** Cluster options, in parentheses or bare: SIZE and REPLICATION FACTOR; others are 0A000. */
    private static ClusterOptions clusterOptions(TokenCursor c, String what) {
        ClusterOptions o = new ClusterOptions();
        boolean parens = c.acceptSymbol("(");
        if (!parens && c.peek().kind() == TokenKind.EOF) return o;
        do {
            if (c.acceptWord("size")) {
                c.acceptSymbol("=");
                o.size = value(c);
            } else if (c.acceptWords("replication", "factor")) {
                c.acceptSymbol("=");
                o.replicationFactor = c.smallInteger();
            } else {
                throw unsupportedOption(c, what);
            }
        } while (c.acceptSymbol(","));
        if (parens) c.expectSymbol(")");
        return o;
    }

    /** 0A000 for a Materialize option Stillwater does not have; 42601 for a word that is not an option. */
    private static SqlException unsupportedOption(TokenCursor c, String what) {
        Token t = c.peek();
        if (t.kind() != TokenKind.IDENTIFIER && t.kind() != TokenKind.KEYWORD) throw c.syntaxError();
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                what + " option " + t.text().toUpperCase(Locale.ROOT) + " is not supported", null,
                "Stillwater knows SIZE" + (what.equals("cluster") ? " and REPLICATION FACTOR." : "."));
    }

    /** {@code CREATE CLUSTER REPLICA cluster.replica [(] SIZE [=] 'size' [)]}; the cursor is at CLUSTER. */
    private static Statement createClusterReplica(TokenCursor c) {
        c.next(); // CLUSTER
        c.next(); // REPLICA
        Statement.ReplicaName n = replicaName(c);
        ClusterOptions o = new ClusterOptions();
        boolean parens = c.acceptSymbol("(");
        do {
            if (!c.acceptWord("size")) throw unsupportedOption(c, "cluster replica");
            c.acceptSymbol("=");
            o.size = value(c);
        } while (c.acceptSymbol(","));
        if (parens) c.expectSymbol(")");
        return new Statement.CreateClusterReplica(n.cluster(), n.replica(), o.size);
    }

    private static Statement.ReplicaName replicaName(TokenCursor c) {
        String cluster = clusterName(c);
        c.expectSymbol(".");
        return new Statement.ReplicaName(cluster, c.name());
    }

    /** {@code DROP CLUSTER [REPLICA] [IF EXISTS] names [CASCADE | RESTRICT]}; the cursor is at CLUSTER. */
    private static Statement dropCluster(TokenCursor c) {
        c.next(); // CLUSTER
        if (c.acceptWord("replica")) {
            boolean ifExists = c.acceptWords("if", "exists");
            List<Statement.ReplicaName> names = new ArrayList<>();
            do {
                names.add(replicaName(c));
            } while (c.acceptSymbol(","));
            if (!c.acceptWord("cascade")) c.acceptWord("restrict");
            return new Statement.DropClusterReplica(names, ifExists);
        }
        boolean ifExists = c.acceptWords("if", "exists");
        List<String> names = new ArrayList<>();
        do {
            names.add(clusterName(c));
        } while (c.acceptSymbol(","));
        boolean cascade = c.acceptWord("cascade");
        if (!cascade) c.acceptWord("restrict");
        return new Statement.DropCluster(names, ifExists, cascade);
    }

    // ---- unsupported statements

    /**
     * 0A000 naming the statement at the cursor by its leading words, e.g. {@code CREATE
     * TRIGGER}, {@code CREATE MATERIALIZED VIEW}, {@code DROP INDEX}, {@code REPLACE INTO}.
     * An unknown object kind after CREATE/DROP/ALTER is a syntax error at that word.
     */
    private static SqlException unsupported(TokenCursor c) {
        Token verb = c.next();
        List<String> words = new ArrayList<>();
        words.add(verb.text());
        switch (verb.text()) {
            case "create", "drop", "alter" -> {
                while (c.peek().kind() == TokenKind.IDENTIFIER || c.peek().kind() == TokenKind.KEYWORD) {
                    String w = c.peek().text();
                    if (OBJECT_MODIFIERS.contains(w) && !OBJECT_KINDS.contains(w)) {
                        words.add(w);
                        c.next();
                    } else if (OBJECT_KINDS.contains(w)) {
                        words.add(w);
                        c.next();
                        // two-word kinds: CLUSTER REPLICA, TEXT SEARCH, ACCESS METHOD, DEFAULT PRIVILEGES
                        if (w.equals("cluster") && c.atWord("replica")
                                || w.equals("text") && c.atWord("search")
                                || w.equals("access") && c.atWord("method")
                                || w.equals("default") && (c.atWord("privileges") || c.atWord("index"))) {
                            words.add(c.next().text());
                        }
                        return unsupportedNamed(String.join(" ", words).toUpperCase(Locale.ROOT));
                    } else {
                        break;
                    }
                }
                throw c.syntaxError();
            }
            case "replace" -> {
                if (c.atWord("into")) words.add(c.next().text());
            }
            default -> { }
        }
        return unsupportedNamed(String.join(" ", words).toUpperCase(Locale.ROOT));
    }

    private static SqlException unsupportedNamed(String statement) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED, statement + " is not supported");
    }
}
