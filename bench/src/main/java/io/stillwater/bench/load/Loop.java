package io.stillwater.bench.load;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.arrival.Arrival;

/**
 * How a load phase drives one action. {@code reportRegressions(false)} marks contention-only
 * loads: their statistics are recorded and reported, guarantees still apply, but no threshold
 * gates them.
 */
public sealed interface Loop permits Loop.OpenLoop, Loop.ClosedLoop {

    Action action();

    boolean reportRegressions();

    Loop reportRegressions(boolean report);

    /**
     * Events issued on the arrival's schedule regardless of completions; latency runs from each
     * event's scheduled start, so queueing (in the harness, the pool or the target) counts.
     */
    record OpenLoop(Action action, Arrival arrival, boolean reportRegressions) implements Loop {
        @Override
        public OpenLoop reportRegressions(boolean report) {
            return new OpenLoop(action, arrival, report);
        }
    }

    /** {@code loops} workers, each issuing the next query when its previous one finished. */
    record ClosedLoop(Action action, int loops, boolean reportRegressions) implements Loop {
        public ClosedLoop {
            if (loops < 1) {
                throw new IllegalArgumentException("a closed loop needs at least 1 loop, got " + loops);
            }
        }

        @Override
        public ClosedLoop reportRegressions(boolean report) {
            return new ClosedLoop(action, loops, report);
        }
    }
}
