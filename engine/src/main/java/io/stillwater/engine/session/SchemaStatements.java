package io.stillwater.engine.session;

import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.coord.CatalogSequencer;
import io.stillwater.engine.coord.ClusterControl;
import io.stillwater.engine.coord.RoleSequencer;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Roles;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.StatementPlanner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Set;

/**
 * A session's DDL: CREATE and DROP of tables, views, indexes, materialized views,
 * clusters and replicas, ALTER CLUSTER and ALTER SYSTEM. Checks what only the session
 * knows (no open transaction block, the superuser role for ALTER SYSTEM, the session's
 * cluster as the default {@code IN CLUSTER}) and hands the statement to the coordinator
 * ({@link CatalogSequencer}, {@link ClusterControl}), which validates it against the
 * catalog and makes it durable. Used by one session's thread.
 */
final class SchemaStatements {
    private final CatalogSequencer ddl;
    private final ClusterControl clusters;
    private final StatementPlanner planner;
    private final String user;
    /** Role DDL, grants, and the owner entry of what this session creates. */
    private final RoleSequencer roles;
    /** The privilege checks against the current catalogs (a new snapshot per call). */
    private final Supplier<PrivilegeChecks> checks;

    SchemaStatements(CatalogSequencer ddl, ClusterControl clusters, StatementPlanner planner, String user,
                     RoleSequencer roles, Supplier<PrivilegeChecks> checks) {
        this.ddl = ddl;
        this.clusters = clusters;
        this.planner = planner;
        this.user = user;
        this.roles = roles;
        this.checks = checks;
    }

    /**
     * Runs DDL statement {@code stmt}.
     *
     * @param inTransaction  a transaction block is open: DDL is refused with 25001
     * @param sessionCluster the session's {@code cluster}: where objects go without {@code IN CLUSTER}
     */
    ExecutionResult execute(Statement stmt, boolean inTransaction, String sessionCluster) {
        return switch (stmt) {
            case Statement.CreateTable ct -> {
                requireNoTransaction(inTransaction, "CREATE TABLE");
                roles.createRelation(user, () -> createTable(ct), TableDef::id);
                yield new ExecutionResult.Command("CREATE TABLE");
            }
            case Statement.DropTable dt -> {
                requireNoTransaction(inTransaction, "DROP TABLE");
                ddl.dropObjects(ObjectKind.TABLE, dt.names(), dt.ifExists(), dt.cascade());
                yield new ExecutionResult.Command("DROP TABLE");
            }
            case Statement.CreateView cv -> {
                requireNoTransaction(inTransaction, "CREATE VIEW");
                if (cv.orReplace()) checks.get().checkReplace(cv.name());
                roles.createRelation(user, () -> createView(cv), ViewDef::id);
                yield new ExecutionResult.Command("CREATE VIEW");
            }
            case Statement.DropView dv -> {
                requireNoTransaction(inTransaction, "DROP VIEW");
                ddl.dropObjects(ObjectKind.VIEW, dv.names(), dv.ifExists(), dv.cascade());
                yield new ExecutionResult.Command("DROP VIEW");
            }
            case Statement.CreateIndex ci -> {
                requireNoTransaction(inTransaction, "CREATE INDEX");
                checks.get().checkCreateOn(ci.cluster() != null ? ci.cluster() : sessionCluster);
                roles.createRelation(user, () -> ddl.createIndex(ci, sessionCluster), IndexDef::id);
                yield new ExecutionResult.Command("CREATE INDEX");
            }
            case Statement.CreateMaterializedView cmv -> {
                requireNoTransaction(inTransaction, "CREATE MATERIALIZED VIEW");
                checkMaterializedView(cmv, sessionCluster);
                roles.createRelation(user, () -> ddl.createMaterializedView(cmv, sessionCluster), MaterializedViewDef::id);
                yield new ExecutionResult.Command("CREATE MATERIALIZED VIEW");
            }
            case Statement.DropObjects d -> {
                requireNoTransaction(inTransaction, d.commandVerb());
                ddl.dropObjects(d.kind(), d.names(), d.ifExists(), d.cascade());
                yield new ExecutionResult.Command(d.commandVerb());
            }
            case Statement.AlterSystemSet a -> {
                if (!checks.get().superuser()) Roles.requireSuperuser(user, "alter system parameters");
                requireNoTransaction(inTransaction, "ALTER SYSTEM");
                ddl.alterSystemSet(a.name(), a.value());
                yield new ExecutionResult.Command("ALTER SYSTEM");
            }
            case Statement.AlterSystemReset a -> {
                if (!checks.get().superuser()) Roles.requireSuperuser(user, "alter system parameters");
                requireNoTransaction(inTransaction, "ALTER SYSTEM");
                ddl.alterSystemReset(a.name());
                yield new ExecutionResult.Command("ALTER SYSTEM");
            }
            case Statement.CreateCluster cc -> {
                requireNoTransaction(inTransaction, "CREATE CLUSTER");
                roles.createCluster(user, () -> clusters.createCluster(cc));
                yield new ExecutionResult.Command("CREATE CLUSTER");
            }
            case Statement.AlterCluster ac -> {
                requireNoTransaction(inTransaction, "ALTER CLUSTER");
                clusters.alterCluster(ac);
                yield new ExecutionResult.Command("ALTER CLUSTER");
            }
            case Statement.CreateClusterReplica cr -> {
                requireNoTransaction(inTransaction, "CREATE CLUSTER REPLICA");
                clusters.createClusterReplica(cr);
                yield new ExecutionResult.Command("CREATE CLUSTER REPLICA");
            }
            case Statement.DropCluster dc -> {
                requireNoTransaction(inTransaction, "DROP CLUSTER");
                ddl.dropClusters(dc.names(), dc.ifExists(), dc.cascade());
                yield new ExecutionResult.Command("DROP CLUSTER");
            }
            case Statement.DropClusterReplica dr -> {
                requireNoTransaction(inTransaction, "DROP CLUSTER REPLICA");
                clusters.dropClusterReplicas(dr.names(), dr.ifExists());
                yield new ExecutionResult.Command("DROP CLUSTER REPLICA");
            }
            case Statement.AccessControl ac -> {
                requireNoTransaction(inTransaction, ac.commandVerb());
                roles.execute(ac.statement(), user);
                yield new ExecutionResult.Command(ac.commandVerb());
            }
            default -> throw new IllegalArgumentException("not a DDL statement: " + stmt.getClass().getSimpleName());
        };
    }

