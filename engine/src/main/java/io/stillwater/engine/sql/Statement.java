package io.stillwater.engine.sql;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Locale;

/**
 * A parsed and planned statement: the closed set of statements the engine executes.
 * Produced by {@link io.stillwater.engine.sql.planner.StatementPlanner} from SQL text; executed by the session.
 *
 * <p>Plans may contain {@link io.stillwater.engine.expr.Expr.Param}s; {@link
 * #paramTypes()} gives the type of each {@code $n} (index n-1).
 */
public sealed interface Statement {
    /** Types of the statement's parameters {@code $1..$n}. */
    default List<SqlType> paramTypes() { return List.of(); }

    /** The CommandComplete verb: {@code SELECT}, {@code INSERT}, {@code CREATE TABLE}, ... */
    String commandVerb();

    /** SELECT, VALUES, WITH ... SELECT, TABLE t. */
    record Query(QueryPlan plan, List<SqlType> paramTypes) implements Statement {
        public String commandVerb() { return "SELECT"; }
    }

    /**
     * INSERT INTO table [(columns)] source. {@code source} yields one column per entry of
     * {@code targetColumns} (indexes into the table's columns), in the source's own
     * types; the session fills the other columns with their defaults, applies
     * assignment casts and checks NOT NULL.
     */
    record Insert(TableDef table, int[] targetColumns, QueryPlan source, List<SqlType> paramTypes)
            implements Statement {
        public String commandVerb() { return "INSERT"; }
    }

    /**
     * UPDATE table SET ... WHERE ... . {@code rows} yields, for every matching row, the
     * table's columns (the old row) followed by one column per entry of {@code
     * setColumns} (the new values, in source types, before assignment casts).
     */
    record Update(TableDef table, int[] setColumns, QueryPlan rows, List<SqlType> paramTypes)
            implements Statement {
        public String commandVerb() { return "UPDATE"; }
    }

    /** DELETE FROM table WHERE ... . {@code rows} yields the matching rows (all columns). */
    record Delete(TableDef table, QueryPlan rows, List<SqlType> paramTypes) implements Statement {
        public String commandVerb() { return "DELETE"; }
    }

    /**
     * COPY table [(columns)] FROM STDIN: the client sends the rows (see {@code engine.copy}).
     * {@code columns} index the table's columns in the order the data gives them; the others
     * take their defaults. All rows are one atomic write.
     */
    record CopyFrom(TableDef table, int[] columns, CopyOptions options) implements Statement {
        public String commandVerb() { return "COPY"; }
    }

    /**
     * COPY {table [(columns)] | (query)} TO STDOUT: {@code query} yields the rows to send
     * (for a table, {@code SELECT columns FROM table}); {@code columnNames} head them.
     */
    record CopyTo(Query query, List<String> columnNames, CopyOptions options) implements Statement {
        public CopyTo {
            columnNames = List.copyOf(columnNames);
        }

        public String commandVerb() { return "COPY"; }

        @Override
        public List<SqlType> paramTypes() { return query.paramTypes(); }
    }

    /**
     * TRUNCATE [TABLE] a, b, ...: every row of each table is deleted, all in one write
     * ({@code deletes} are the {@code DELETE FROM t} of each table). Inside BEGIN it takes
     * effect at COMMIT, after the transaction's earlier writes to those tables are dropped.
     */
    record Truncate(List<Delete> deletes) implements Statement {
        public Truncate {
            deletes = List.copyOf(deletes);
        }

        public String commandVerb() { return "TRUNCATE TABLE"; }
    }

    /** CHECKPOINT: writes a checkpoint now and deletes the log before it (superuser only, as in PostgreSQL). */
    record Checkpoint() implements Statement {
        @Override
        public String commandVerb() { return "CHECKPOINT"; }
    }

    /**
     * VACUUM / ANALYZE [options] [tables]: accepted for compatibility (pgbench, ORMs) and
     * does nothing, since Stillwater has no dead tuples or planner statistics to refresh.
     * {@code verb} is {@code VACUUM} or {@code ANALYZE}; {@code tables} the names given.
     */

