package io.stillwater.engine.session;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.ObjectAcl;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.catalog.Privilege;
import io.stillwater.engine.catalog.SecurityCatalog;
import io.stillwater.engine.catalog.ViewDef;
import io.stillwater.engine.catalog.ViewRules;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The privilege checks of one statement, run when it executes (as PostgreSQL checks in
 * its executor: a GRANT or REVOKE between PREPARE and EXECUTE counts), against one
 * snapshot of the catalog and the role catalog. Superusers pass every check.
 *
 * <p>What each statement needs (PostgreSQL 15's rules, 42501 {@code permission denied for
 * table t} / {@code view v} / {@code materialized view m}): SELECT on every relation a
 * query, COPY TO, cursor, EXPLAIN names; for a view, its owner needs SELECT on what the
 * view reads (recursively); INSERT (and COPY FROM), UPDATE, DELETE (and TRUNCATE) on the
 * target, plus SELECT on it when a WHERE reads it and on every other relation named;
 * DROP, ALTER and CREATE INDEX need ownership ({@code must be owner of table t}), DROP
 * CASCADE of everything it would drop; CREATE VIEW and MATERIALIZED VIEW need SELECT on
 * every input, materialized views and indexes CREATE on their cluster. System catalogs
 * are never checked.
 */
final class PrivilegeChecks {
    private final SecurityCatalog security;
    private final Catalog catalog;
    private final Clusters clusters;
    private final String user;

    PrivilegeChecks(SecurityCatalog security, Catalog catalog, Clusters clusters, String user) {
        this.security = security;
        this.catalog = catalog;
        this.clusters = clusters;
        this.user = user;
    }

    /** The catalog these checks look at. */
    Catalog catalog() { return catalog; }

    /** Whether {@code user} bypasses every check. */
    boolean superuser() { return security.isSuperuser(user); }

    /**
     * Checks a planned statement; {@code references} are the relations it names directly
     * (from planning), empty for utility statements.
     */
    void check(Statement stmt, Set<String> references) {
        if (superuser()) return;
        switch (stmt) {
            case Statement.Query q -> read(references);
            case Statement.Explain x -> read(references);
            case Statement.DeclareCursor d -> read(references);
            case Statement.CopyTo c -> read(references);
            case Statement.Insert i -> write(i.table().name(), Privilege.INSERT, false, references);
            case Statement.Update u -> write(u.table().name(), Privilege.UPDATE, reads(u.rows().body()), references);
            case Statement.Delete d -> write(d.table().name(), Privilege.DELETE, reads(d.rows().body()), references);
            case Statement.CopyFrom c -> require(c.table().name(), Privilege.INSERT);
            case Statement.Truncate t -> t.deletes().forEach(d -> require(d.table().name(), Privilege.DELETE));
            case Statement.DropTable d -> drop(ObjectKind.TABLE, d.names(), d.cascade());
            case Statement.DropView d -> drop(ObjectKind.VIEW, d.names(), d.cascade());
            case Statement.DropObjects d -> drop(d.kind(), d.names(), d.cascade());
            case Statement.CreateIndex ci -> {
                if (catalog.relationExists(ci.onName())) requireOwner(ci.onName());
            }
            case Statement.AlterCluster a -> requireClusterOwner(a.name());
            case Statement.CreateClusterReplica r -> requireClusterOwner(r.cluster());
            case Statement.DropClusterReplica d -> d.names().forEach(n -> requireClusterOwner(n.cluster()));
            case Statement.DropCluster d -> {
                for (String n : d.names()) {
                    Optional<ClusterDef> c = clusters.byName(n);
                    if (c.isEmpty()) continue; // the DDL reports it (or skips it with IF EXISTS)
                    requireClusterOwner(n);
                    if (d.cascade()) {
                        List<String> on = new ArrayList<>();
                        catalog.indexes().stream().filter(i -> i.cluster().equals(n)).forEach(i -> on.add(i.name()));
                        catalog.materializedViews().stream().filter(m -> m.cluster().equals(n)).forEach(m -> on.add(m.name()));
                        ViewRules.dropOrder(catalog, on, true).forEach(this::requireOwner);
                    }
                }
            }
            default -> { }
        }
    }

