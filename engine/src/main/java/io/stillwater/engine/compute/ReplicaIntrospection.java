package io.stillwater.engine.compute;

import java.time.Instant;
import java.util.List;

/**
 * A replica's introspection, computed from its live state when read (the rows of the
 * {@code mz_introspection} relations). Any thread; each call returns an immutable copy.
 */
public interface ReplicaIntrospection {
    /** The cluster and replica names, and the replica's stable id. */
    String cluster();

    String replica();

    String replicaId();

    /** Whether the replica was provisioned with a maintenance and an interactive runtime. */
    boolean twoRuntimes();

    /** One row per arrangement (a trace shared by an index and its re-exports counts once). */
    List<ArrangementSize> arrangementSizes();

    /** One row per export: its write frontier. */
    List<Frontier> frontiers();

    /** Reads in flight. */
    List<ActivePeek> activePeeks();

    /** Finished reads, oldest first, at most the last 10,000. */
    List<PeekRecord> peekHistory();

    /** Counts of finished reads by kind and power-of-two duration bucket. */
    List<DurationBucket> peekDurations();

    /**
     * @param dataflowId the dataflow maintaining the arrangement
     * @param records    updates stored over all workers' spines
     * @param size       estimated bytes (a fixed per-update and per-batch cost: an estimate, not a measurement)
     */
    record ArrangementSize(long dataflowId, String name, long records, long batches, long size) {}

    /** @param time the export's upper (every update before it is final); {@code Long.MIN_VALUE} until hydrated */
    record Frontier(long exportId, long time) {}

    /**
     * @param state {@code queued}, {@code running}, {@code parked} or {@code offloaded}
     */
    record ActivePeek(long id, long indexId, long time, ComputeRuntime runtime, PeekKind kind, String state,
                      String statement) {}

    /**
     * @param durationMs from submission (including time queued or parked) to the end
     * @param outcome    {@code success}, {@code canceled}, or the error's message
     */
    record PeekRecord(long id, String statement, String cluster, String replica, ComputeRuntime runtime,
                      PeekKind kind, boolean offloaded, double durationMs, String outcome, Instant finishedAt) {}

    /** @param durationNs the bucket's upper bound (a power of two) */
    record DurationBucket(String kind, long durationNs, long count) {}
}
