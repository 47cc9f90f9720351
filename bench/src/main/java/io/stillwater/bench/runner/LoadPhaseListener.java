package io.stillwater.bench.runner;

import java.time.Duration;

/**
 * Told when a load phase starts and when it ends, on the runner's thread: the hook that draws the
 * progress bar during load. What {@link #started} returns is closed when the phase ends, also when
 * it failed.
 */
@FunctionalInterface
public interface LoadPhaseListener {
    /** Listens to nothing. */
    LoadPhaseListener NONE = (scenario, phase, duration) -> () -> { };

    /**
     * @param phase the load phase's number among the scenario's load phases, from 1
     * @param duration how long its arrivals run (the override, if any)
     */
    Running started(String scenario, int phase, Duration duration);

    /** A started load phase; {@link #close()} when it ended. */
    interface Running extends AutoCloseable {
        @Override
        void close();
    }
}
