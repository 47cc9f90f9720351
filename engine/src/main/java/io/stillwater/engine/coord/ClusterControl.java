package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.ClusterCodec;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.ClusterSize;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.ReplicaProvisioner;
import io.stillwater.engine.compute.ReplicaSpec;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.storage.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Cluster management: creates, resizes and drops clusters and their replicas, provisions
 * replicas ({@link ReplicaProvisioner}, with the system parameters as they are when the
 * replica is created), hydrates new ones ({@link Hydration}) and lets them join or leave
 * the broadcast of applied writes ({@link Replicas}).
 *
 * <p>Every change runs in {@link WritePipeline#sequenced} (the write lock, nothing
 * pending), so no write falls between a replica's hydration snapshot and its joining;
 * replicas join and leave under the apply lock. Replicas are closed outside the apply
 * lock (closing joins worker threads). Session threads run the cluster DDL; the opening
 * thread runs {@link #startRecordedReplicas} and {@link #createDefaultCluster}.
 */
public final class ClusterControl {
    private final WritePipeline pipeline;
    private final AppliedState state;
    private final Replicas replicas;
    private final Hydration hydration;
    /** Creates a replica's compute when a replica is created (at DDL, and for every replica at start). */
    private final ReplicaProvisioner provisioner;

    ClusterControl(WritePipeline pipeline, AppliedState state, Replicas replicas, Hydration hydration,
                   ReplicaProvisioner provisioner) {
        this.pipeline = pipeline;
        this.state = state;
        this.replicas = replicas;
        this.hydration = hydration;
        this.provisioner = provisioner;
    }

    /** The clusters and replicas of the catalog now. */
    public Clusters clusters() { return state.clusters(); }

    /** {@code cluster} if it exists; 42704 {@code unknown cluster 'x'} (Materialize's wording) if not. */
    public String resolveCluster(String cluster) {
        return state.clusters().require(cluster).name();
    }

    /** At start: provisions every replica the catalog records, each with its recorded runtime mode. */
    void startRecordedReplicas() {
        for (ClusterDef c : state.clusters().all()) {
            List<Replicas.Live> started = provision(c, c.replicas());
            synchronized (pipeline.applyLock()) {
                started.forEach(replicas::add);
            }
        }
    }

    /** On a log that never had a cluster: the managed {@code default} cluster, one replica {@code r1} of {@code workers}. */
    void createDefaultCluster(int workers) {
        pipeline.sequenced(() -> {
            ClusterSize size = ClusterSize.ofWorkers(Math.max(1, Math.min(ClusterSize.MAX_WORKERS, workers)));
            Clusters now = state.clusters();
            ClusterDef def = new ClusterDef(now.newClusterId(), SystemRelations.DEFAULT_CLUSTER, true, size, 1,
                    newReplicas(now, size, 1, 0));
            startThenLog(def, provision(def, def.replicas()), List.of());
        });
    }

    /**
     * CREATE CLUSTER: managed (SIZE, REPLICATION FACTOR n: replicas r1..rn) or unmanaged
     * (the listed replicas). 42710 if the name is taken, 22023 for a bad size.
     */
    public ClusterDef createCluster(Statement.CreateCluster s) {
        return pipeline.sequenced(() -> {
            Clusters now = state.clusters();
            if (now.byName(s.name()).isPresent()) {
                throw new SqlException(SqlState.DUPLICATE_OBJECT, "cluster '" + s.name() + "' already exists");
            }
            ClusterDef def;
            if (s.managed()) {
                ClusterSize size = ClusterSize.parse(s.size());
                checkReplicationFactor(s.replicationFactor());
                def = new ClusterDef(now.newClusterId(), s.name(), true, size, s.replicationFactor(),
                        newReplicas(now, size, s.replicationFactor(), 0));
            } else {
                List<ReplicaDef> list = new ArrayList<>();
                boolean interactive = interactiveRuntimeNow();
                for (Statement.ReplicaOption o : s.replicas()) {
                    if (list.stream().anyMatch(r -> r.name().equals(o.name()))) {
                        throw new SqlException(SqlState.DUPLICATE_OBJECT,
                                "cluster replica '" + s.name() + "." + o.name() + "' already exists");
                    }
                    list.add(new ReplicaDef(now.newReplicaId(list.size()), o.name(), ClusterSize.parse(o.size()), interactive));
                }
                def = new ClusterDef(now.newClusterId(), s.name(), false, null, list.size(), list);
            }
            startThenLog(def, provision(def, def.replicas()), List.of());
            return def;
        });
    }

    /**
     * ALTER CLUSTER c SET (SIZE = ..., REPLICATION FACTOR = ...) of a managed cluster:
     * re-provisions. New replicas r1..rn (new ids, provisioned with the system parameters
     * as they are now) hydrate every dataflow of the cluster, then replace the old ones,
     * which are dropped. Unmanaged clusters are 0A000.
     */
    public ClusterDef alterCluster(Statement.AlterCluster s) {
        return pipeline.sequenced(() -> {
            Clusters now = state.clusters();
            ClusterDef old = now.require(s.name());
            if (!old.managed()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "cannot ALTER CLUSTER SET (SIZE, REPLICATION FACTOR) of unmanaged cluster '" + old.name() + "'",
                        null, "Use CREATE CLUSTER REPLICA and DROP CLUSTER REPLICA.");
            }
            ClusterSize size = s.size() != null ? ClusterSize.parse(s.size()) : old.size();
            int factor = s.replicationFactor() >= 0 ? s.replicationFactor() : old.replicationFactor();
            checkReplicationFactor(factor);
            ClusterDef def = new ClusterDef(old.id(), old.name(), true, size, factor, newReplicas(now, size, factor, 0));
            List<Replicas.Live> started = provision(def, def.replicas());
            hydration.hydrateNew(def.name(), started);
            startThenLog(def, started, old.replicas());
            return def;
        });
    }

    /** CREATE CLUSTER REPLICA c.r SIZE '...': unmanaged clusters only; the new replica hydrates the cluster's dataflows. */
    public ReplicaDef createClusterReplica(Statement.CreateClusterReplica s) {
        return pipeline.sequenced(() -> {
            Clusters now = state.clusters();
            ClusterDef old = now.require(s.cluster());
            if (old.managed()) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "cannot create more replicas in managed cluster '" + old.name() + "'", null,
                        "Use ALTER CLUSTER " + old.name() + " SET (REPLICATION FACTOR = n).");
            }
            if (old.replica(s.replica()).isPresent()) {
                throw new SqlException(SqlState.DUPLICATE_OBJECT,
                        "cluster replica '" + old.name() + "." + s.replica() + "' already exists");
            }
            ReplicaDef r = new ReplicaDef(now.newReplicaId(0), s.replica(), ClusterSize.parse(s.size()), interactiveRuntimeNow());
            List<ReplicaDef> all = new ArrayList<>(old.replicas());
            all.add(r);
            ClusterDef def = old.withReplicas(all);
            List<Replicas.Live> started = provision(def, List.of(r));
            hydration.hydrateNew(def.name(), started);
            startThenLog(def, started, List.of());
            return r;
        });
    }

    /**
     * DROP CLUSTER REPLICA c.r, ...: unmanaged clusters only (0A000 for managed ones);
     * unknown replicas are 42704 unless {@code ifExists}.
     */
    public void dropClusterReplicas(List<Statement.ReplicaName> names, boolean ifExists) {
        pipeline.sequenced(() -> {
            for (Statement.ReplicaName n : names) {
                Optional<ClusterDef> c = state.clusters().byName(n.cluster());
                if (c.isEmpty()) {
                    if (ifExists) continue;
                    throw Clusters.unknownCluster(n.cluster());
                }
                Optional<ReplicaDef> r = c.get().replica(n.replica());
                if (r.isEmpty()) {
                    if (ifExists) continue;
                    throw new SqlException(SqlState.UNDEFINED_OBJECT,
                            "unknown cluster replica '" + n.cluster() + "." + n.replica() + "'");
                }
                if (c.get().managed()) {
                    throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                            "cannot drop replicas of managed cluster '" + n.cluster() + "'", null,
                            "Use ALTER CLUSTER " + n.cluster() + " SET (REPLICATION FACTOR = n).");
                }
                List<ReplicaDef> rest = new ArrayList<>(c.get().replicas());
                rest.remove(r.get());
                startThenLog(c.get().withReplicas(rest), List.of(), List.of(r.get()));
            }
        });
    }

    /**
     * Removes cluster {@code c} durably and stops its replicas. The caller ({@link
     * CatalogSequencer#dropClusters}) has dropped what was on it; runs inside its sequence.
     */
    void removeCluster(ClusterDef c) {
        pipeline.submit(ts -> new LogRecord.CatalogRemoval(ClusterCodec.KIND, c.id()));
        stop(c.replicas());
    }

    private static void checkReplicationFactor(int factor) {
        if (factor < 0 || factor > 16) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                    "REPLICATION FACTOR must be between 0 and 16, got " + factor);
        }
    }

    /** {@code count} new replica definitions r{first+1}.. of {@code size}, with the runtime mode the flag says now. */
    private List<ReplicaDef> newReplicas(Clusters now, ClusterSize size, int count, int first) {
        boolean interactive = interactiveRuntimeNow();
        List<ReplicaDef> out = new ArrayList<>();
        for (int k = 0; k < count; k++) out.add(new ReplicaDef(now.newReplicaId(k), "r" + (first + k + 1), size, interactive));
        return out;
    }

    /** {@code enable_compute_interactive_runtime} now: read once per replica, when it is created. */
    private boolean interactiveRuntimeNow() {
        return state.systemParameters().get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME);
    }

    /**
     * Provisions {@code list} (replicas of {@code cluster}) with the system parameters as
     * they are now; if one fails, the ones already provisioned are closed.
     */
    private List<Replicas.Live> provision(ClusterDef cluster, List<ReplicaDef> list) {
        List<Replicas.Live> out = new ArrayList<>();
        try {
            for (ReplicaDef r : list) {
                ReplicaSpec spec = new ReplicaSpec(cluster.name(), r.name(), r.id(), r.size().workers(),
                        r.interactiveRuntime(), state.systemParameters().snapshot());
                out.add(new Replicas.Live(spec, provisioner.provision(spec)));
            }
            return out;
        } catch (RuntimeException e) {
            out.forEach(Replicas::closeQuietly);
            throw e;
        }
    }

    /**
     * Makes {@code def} durable with {@code started} replicas joining the broadcast and
     * {@code stopped} ones leaving it. Caller holds the write lock with nothing pending,
     * so no write falls between a replica's hydration snapshot and its joining. If the
     * log append fails, the started replicas are closed and the old ones keep running.
     */
    private void startThenLog(ClusterDef def, List<Replicas.Live> started, List<ReplicaDef> stopped) {
        synchronized (pipeline.applyLock()) {
            started.forEach(replicas::add);
        }
        byte[] payload = ClusterCodec.encode(def);
        try {
            pipeline.submit(ts -> new LogRecord.CatalogEntry(ClusterCodec.KIND, def.id(), payload));
        } catch (RuntimeException e) {
            synchronized (pipeline.applyLock()) {
                started.forEach(r -> replicas.remove(r.spec().replicaId()));
            }
            started.forEach(Replicas::closeQuietly);
            throw e;
        }
        stop(stopped);
    }

    /** Stops and closes the running replicas among {@code list}. */
    private void stop(List<ReplicaDef> list) {
        List<Replicas.Live> removed = new ArrayList<>();
        synchronized (pipeline.applyLock()) {
            for (ReplicaDef r : list) replicas.remove(r.id()).ifPresent(removed::add);
        }
        removed.forEach(Replicas::closeQuietly);
    }
}
