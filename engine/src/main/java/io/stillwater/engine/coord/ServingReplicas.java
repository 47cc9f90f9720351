package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.ReplicaSpec;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Optional;

/**
 * Which running replica serves a read: a session's (its {@code cluster} and {@code
 * cluster_replica}), the {@code default} cluster's first one (callers that predate
 * clusters), or any replica holding an export (introspection). Read-only: it looks at
 * the clusters recorded in the {@link AppliedState} and the running {@link Replicas};
 * session threads call it without a lock (both are safe to read concurrently).
 */
public final class ServingReplicas {
    private final AppliedState state;
    private final Replicas replicas;
    private final StoredViews stored;

    ServingReplicas(AppliedState state, Replicas replicas, StoredViews stored) {
        this.state = state;
        this.replicas = replicas;
        this.stored = stored;
    }

    /**
     * The compute of the {@code default} cluster's first replica (NONE when there is
     * none), for callers that predate clusters; sessions use {@link #compute(String, String)}.
     */
    public ComputeController defaultReplica() {
        Optional<ClusterDef> d = state.clusters().byName(SystemRelations.DEFAULT_CLUSTER);
        if (d.isEmpty()) return ComputeController.NONE;
        for (ReplicaDef r : d.get().replicas()) {
            Optional<Replicas.Live> live = replicas.get(r.id());
            if (live.isPresent()) return live.get().compute();
        }
        return ComputeController.NONE;
    }

    /**
     * The compute that serves reads for a session on {@code cluster}: its first replica,
     * or the one named {@code replica} (null or empty: any). Its readers are that
     * replica's (indexes and materialized views of {@code cluster}) plus the materialized
     * views of other clusters, read from a replica of theirs: Materialize's rule that an
     * index is usable only on its own cluster, and a materialized view everywhere.
     *
     * @throws SqlException 42704 for an unknown cluster or replica, or a cluster without replicas
     */
    public ComputeController compute(String cluster, String replica) {
        Replicas.Live live = choose(cluster, replica);
        return new SessionCompute(live.compute(), live.spec().cluster(), this::foreignMaterializedView, stored);
    }

    /**
     * What the replica serving a session on {@code cluster} (and {@code replica}, when
     * set) was provisioned with: the replica {@link #compute(String, String)} reads from.
     *
     * @throws SqlException 42704 as for {@link #compute(String, String)}
     */
    public ReplicaSpec servingReplica(String cluster, String replica) {
        return choose(cluster, replica).spec();
    }

    private Replicas.Live choose(String cluster, String replica) {
        ClusterDef c = state.clusters().require(cluster);
        ReplicaDef chosen = null;
        if (replica == null || replica.isEmpty()) {
            if (!c.replicas().isEmpty()) chosen = c.replicas().get(0);
        } else {
            chosen = c.replica(replica).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_OBJECT,
                    "unknown cluster replica '" + cluster + "." + replica + "'"));
        }
        if (chosen == null) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, "cluster '" + cluster + "' has no replicas", null,
                    "Add one with CREATE CLUSTER REPLICA " + cluster + ".r1 SIZE 'scale=1,workers=1', "
                            + "or ALTER CLUSTER " + cluster + " SET (REPLICATION FACTOR = 1).");
        }
        ReplicaDef r = chosen;
        return replicas.get(r.id()).orElseThrow(() ->
                new SqlException(SqlState.UNDEFINED_OBJECT, "cluster replica '" + cluster + "." + r.name() + "' is not running"));
    }

    /**
     * The reader of materialized view {@code id} from a replica of its own cluster, if
     * {@code id} is a materialized view on a cluster other than {@code sessionCluster}.
     */
    private Optional<CollectionReader> foreignMaterializedView(long id, String sessionCluster) {
        for (var m : state.catalog().materializedViews()) {
            if (m.id() != id) continue;
            if (m.cluster().equals(sessionCluster)) return Optional.empty();
            Optional<ClusterDef> c = state.clusters().byName(m.cluster());
            if (c.isEmpty()) return Optional.empty();
            for (ReplicaDef r : c.get().replicas()) {
                Optional<CollectionReader> reader = replicas.get(r.id()).flatMap(l -> l.compute().reader(id));
                if (reader.isPresent()) return reader;
            }
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The reader of export {@code exportId} on any running replica (introspection). */
    public Optional<CollectionReader> exportReader(long exportId) {
        for (Replicas.Live r : replicas.all()) {
            Optional<CollectionReader> reader = r.compute().reader(exportId);
            if (reader.isPresent()) return reader;
        }
        return Optional.empty();
    }

    /** What running replica {@code replicaId} was provisioned with. */
    public Optional<ReplicaSpec> replicaSpec(String replicaId) { return replicas.get(replicaId).map(Replicas.Live::spec); }

    /** The compute of running replica {@code replicaId} (the provisioned controller itself). */
    public Optional<ComputeController> replica(String replicaId) {
        return replicas.get(replicaId).map(Replicas.Live::compute);
    }
}
