package io.stillwater.bench.load;

/**
 * What the harness itself did in one loop of one phase. {@code issued} is the number of queries
 * started. For an open loop, lateness is how long after its scheduled time the harness handed an
 * event to a worker: the harness's own delay, recorded separately from (and included in) the
 * action's latency. Closed loops have no schedule, so their lateness is 0.
 */
public record LoopReport(String action, Kind kind, long issued, double maxLatenessMillis,
        double p99LatenessMillis) {

    public enum Kind {
        OPEN,
        CLOSED
    }
}