    record Maintenance(String verb, List<String> tables) implements Statement {
        public Maintenance {
            tables = List.copyOf(tables);
        }

        public String commandVerb() { return verb; }
    }

    /** CREATE TABLE [IF NOT EXISTS]; column defaults are constants coerced to the column type. */
    record CreateTable(String name, boolean ifNotExists, List<ColumnDef> columns, List<Integer> primaryKey)
            implements Statement {
        // primaryKey: the 0-based positions of a declared PRIMARY KEY's columns (recorded, not enforced).
        public CreateTable(String name, boolean ifNotExists, List<ColumnDef> columns) {
            this(name, ifNotExists, columns, List.of());
        }

        public String commandVerb() { return "CREATE TABLE"; }
    }

    /** DROP TABLE [IF EXISTS] a, b, ... [CASCADE | RESTRICT] (RESTRICT is the default). */
    record DropTable(List<String> names, boolean ifExists, boolean cascade) implements Statement {
        public DropTable(List<String> names, boolean ifExists) { this(names, ifExists, false); }

        public String commandVerb() { return "DROP TABLE"; }
    }

    /**
     * CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name [(columns)] AS query. {@code query} is
     * the SQL text after AS, unplanned: the session plans it against the catalog current
     * when the view is created. {@code columnNames} is empty without a column list.
     * {@code queryOffset} is where the query starts in the statement's text, so that
     * errors in the query can point into the statement.
     */
    record CreateView(String name, List<String> columnNames, String query, int queryOffset, boolean orReplace,
                      boolean ifNotExists) implements Statement {
        public CreateView {
            columnNames = List.copyOf(columnNames);
        }

        public String commandVerb() { return "CREATE VIEW"; }
    }

    /** DROP VIEW [IF EXISTS] a, b, ... [CASCADE | RESTRICT]. */
    record DropView(List<String> names, boolean ifExists, boolean cascade) implements Statement {
        public String commandVerb() { return "DROP VIEW"; }
    }

    /**
     * CREATE [DEFAULT] INDEX [IF NOT EXISTS] [name] [IN CLUSTER cluster] ON object [(key, ...)].
     * {@code name} is null when omitted (a name is generated like Materialize's
     * {@code object_key_idx}); {@code cluster} is null when omitted (the session's
     * cluster). {@code keySql} holds the SQL text of each key expression, empty for a
     * DEFAULT index (all columns of the object). {@code unique}: CREATE UNIQUE INDEX, a
     * constraint on a table's key columns (see {@code IndexDef#unique}).
     */
    record CreateIndex(String name, boolean isDefault, String cluster, String onName, List<String> keySql,
                       boolean ifNotExists, boolean unique) implements Statement {
        public CreateIndex {
            keySql = List.copyOf(keySql);
        }

        public CreateIndex(String name, boolean isDefault, String cluster, String onName, List<String> keySql,
                           boolean ifNotExists) {
            this(name, isDefault, cluster, onName, keySql, ifNotExists, false);
        }

        /** CREATE UNIQUE INDEX: the same index, also a uniqueness constraint on its table. */
        public CreateIndex asUnique() { return new CreateIndex(name, isDefault, cluster, onName, keySql, ifNotExists, true); }

        public String commandVerb() { return "CREATE INDEX"; }
    }

    /**
     * CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] name [(columns)] [IN CLUSTER c]
     * AS query. Like {@link CreateView}; {@code cluster} is null when omitted.
     */
    record CreateMaterializedView(String name, List<String> columnNames, String cluster, String query,
                                  int queryOffset, boolean orReplace, boolean ifNotExists) implements Statement {
        public CreateMaterializedView {
            columnNames = List.copyOf(columnNames);
        }

        public String commandVerb() { return "CREATE MATERIALIZED VIEW"; }
    }

