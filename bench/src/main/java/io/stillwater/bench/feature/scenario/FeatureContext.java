package io.stillwater.bench.feature.scenario;

import java.sql.Connection;
import java.sql.SQLException;

/** What a {@link Body.Timed} action may do to the target it is measured on. */
public interface FeatureContext {

    /** A new autocommit connection as the target's ordinary user; the caller closes it. */
    Connection connect() throws SQLException;

    /**
     * Stops the target gracefully and starts it again on the same data; returns once the
     * restarted target accepts connections (not once its indexes are hydrated: the action reads
     * what it needs to wait for). Only on targets the runner launched (embedded, jar:); a scenario
     * whose body restarts requires {@link io.stillwater.bench.scenario.Capability}-free
     * {@link FeatureScenario#restarts()} and is skipped on url targets.
     */
    void restart() throws Exception;

    /** Rows at the effective scale: {@code 10^scale}. */
    long n();
}
