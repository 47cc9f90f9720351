package io.stillwater.engine.sql.parse;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The engine's own parser for the statements Calcite does not handle: CREATE TABLE,
 * DROP TABLE, CREATE/DROP VIEW, CREATE/DROP [DEFAULT] INDEX and MATERIALIZED VIEW, CREATE/ALTER/DROP
 * CLUSTER, CREATE/DROP CLUSTER REPLICA, SHOW CLUSTERS / CLUSTER REPLICAS, SHOW
 * TABLES/VIEWS/MATERIALIZED VIEWS/INDEXES, transaction control, SET/RESET/SHOW,
 * ALTER SYSTEM SET/RESET, CREATE/ALTER/DROP ROLE, GRANT/REVOKE, ALTER ... OWNER TO. Queries and DML (SELECT, VALUES,
 * WITH, TABLE, INSERT, UPDATE, DELETE) are not its business: {@link #parse} returns
 * empty for them without reading further than the first token, and the caller hands
 * them to Calcite. Recognised statements that Stillwater does not implement (CREATE
 * ALTER TABLE other than ADD PRIMARY KEY/UNIQUE, the SQLite corpus's REPLACE INTO and PRAGMA, ...) are
 * 0A000 errors naming the statement; unknown words are PostgreSQL's 42601 syntax error.
 *
 * <p>This class reads the first words and hands the rest to the parser of that kind of
 * statement: {@link CreateTableParser}, {@link ObjectDdlParser} (views, indexes,
 * materialized views, DROP), {@link ClusterDdlParser}, {@link TransactionParser},
 * {@link SettingParser} (SET/RESET/SHOW, ALTER SYSTEM), {@link AccessControlParser} (roles,
 * privileges, owners); {@link Unsupported} names the
 * statements Stillwater does not implement.
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
            "alter", "attach", "call", "checkpoint", "cluster", "comment",
            "deallocate", "detach", "discard", "do", "execute", "import",
            "listen", "load", "lock", "merge", "notify", "pragma", "prepare", "reassign", "refresh",
            "reindex", "replace", "security", "subscribe",
            "unlisten");

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
            case "drop" -> c.peek(1).isWord("role") || c.peek(1).isWord("user") ? dropRole(c) : ObjectDdlParser.drop(c);
            case "grant", "revoke" -> AccessControlParser.grantOrRevoke(c);
            case "begin" -> TransactionParser.begin(c);
            case "start" -> TransactionParser.startTransaction(c);
            case "commit", "end" -> TransactionParser.commit(c);
            case "rollback", "abort" -> TransactionParser.rollback(c);
            case "savepoint" -> TransactionParser.savepoint(c);
            case "release" -> TransactionParser.release(c);
            case "fetch", "move" -> CursorParser.fetch(c);
            case "close" -> CursorParser.close(c);
            case "declare" -> {
                // Planned by StatementPlanner (its query needs the catalog): see CursorParser.declared.
                CursorParser.declared(sql);
                yield null;
            }
            case "set" -> SettingParser.set(c);
            case "reset" -> SettingParser.reset(c);
            case "show" -> SettingParser.show(c);
            case "alter" -> alter(c);
            case "vacuum", "analyze", "analyse" -> TableMaintenanceParser.maintenance(c);
            case "checkpoint" -> {
                c.next();
                yield new Statement.Checkpoint();
            }
            case "truncate" -> {
                // Resolved by StatementPlanner (it needs the catalog).
                TableMaintenanceParser.truncatedTables(sql);
                yield null;
            }
            case "copy" -> {
                // Resolved by StatementPlanner (it needs the catalog): see CopyParser.
                CopyParser.parse(sql);
                yield null;
            }
            case "explain" -> {
                // Planned by StatementPlanner (it needs the catalog): see explainedQuery.
                explainedQuery(sql);
                yield null;
            }
            default -> {
                if (UNSUPPORTED_VERBS.contains(verb)) throw Unsupported.statementAt(c);
                throw c.syntaxError();
            }
        };
        if (statement == null) return Optional.empty();
        c.expectEnd();
        return Optional.of(statement);
    }

    /** DROP ROLE|USER: see {@link AccessControlParser#dropRole}. */
    private static Statement dropRole(TokenCursor c) {
        c.next(); // DROP
        return AccessControlParser.dropRole(c);
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
    public static OptionalInt explainedQuery(String sql) {
        TokenCursor c = new TokenCursor(sql);
        while (c.acceptSymbol(";")) { }
        if (!c.atWord("explain")) return OptionalInt.empty();
        c.next();
        if (c.atWord("analyze") || c.atWord("analyse") || c.atWord("verbose")) {
            throw Unsupported.named("EXPLAIN " + c.peek().text().toUpperCase(Locale.ROOT));
        }
        if (c.atSymbol("(") && !startsQuery(c.peek(1))) throw Unsupported.named("EXPLAIN with options");
        boolean stage = c.acceptWord("optimized") || c.acceptWord("physical");
        if (c.acceptWord("plan")) {
            if (c.acceptWord("as")) {
                if (!c.atWord("text")) throw Unsupported.named("EXPLAIN ... AS " + c.peek().source().toUpperCase(Locale.ROOT));
                c.next();
            }
            if (c.atWord("with")) throw Unsupported.named("EXPLAIN PLAN WITH (options)");
            c.expectWord("for");
        } else if (stage) {
            throw c.syntaxError();
        } else if (c.atWord("raw") || c.atWord("decorrelated") || c.atWord("locally") || c.atWord("timestamp")
                || c.atWord("filter") || c.atWord("key") || c.atWord("replan")) {
            throw Unsupported.named("EXPLAIN " + c.peek().text().toUpperCase(Locale.ROOT));
        }
        Token first = c.peek();
        if (first.kind() == TokenKind.EOF) throw c.syntaxError();
        if (startsQuery(first)) return OptionalInt.of(first.offset());
        if (first.isWord("insert") || first.isWord("update") || first.isWord("delete") || first.isWord("create")
                || first.isWord("index") || first.isWord("view") || first.isWord("materialized")) {
            throw Unsupported.named("EXPLAIN of " + first.text().toUpperCase(Locale.ROOT));
        }
        throw c.syntaxError();
    }

    /** SELECT, VALUES, WITH, TABLE or a parenthesised query. */
    private static boolean startsQuery(Token t) {
        return t.isSymbol("(") || t.isWord("select") || t.isWord("values") || t.isWord("with") || t.isWord("table");
    }

    // ---- CREATE and ALTER: which parser reads the rest

    private static Statement create(TokenCursor c) {
        int start = c.mark();
        c.next(); // CREATE
        boolean orReplace = c.acceptWords("or", "replace");
        if (c.atWord("view")) return ObjectDdlParser.createView(c, orReplace);
        if (!orReplace && (c.atWord("role") || c.atWord("user"))) return AccessControlParser.createRole(c);
        if (!orReplace && c.atWords("cluster", "replica")) return ClusterDdlParser.createClusterReplica(c);
        if (!orReplace && c.atWord("cluster")) return ClusterDdlParser.createCluster(c);
        if (c.atWords("materialized", "view")) return ObjectDdlParser.createMaterializedView(c, orReplace);
        if (!orReplace && c.atWord("index")) return ObjectDdlParser.createIndex(c, false);
        if (!orReplace && c.atWords("unique", "index")) return ConstraintDdlParser.createUniqueIndex(c);
        if (!orReplace && c.atWords("default", "index")) {
            c.next(); // DEFAULT
            return ObjectDdlParser.createIndex(c, true);
        }
        if (orReplace || !c.atWord("table")) {
            c.reset(start);
            throw Unsupported.statementAt(c);
        }
        return CreateTableParser.createTable(c);
    }

    /**
     * ALTER CLUSTER (see {@link ClusterDdlParser#alterCluster}) and ALTER SYSTEM (see
     * {@link SettingParser#alterSystem}); every other ALTER is unsupported.
     */
    private static Statement alter(TokenCursor c) {
        int start = c.mark();
        c.next(); // ALTER
        if (c.atWord("role") || c.atWord("user")) return AccessControlParser.alterRole(c);
        Statement owner = AccessControlParser.alterOwner(c);
        if (owner != null) return owner;
        if (c.atWord("cluster") && !c.peek(1).isWord("replica")) return ClusterDdlParser.alterCluster(c);
        if (c.atWord("table")) {
            Statement constraint = ConstraintDdlParser.alterTableAddConstraint(c);
            if (constraint != null) return constraint;
            c.reset(start);
            throw Unsupported.statementAt(c);
        }
        if (!c.atWord("system")) {
            c.reset(start);
            throw Unsupported.statementAt(c);
        }
        return SettingParser.alterSystem(c);
    }
}