    /** DROP {INDEX | MATERIALIZED VIEW} [IF EXISTS] a, b, ... [CASCADE | RESTRICT]. */
    record DropObjects(ObjectKind kind, List<String> names, boolean ifExists, boolean cascade) implements Statement {
        public DropObjects {
            names = List.copyOf(names);
        }

        public String commandVerb() { return "DROP " + kind.word().toUpperCase(Locale.ROOT); }
    }

    /**
     * EXPLAIN [options] query: one text column describing how the query would be read
     * (the plan, fast path or peek dataflow, and which arrangements it reads).
     * {@code query} is the planned statement being explained.
     */
    record Explain(Query query) implements Statement {
        public String commandVerb() { return "EXPLAIN"; }

        @Override
        public List<SqlType> paramTypes() { return query.paramTypes(); }
    }

    /**
     * SHOW TABLES | VIEWS | MATERIALIZED VIEWS [IN CLUSTER c] | INDEXES [ON obj] [IN
     * CLUSTER c]: text columns (name; plus cluster for materialized views; name, on,
     * cluster, key for indexes, as in Materialize), sorted by name. {@code onName} and
     * {@code cluster} are null when not given.
     */
    record ShowObjects(ObjectKind kind, String onName, String cluster) implements Statement {
        public ShowObjects(ObjectKind kind) { this(kind, null, null); }

        public String commandVerb() { return "SHOW"; }
    }

    /**
     * BEGIN / START TRANSACTION [READ ONLY | READ WRITE] [ISOLATION LEVEL ...].
     * {@code isolationLevel} is null when not given; {@code readOnly} null when neither
     * READ ONLY nor READ WRITE is given (the session's default_transaction_read_only).
     */
    record Begin(String isolationLevel, Boolean readOnly) implements Statement {
        public Begin(String isolationLevel) { this(isolationLevel, null); }

        public String commandVerb() { return "BEGIN"; }
    }

    /** SAVEPOINT name, ROLLBACK TO [SAVEPOINT] name ({@code rollback}), RELEASE [SAVEPOINT] name ({@code release}). */
    record Savepoint(String name, SavepointAction action) implements Statement {
        public String commandVerb() {
            return switch (action) {
                case DEFINE -> "SAVEPOINT";
                case ROLLBACK_TO -> "ROLLBACK";
                case RELEASE -> "RELEASE";
            };
        }
    }

    /** What a {@link Savepoint} statement does. */
    enum SavepointAction { DEFINE, ROLLBACK_TO, RELEASE }

    /**
     * DECLARE name [BINARY] [INSENSITIVE] [NO SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR
     * query: a forward-only cursor over {@code query}; one WITH HOLD ({@code hold}) outlives
     * the transaction that committed it.
     */
    record DeclareCursor(String name, boolean hold, Query query) implements Statement {
        public List<SqlType> paramTypes() { return query.paramTypes(); }

        public String commandVerb() { return "DECLARE CURSOR"; }
    }

    /**
     * FETCH / MOVE [NEXT | FORWARD [n | ALL] | n | ALL] [FROM | IN] name: the next
     * {@code count} rows of cursor {@code name} ({@code Long.MAX_VALUE} for ALL); MOVE
     * ({@code move}) skips them instead of returning them.
     */
    record FetchCursor(String name, long count, boolean move) implements Statement {
        public String commandVerb() { return move ? "MOVE" : "FETCH"; }
    }

    /** CLOSE name, or CLOSE ALL ({@code name} null). */
    record CloseCursor(String name) implements Statement {
        public String commandVerb() { return name == null ? "CLOSE CURSOR ALL" : "CLOSE CURSOR"; }
    }

    /** COMMIT / END. */
    record Commit() implements Statement {
        public String commandVerb() { return "COMMIT"; }
    }

    /** ROLLBACK / ABORT. */
    record Rollback() implements Statement {
        public String commandVerb() { return "ROLLBACK"; }
    }

