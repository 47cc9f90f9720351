package io.stillwater.engine.coord;

import io.stillwater.engine.compute.ComputeController;
import io.stillwater.engine.compute.MaintenanceBacklog;
import io.stillwater.engine.compute.ReplicaSpec;
import io.stillwater.engine.data.Changes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns every provisioned replica of every cluster: the live {@link ComputeController}s,
 * by replica id. The catalog ({@code Clusters}) says which replicas exist; this says
 * which are running.
 *
 * <p>Threading: {@link #add}, {@link #remove} and the broadcasts are called by the
 * coordinator under its apply lock (so a replica joins or leaves between two commands,
 * never in the middle of one); lookups come from session threads (a concurrent map).
 * Closing a removed replica is the caller's job, outside the apply lock, since it joins
 * worker threads.
 */
final class Replicas implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Replicas.class);

    /** A running replica and what it was provisioned with. */
    record Live(ReplicaSpec spec, ComputeController compute) {}

    private final Map<String, Live> byId = new ConcurrentHashMap<>();
    /**
     * Told when a replica's maintenance finishes a write (on its worker threads) and when
     * a replica joins or leaves: write admission looks at the backlog again.
     */
    private final Runnable progress;

    Replicas(Runnable progress) { this.progress = progress; }

    void add(Live replica) {
        if (byId.putIfAbsent(replica.spec().replicaId(), replica) != null) {
            throw new IllegalStateException("replica " + replica.spec().replicaId() + " is already running");
        }
        replica.compute().onMaintenanceProgress(progress);
        progress.run();
    }

    /** Stops broadcasting to replica {@code id}; returns it (to be closed by the caller). */
    Optional<Live> remove(String id) {
        Optional<Live> removed = Optional.ofNullable(byId.remove(id));
        progress.run(); // its backlog no longer holds writers back
        return removed;
    }

    /**
     * The slowest running replica's maintenance backlog (the largest age and the most
     * queued writes, possibly of two replicas). Any thread.
     */
    MaintenanceBacklog.Status backlog() {
        var worst = MaintenanceBacklog.Status.NONE;
        for (Live r : byId.values()) worst = worst.max(r.compute().backlog());
        return worst;
    }

    Optional<Live> get(String id) { return Optional.ofNullable(byId.get(id)); }

    Collection<Live> all() { return byId.values(); }

    /** One committed write's changes, to every replica (each queues its own copy). */
    void inputChanges(long time, Map<Long, Changes> changes) {
        for (Live r : byId.values()) r.compute().inputChanges(time, changes);
    }

    void advanceTo(long upper) {
        for (Live r : byId.values()) r.compute().advanceTo(upper);
    }

    /** Closes every replica (engine shutdown); one failing does not keep the others open. */
    @Override
    public void close() {
        List<Live> all = new ArrayList<>(byId.values());
        byId.clear();
        for (Live r : all) closeQuietly(r);
    }

    static void closeQuietly(Live r) {
        try {
            r.compute().close();
        } catch (RuntimeException e) {
            LOG.warn("closing replica {}.{} failed", r.spec().cluster(), r.spec().replica(), e);
        }
    }
}