    /** CREATE VIEW / MATERIALIZED VIEW: SELECT on every relation its query names. */
    void checkDefinition(Set<String> references) {
        if (!superuser()) read(references);
    }

    /** CREATE INDEX / MATERIALIZED VIEW on {@code clusterName}: CREATE on it (unknown clusters are the DDL's to report). */
    void checkCreateOn(String clusterName) {
        if (superuser()) return;
        Optional<ClusterDef> c = clusters.byName(clusterName);
        if (c.isEmpty()) return;
        if (!security.holds(user, security.clusterAcl(c.get().id()), Privilege.CREATE)) {
            throw denied("permission denied for cluster " + clusterName);
        }
    }

    /** CREATE OR REPLACE of an existing view or materialized view: only its owner. */
    void checkReplace(String name) {
        if (!superuser() && catalog.relationExists(name)) requireOwner(name);
    }

    private void read(Set<String> names) {
        for (String n : names) require(n, Privilege.SELECT);
        for (String n : names) catalog.view(n).ifPresent(this::viewOwnerReads);
    }

    /**
     * A view reads with its owner's privileges: the owner needs SELECT on each relation
     * the view names, and so on through the views it reads.
     */
    private void viewOwnerReads(ViewDef top) {
        Deque<ViewDef> todo = new ArrayDeque<>(List.of(top));
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            ViewDef v = todo.pop();
            if (!seen.add(v.name())) continue;
            ObjectAcl viewAcl = security.relationAcl(v.id());
            if (viewAcl.unowned()) continue; // as before roles: reads with the reader's privileges
            String owner = viewAcl.owner();
            for (String input : v.dependsOn()) {
                if (!catalog.relationExists(input)) continue;
                if (!security.holds(owner, acl(input), Privilege.SELECT)) throw permissionDenied(input);
                catalog.view(input).ifPresent(todo::push);
            }
        }
    }

    private void write(String target, Privilege privilege, boolean readsTarget, Set<String> references) {
        require(target, privilege);
        if (readsTarget) require(target, Privilege.SELECT);
        Set<String> others = new HashSet<>(references);
        others.remove(target);
        read(others);
    }

    /** Whether the plan of an UPDATE's or DELETE's rows filters them (a WHERE reads the table). */
    private static boolean reads(PlanNode rows) {
        return switch (rows) {
            case PlanNode.Filter f -> true;
            case PlanNode.Project p -> reads(p.input());
            default -> !(rows instanceof PlanNode.Get);
        };
    }

    private void require(String name, Privilege privilege) {
        if (!catalog.relationExists(name)) return;
        if (!security.holds(user, acl(name), privilege)) throw permissionDenied(name);
    }

    private void drop(ObjectKind kind, List<String> names, boolean cascade) {
        List<String> targets = names.stream().filter(n -> catalog.kindOf(n).orElse(null) == kind).distinct().toList();
        for (String n : targets) requireOwner(n);
        if (cascade) ViewRules.dropOrder(catalog, targets, true).forEach(this::requireOwner);
    }

    private void requireOwner(String name) {
        if (!acl(name).ownedBy(user)) throw denied("must be owner of " + kindWord(name) + " " + name);
    }

    private void requireClusterOwner(String name) {
        if (superuser()) return;
        clusters.byName(name).ifPresent(c -> {
            if (!security.clusterAcl(c.id()).ownedBy(user)) throw denied("must be owner of cluster " + name);
        });
    }

    private ObjectAcl acl(String name) { return security.relationAcl(catalog.idOf(name)); }

    private String kindWord(String name) { return catalog.kindOf(name).map(ObjectKind::word).orElse("relation"); }

    private SqlException permissionDenied(String name) { return denied("permission denied for " + kindWord(name) + " " + name); }

    private static SqlException denied(String message) { return new SqlException(SqlState.INSUFFICIENT_PRIVILEGE, message); }
}
