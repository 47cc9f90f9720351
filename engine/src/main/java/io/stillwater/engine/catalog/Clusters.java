package io.stillwater.engine.catalog;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The clusters of the catalog, as an immutable value (published like {@link Catalog}
 * through a volatile field; every change returns a new one).
 *
 * <p>Ids are {@code u} plus a counter, one counter for clusters and one for replicas, as
 * in Materialize; neither is ever reused: the counters are past every id that was ever
 * logged, removed ones included. {@code everCreated} says whether
 * the log has held any cluster record at all: the {@code default} cluster is created
 * only on a log that never had one, so dropping it is durable.
 */
public record Clusters(Map<String, ClusterDef> byId, long nextClusterId, long nextReplicaId, boolean everCreated) {
    public Clusters {
        byId = Collections.unmodifiableMap(new LinkedHashMap<>(byId));
    }

    public static Clusters empty() { return new Clusters(Map.of(), 1, 1, false); }

    public Collection<ClusterDef> all() { return byId.values(); }

    public Optional<ClusterDef> byName(String name) {
        return byId.values().stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The cluster {@code name}; 42704 with Materialize's wording if there is none. */
    public ClusterDef require(String name) {
        return byName(name).orElseThrow(() -> unknownCluster(name));
    }

    public static SqlException unknownCluster(String name) {
        return new SqlException(SqlState.UNDEFINED_OBJECT, "unknown cluster '" + name + "'");
    }

    /** With {@code cluster} added or replaced (by id). */
    public Clusters with(ClusterDef cluster) {
        var m = new LinkedHashMap<>(byId);
        m.put(cluster.id(), cluster);
        long nc = Math.max(nextClusterId, counter(cluster.id()) + 1);
        long nr = nextReplicaId;
        for (ReplicaDef r : cluster.replicas()) nr = Math.max(nr, counter(r.id()) + 1);
        return new Clusters(m, nc, nr, true);
    }

    /** Without the cluster with id {@code id} (no-op if absent). */
    public Clusters without(String id) {
        var m = new LinkedHashMap<>(byId);
        m.remove(id);
        return new Clusters(m, Math.max(nextClusterId, counter(id) + 1), nextReplicaId, true);
    }

    public String newClusterId() { return "u" + nextClusterId; }

    /** The id the {@code k}-th (from 0) replica created next gets. */
    public String newReplicaId(int k) { return "u" + (nextReplicaId + k); }

    /** The number in {@code u17}; 0 for an id of another form. */
    private static long counter(String id) {
        if (id.length() < 2 || id.charAt(0) != 'u') return 0;
        try {
            return Long.parseLong(id.substring(1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