    /**
     * SET [SESSION|LOCAL] name {TO|=} value | DEFAULT, and SET TIME ZONE ... .
     * {@code value} is null for DEFAULT; names are lower-cased.
     */
    record SetVariable(String name, String value, boolean local) implements Statement {
        public String commandVerb() { return "SET"; }
    }

    /** RESET name | ALL (name "all"). */
    record ResetVariable(String name) implements Statement {
        public String commandVerb() { return "RESET"; }
    }

    /** SHOW name | ALL (name "all"). */
    record ShowVariable(String name) implements Statement {
        public String commandVerb() { return "SHOW"; }
    }

    /**
     * ALTER SYSTEM SET name {TO|=} value: a durable override of a system parameter
     * (superuser only). {@code name} is lower-cased; {@code value} is the setting's text
     * as the parser read it (validated by the registry when executed).
     * {@code ALTER SYSTEM SET name TO DEFAULT} parses as {@link AlterSystemReset}.
     */
    record AlterSystemSet(String name, String value) implements Statement {
        public String commandVerb() { return "ALTER SYSTEM"; }
    }

    /** ALTER SYSTEM RESET name | ALL (name "all"): removes overrides (superuser only). */
    record AlterSystemReset(String name) implements Statement {
        public String commandVerb() { return "ALTER SYSTEM"; }
    }

    /**
     * CREATE CLUSTER name (SIZE = 'size' [, REPLICATION FACTOR n]) (managed: {@code
     * replicas} empty, {@code replicationFactor} 1 when not given) or CREATE CLUSTER name
     * REPLICAS (r1 (SIZE 'size'), ...) (unmanaged: {@code size} null).
     */
    record CreateCluster(String name, boolean managed, String size, int replicationFactor,
                         List<ReplicaOption> replicas) implements Statement {
        public CreateCluster {
            replicas = List.copyOf(replicas);
        }

        public String commandVerb() { return "CREATE CLUSTER"; }
    }

    /** One replica of CREATE CLUSTER ... REPLICAS (name (SIZE 'size')). */
    record ReplicaOption(String name, String size) {}

    /** ALTER CLUSTER name SET (SIZE = 'size', REPLICATION FACTOR = n): null/negative for what is not set. */
    record AlterCluster(String name, String size, int replicationFactor) implements Statement {
        public String commandVerb() { return "ALTER CLUSTER"; }
    }

    /** CREATE CLUSTER REPLICA cluster.replica SIZE 'size' (unmanaged clusters only). */
    record CreateClusterReplica(String cluster, String replica, String size) implements Statement {
        public String commandVerb() { return "CREATE CLUSTER REPLICA"; }
    }

    /** DROP CLUSTER [IF EXISTS] a, b [CASCADE | RESTRICT]. */
    record DropCluster(List<String> names, boolean ifExists, boolean cascade) implements Statement {
        public DropCluster {
            names = List.copyOf(names);
        }

        public String commandVerb() { return "DROP CLUSTER"; }
    }

    /** DROP CLUSTER REPLICA [IF EXISTS] c.r, ... ; {@code names} are (cluster, replica) pairs. */
    record DropClusterReplica(List<ReplicaName> names, boolean ifExists) implements Statement {
        public DropClusterReplica {
            names = List.copyOf(names);
        }

        public String commandVerb() { return "DROP CLUSTER REPLICA"; }
    }

    /** A replica's qualified name {@code cluster.replica}. */
    record ReplicaName(String cluster, String replica) {}

    /** SHOW CLUSTERS (name, replicas) or SHOW CLUSTER REPLICAS (cluster, replica, size, ready). */
    record ShowClusters(boolean replicas) implements Statement {
        public String commandVerb() { return "SHOW"; }
    }

    /** A role, GRANT/REVOKE or OWNER TO statement: see {@link AccessStatement}. */
    record AccessControl(AccessStatement statement) implements Statement {
        public String commandVerb() { return statement.commandVerb(); }
    }

    /** An empty query (only whitespace, comments, semicolons). */
    record Empty() implements Statement {
        public String commandVerb() { return ""; }
    }
}
