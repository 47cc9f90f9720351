package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.measure.StopReason;

/**
 * What a feature run reports while it works (the CLI draws progress from it). Called on the
 * thread running the scenario; implementations must be quick.
 */
public interface FeatureProgress {
    FeatureProgress NONE = new FeatureProgress() {
    };

    /** A side run starts: {@code scenario} on {@code side}, run {@code run}, at most {@code max} measurements. */
    default void sideStarted(String scenario, String side, int run, int max) {
    }

    /** Setup (launch, shared, init) is done and measuring starts. */
    default void measuring(String scenario, String side, int run) {
    }

    /** One measurement is done ({@code done} of at most {@code max}); {@code wallclockMs} its timed span. */
    default void measured(String scenario, String side, int run, int done, int max, double wallclockMs) {
    }

    /** A side run ended. */
    default void sideFinished(String scenario, SideOutcome outcome, StopReason stopOrNull) {
    }

    /** A scenario's verdict is final. */
    default void scenarioFinished(FeatureScenarioResult result) {
    }
}
