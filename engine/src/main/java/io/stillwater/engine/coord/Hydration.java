package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.ClusterDef;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.ReplicaDef;
import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.DataflowSpec;
import io.stillwater.engine.compute.InputSnapshot;
import io.stillwater.engine.plan.PlanInputs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hydration: hands index and materialized view dataflows to the replicas of their cluster,
 * each with its table inputs pinned at the latest applied time, ordered before every
 * later write's changes; and drops them again.
 *
 * <p>Locks: installing holds the pipeline's write lock with nothing pending (no write can
 * slip between the snapshot and the command) and, per replica command, its apply lock
 * (replicas receive commands between two published records). Dropping takes the apply
 * lock only. Called by DDL ({@link CatalogSequencer}), cluster changes ({@link
 * ClusterControl}) and at open, on those callers' threads.
 */
final class Hydration {
    private static final Logger LOG = LoggerFactory.getLogger(Hydration.class);

    private final WritePipeline pipeline;
    private final AppliedState state;
    private final Replicas replicas;
    private final ReadTimestamps reads;
    private final Supplier<DataflowPlanner> planner;

    Hydration(WritePipeline pipeline, AppliedState state, Replicas replicas, ReadTimestamps reads,
              Supplier<DataflowPlanner> planner) {
        this.pipeline = pipeline;
        this.state = state;
        this.replicas = replicas;
        this.reads = reads;
        this.planner = planner;
    }

    /**
     * Starts maintaining {@code spec} on every running replica of {@code cluster} (none:
     * nothing to do until a replica is added, which then hydrates it). Waits for earlier
     * writes to apply first. If a replica refuses it, the replicas that took it drop it
     * again. Returns the hydration time.
     */
    long install(DataflowSpec spec, String cluster) {
        return pipeline.sequenced(() -> {
            List<Replicas.Live> targets = liveReplicasOf(state.clusters().byName(cluster).orElse(null));
            List<Replicas.Live> done = new ArrayList<>();
            synchronized (pipeline.applyLock()) {
                try {
                    for (Replicas.Live r : targets) {
                        installOn(r.compute(), spec);
                        done.add(r);
                    }
                } catch (RuntimeException e) {
                    for (Replicas.Live r : done) r.compute().dropDataflow(spec.exportId());
                    throw e;
                }
                return pipeline.oracle().readTimestamp();
            }
        });
    }

    /**
     * Hands {@code spec} to one replica with its table inputs pinned at the latest applied
     * time. Caller holds the write lock (nothing pending) and the apply lock.
     */
    private void installOn(ComputeController target, DataflowSpec spec) {
        Set<Long> tableInputs = new HashSet<>(PlanInputs.objectIds(spec.plan()));
        tableInputs.removeIf(id -> !state.isTable(id));
        ReadContext rc = reads.beginRead(tableInputs, -1);
        target.createDataflow(spec, new InputSnapshot(rc.asOf(), rc::read, rc, tableInputs));
    }

    /** The running replicas of {@code cluster} in its replica order; empty for null. */
    private List<Replicas.Live> liveReplicasOf(ClusterDef cluster) {
        List<Replicas.Live> out = new ArrayList<>();
        if (cluster == null) return out;
        for (ReplicaDef r : cluster.replicas()) replicas.get(r.id()).ifPresent(out::add);
        return out;
    }

    /** Stops maintaining export {@code exportId} on every replica, ordered with writes like {@link #install}. */
    void uninstall(long exportId) {
        synchronized (pipeline.applyLock()) {
            for (Replicas.Live r : replicas.all()) r.compute().dropDataflow(exportId);
        }
    }

    /** After recovery: hydrates every cluster's dataflows on its running replicas ({@link #hydrate}). */
    void hydrateAll() {
        for (ClusterDef c : state.clusters().all()) {
            List<Replicas.Live> targets = liveReplicasOf(c);
            targets.removeIf(r -> r.compute() == ComputeController.NONE);
            if (!targets.isEmpty()) hydrate(c.name(), targets);
        }
    }

    /** Hydrates the dataflows of {@code cluster} on newly provisioned replicas (closed again on failure). */
    void hydrateNew(String cluster, List<Replicas.Live> started) {
        List<Replicas.Live> targets = new ArrayList<>(started);
        targets.removeIf(r -> r.compute() == ComputeController.NONE);
        try {
            if (!targets.isEmpty()) hydrate(cluster, targets);
        } catch (RuntimeException e) {
            started.forEach(Replicas::closeQuietly);
            throw e;
        }
    }

    /**
     * Installs every index and materialized view of {@code cluster} on {@code targets}
     * (new or restarted replicas), in id order, so each one's inputs (tables, and the
     * collections of older exports it imports) exist before it. Each is planned against
     * the catalog as it was when it was created as far as indexes go ({@link
     * Catalog#withIndexesBelow}) and as its cluster sees it ({@link Catalog#forCluster}).
     * An object that no longer plans is logged and left without a dataflow.
     */
    private void hydrate(String cluster, List<Replicas.Live> targets) {
        pipeline.sequenced(() -> {
            Catalog all = state.catalog();
            List<Object> items = new ArrayList<>();
            all.indexes().stream().filter(i -> i.cluster().equals(cluster)).forEach(items::add);
            all.materializedViews().stream().filter(m -> m.cluster().equals(cluster)).forEach(items::add);
            items.sort(Comparator.comparingLong(o -> o instanceof IndexDef i ? i.id() : ((MaterializedViewDef) o).id()));
            for (Object o : items) {
                DataflowSpec spec;
                try {
                    spec = switch (o) {
                        case IndexDef i -> planner.get().index(all.withIndexesBelow(i.id()).forCluster(cluster), i);
                        case MaterializedViewDef m -> planner.get().materializedView(
                                all.withIndexesBelow(m.id()).forCluster(cluster), m);
                        default -> throw new IllegalStateException();
                    };
                } catch (RuntimeException e) {
                    LOG.error("could not plan the dataflow of {} on cluster {}", o, cluster, e);
                    continue;
                }
                for (Replicas.Live r : targets) {
                    synchronized (pipeline.applyLock()) {
                        try {
                            installOn(r.compute(), spec);
                        } catch (RuntimeException e) {
                            LOG.error("could not build the dataflow of {} on replica {}.{}", o, cluster, r.spec().replica(), e);
                        }
                    }
                }
            }
        });
    }
}
