package io.stillwater.engine.session;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.coord.ClusterControl;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.PlanCache;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What statements return as rows besides queries: the result columns of every statement
 * kind ({@link #columnsOf}), and the rows of SHOW TABLES / VIEWS / MATERIALIZED VIEWS /
 * INDEXES and SHOW CLUSTERS / CLUSTER REPLICAS, read from the catalog now. Stateless
 * apart from where it reads; any thread.
 */
final class ShowStatements {
    /** {@code SHOW plan_cache_stats}: the shared plan cache's counters (one row). */
    static final String PLAN_CACHE_STATS = "plan_cache_stats";

    static Row planCacheRow(PlanCache.Stats s) {
        return Row.of(s.entries(), s.hits(), s.liftedHits(), s.misses(), s.invalidations(), s.evictions());
    }

    /** The column of EXPLAIN's output, named as Materialize names it. */
    static final String EXPLAIN_COLUMN = "Optimized Plan";

    private final Supplier<Catalog> catalog;
    private final ClusterControl clusters;

    ShowStatements(Supplier<Catalog> catalog, ClusterControl clusters) {
        this.catalog = catalog;
        this.clusters = clusters;
    }

    /** The columns of {@code stmt}'s result rows (empty for statements without rows). */
    static List<ResultColumn> columnsOf(Statement stmt) {
        return switch (stmt) {
            case Statement.Query q -> {
                List<ResultColumn> cols = new ArrayList<>();
                for (int i = 0; i < q.plan().columnNames().size(); i++) {
                    cols.add(new ResultColumn(q.plan().columnNames().get(i), q.plan().columnTypes().get(i)));
                }
                yield cols;
            }
            case Statement.ShowObjects s -> switch (s.kind()) {
                case INDEX -> List.of(new ResultColumn("name", SqlType.TEXT), new ResultColumn("on", SqlType.TEXT),
                        new ResultColumn("cluster", SqlType.TEXT), new ResultColumn("key", SqlType.TEXT));
                case MATERIALIZED_VIEW -> List.of(new ResultColumn("name", SqlType.TEXT),
                        new ResultColumn("cluster", SqlType.TEXT));
                default -> List.of(new ResultColumn("name", SqlType.TEXT));
            };
            case Statement.Explain x -> List.of(new ResultColumn(EXPLAIN_COLUMN, SqlType.TEXT));
            case Statement.ShowClusters s -> s.replicas()
                    ? List.of(new ResultColumn("cluster", SqlType.TEXT), new ResultColumn("replica", SqlType.TEXT),
                            new ResultColumn("size", SqlType.TEXT), new ResultColumn("ready", SqlType.BOOLEAN))
                    : List.of(new ResultColumn("name", SqlType.TEXT), new ResultColumn("replicas", SqlType.TEXT));
            case Statement.ShowVariable s when s.name().equals(PLAN_CACHE_STATS) -> Stream.of("entries", "hits",
                    "lifted_hits", "misses", "invalidations", "evictions")
                    .map(n -> new ResultColumn(n, SqlType.BIGINT)).toList();
            case Statement.ShowVariable s -> s.name().equals("all")
                    ? List.of(new ResultColumn("name", SqlType.TEXT), new ResultColumn("setting", SqlType.TEXT),
                            new ResultColumn("description", SqlType.TEXT))
                    : List.of(new ResultColumn(s.name(), SqlType.TEXT));
            default -> List.of();
        };
    }

    /** SHOW TABLES | VIEWS | MATERIALIZED VIEWS | INDEXES rows, by name; the cluster filter is checked first. */
    List<Row> showObjects(Statement.ShowObjects so) {
        Catalog catalog = this.catalog.get();
        String cluster = so.cluster() == null ? null : clusters.resolveCluster(so.cluster());
        if (so.onName() != null && !catalog.relationExists(so.onName())) {
            throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + so.onName() + "\" does not exist");
        }
        List<Row> rows = new ArrayList<>();
        switch (so.kind()) {
            case TABLE -> catalog.tables().forEach(t -> rows.add(Row.of(t.name())));
            case VIEW -> catalog.views().forEach(v -> rows.add(Row.of(v.name())));
            case MATERIALIZED_VIEW -> catalog.materializedViews().stream()
                    .filter(m -> cluster == null || m.cluster().equals(cluster))
                    .forEach(m -> rows.add(Row.of(m.name(), m.cluster())));
            case INDEX -> catalog.indexes().stream()
                    .filter(i -> so.onName() == null || i.onName().equals(so.onName()))
                    .filter(i -> cluster == null || i.cluster().equals(cluster))
                    .forEach(i -> rows.add(Row.of(i.name(), i.onName(), i.cluster(), i.keyDisplay())));
        }
        return rows;
    }

    /**
     * SHOW CLUSTERS: name and replicas ({@code r1 (size), ...}), by name. SHOW CLUSTER
     * REPLICAS: cluster, replica, size, ready (every recorded replica is running), by
     * cluster and replica name.
     */
    List<Row> showClusters(Statement.ShowClusters sc) {
        List<ClusterDef> all = new ArrayList<>(clusters.clusters().all());
        all.sort(Comparator.comparing(ClusterDef::name));
        List<Row> rows = new ArrayList<>();
        for (var c : all) {
            if (sc.replicas()) {
                c.replicas().stream().sorted(Comparator.comparing(ReplicaDef::name))
                        .forEach(r -> rows.add(Row.of(c.name(), r.name(), r.size().text(), true)));
            } else {
                StringBuilder b = new StringBuilder();
                for (var r : c.replicas()) {
                    if (b.length() > 0) b.append(", ");
                    b.append(r.name()).append(" (").append(r.size().text()).append(')');
                }
                rows.add(Row.of(c.name(), b.toString()));
            }
        }
        return rows;
    }
}