    /** 25001 inside a transaction block: DDL commits on its own. */
    static void requireNoTransaction(boolean inTransaction, String what) {
        if (inTransaction) {
            throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION, what + " cannot run inside a transaction block");
        }
    }

    /**
     * CREATE MATERIALIZED VIEW's privileges: SELECT on every relation its query names
     * (planned here to find them), CREATE on its cluster, ownership of one it replaces.
     */
    private void checkMaterializedView(Statement.CreateMaterializedView cmv, String sessionCluster) {
        PrivilegeChecks c = checks.get();
        if (c.superuser()) return;
        if (cmv.orReplace()) c.checkReplace(cmv.name());
        c.checkCreateOn(cmv.cluster() != null ? cmv.cluster() : sessionCluster);
        c.checkDefinition(planner.planView(" ".repeat(cmv.queryOffset()) + cmv.query(), c.catalog()).references());
    }

    private Optional<TableDef> createTable(Statement.CreateTable ct) {
        Set<String> seen = new HashSet<>();
        for (ColumnDef c : ct.columns()) {
            if (!seen.add(c.name())) {
                throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + c.name() + "\" specified more than once");
            }
        }
        // With IF NOT EXISTS and an existing table PostgreSQL also answers CREATE TABLE
        // (plus a NOTICE, which sessions cannot send yet).
        return ddl.createTable(ct.name(), ct.columns(), ct.primaryKey(), ct.ifNotExists());
    }

    /**
     * CREATE [OR REPLACE] VIEW: plans the query against the catalog current under the
     * coordinator's write lock (errors as for the SELECT), applies the column list and
     * records the query's direct references as dependencies.
     */
    private Optional<ViewDef> createView(Statement.CreateView cv) {
        return ddl.createView(cv.name(), cv.orReplace(), cv.ifNotExists(), (catalog, id) -> {
            // Blank padding puts the query at its offset in the statement, so error
            // positions point into the statement as the client sent it.
            var planned = planner.planView(" ".repeat(cv.queryOffset()) + cv.query(), catalog);
            List<String> names = new ArrayList<>(planned.plan().columnNames());
            if (cv.columnNames().size() > names.size()) {
                throw new SqlException(SqlState.SYNTAX_ERROR, "CREATE VIEW specifies more column names than columns");
            }
            for (int i = 0; i < cv.columnNames().size(); i++) names.set(i, cv.columnNames().get(i));
            Set<String> seen = new HashSet<>();
            for (String n : names) {
                if (!seen.add(n)) throw new SqlException(SqlState.DUPLICATE_COLUMN, "column \"" + n + "\" specified more than once");
            }
            checks.get().checkDefinition(planned.references());
            List<String> deps = planned.references().stream().sorted().toList();
            return new ViewDef(id, cv.name(), names, planned.plan().columnTypes(), cv.query(), deps);
        });
    }
}
