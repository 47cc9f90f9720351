package io.stillwater.bench.runner;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.runner.TargetLauncher.LaunchedTarget;
import io.stillwater.bench.scenario.Capability;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The frame every side run of either bench runs in: launch the side through its {@link
 * TargetLauncher}, tell a skip (a launcher that throws {@link TargetSkipException}) from a failure,
 * check the capabilities the scenario requires, and close the target afterwards without losing the
 * run's results to a target that will not stop. What happens in between, the measurement, is the
 * bench's own ({@link Runner} for the parallel bench, {@code feature.run.FeatureRunner}). Stateless;
 * the calling thread owns the launched target.
 */
public final class SideLaunch {
    private SideLaunch() {
    }

    /** How launching a side ended. */
    public sealed interface Launch permits Up, Skipped, Failed {
    }

    /** The side is up; the caller owns {@code target} and must {@link #close} it. */
    public record Up(LaunchedTarget target) implements Launch {
    }

    /** The launcher cannot provide this side here (e.g. no PostgreSQL installed): not a failure. */
    public record Skipped(String reason) implements Launch {
    }

    /** Launching failed; {@code error} reads "starting the target: SQLSTATE: message" or the exception. */
    public record Failed(String error) implements Launch {
    }

    /** Launches one side; never throws: whatever the launcher throws becomes {@link Skipped} or {@link Failed}. */
    public static Launch launch(TargetLauncher launcher) {
        try {
            return new Up(launcher.launch());
        } catch (TargetSkipException e) {
            return new Skipped(e.getMessage());
        } catch (Throwable t) {
            // an Error too: one side run that cannot start never ends the bench
            return new Failed("starting the target: " + SqlErrors.describe(t));
        }
    }

    /**
     * Closes a launched side. A target that will not stop is worth saying, not worth losing the
     * run's samples for: the failure comes back as text for the run's messages.
     */
    public static Optional<String> close(LaunchedTarget target) {
        try {
            target.close();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(SqlErrors.describe(e));
        }
    }

    /** The capabilities in {@code required} that {@code available} lacks; empty when the scenario can run. */
    public static Set<Capability> missing(Set<Capability> required, Set<Capability> available) {
        Set<Capability> missing = EnumSet.noneOf(Capability.class);
        missing.addAll(required);
        missing.removeAll(available);
        return missing;
    }
}
