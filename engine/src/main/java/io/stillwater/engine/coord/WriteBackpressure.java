package io.stillwater.engine.coord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One replica's row of {@code mz_internal.mz_write_backpressure}.
 *
 * @param backlogMs         the backlog admission compares with the bound: the larger of {@code
 *                          oldestWriteMs} and the time to process the queued writes ({@code
 *                          queuedWrites} x {@code writeCostUs})
 * @param oldestWriteMs     age of the oldest write handed to the replica that a worker has not processed
 * @param queuedWrites      writes handed to it that not every worker has processed
 * @param writeCostUs       recent maintenance time per write (a moving average, slowest worker), µs
 * @param peakLagMs         the longest any write took from hand-over to processed on this replica, since it started
 * @param boundMs           {@code max_maintenance_lag} now (0: off)
 * @param waitingWrites     writers waiting for admission now (all replicas)
 * @param admittedAfterWait writes admitted after waiting, since start (all replicas)
 * @param waitedMs          total time writers waited for admission, since start (all replicas)
 */
public record WriteBackpressure(String cluster, String replica, String replicaId, long backlogMs,
                                long oldestWriteMs, long queuedWrites, long writeCostUs, long peakLagMs,
                                long boundMs, long waitingWrites, long admittedAfterWait,
                                long waitedMs) {

    /**
     * Write backpressure now, per running replica, by replica id: its maintenance backlog,
     * with {@code boundMs} and the writers waiting for {@code admission} (pipeline-wide).
     */
    static List<WriteBackpressure> now(Replicas replicas, WriteAdmission admission, long boundMs) {
        int waiting = admission.waiting();
        List<WriteBackpressure> out = new ArrayList<>();
        for (Replicas.Live r : replicas.all()) {
            var b = r.compute().backlog();
            out.add(new WriteBackpressure(r.spec().cluster(), r.spec().replica(), r.spec().replicaId(), b.lagMillis(),
                    b.oldestAgeNanos() / 1_000_000, b.queuedWrites(), b.perWriteNanos() / 1_000,
                    b.peakLagNanos() / 1_000_000, boundMs, waiting,
                    admission.admittedAfterWait(), admission.waitedMillis()));
        }
        out.sort(Comparator.comparing(WriteBackpressure::replicaId));
        return out;
    }
}
