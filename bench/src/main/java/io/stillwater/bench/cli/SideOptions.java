package io.stillwater.bench.cli;

import picocli.CommandLine.Option;

/**
 * The options that choose the two sides, shared by {@code stillwater bench} and {@code stillwater
 * feature-bench} (a picocli mixin) so both take the same targets and parameters with the same help.
 * Plain values as typed; each command parses and checks them (their defaults for other differ by mode).
 */
public final class SideOptions {
    /** The other side's target when --other is not given. */
    public static final String DEFAULT_OTHER_TARGET = "embedded";

    @Option(names = "--this", paramLabel = "TARGET", defaultValue = "embedded",
            description = "The side under test: embedded, jar:PATH or url:postgresql://USER@HOST[:PORT]/DB "
                    + "(default: ${DEFAULT-VALUE}).")
    String thisTarget;

    @Option(names = "--other", paramLabel = "TARGET",
            description = "The side to compare with (default: " + DEFAULT_OTHER_TARGET + ").")
    String otherTarget;

    @Option(names = "--this-params", paramLabel = "NAME=VALUE;...", defaultValue = "",
            description = "System parameter defaults for this side, applied before any replica exists (url targets: "
                    + "ALTER SYSTEM as mz_system, else the scenario is skipped). An unknown parameter fails the "
                    + "scenario; it is never ignored.")
    String thisParams;

    @Option(names = "--other-params", paramLabel = "NAME=VALUE;...",
            description = "System parameter defaults for the other side, as --this-params (default, when --other is "
                    + "not given either: " + BenchCommand.MAIN_JOB_OTHER_PARAMS + "; pass '' for the engine's "
                    + "defaults).")
    String otherParams;

    /** --this as typed (default embedded). */
    public String thisTarget() {
        return thisTarget;
    }

    /** --this-params as typed (default empty). */
    public String thisParams() {
        return thisParams;
    }

    /** --other-params as typed, or null when not given. */
    public String otherParamsOrNull() {
        return otherParams;
    }

    /** --other, or {@value #DEFAULT_OTHER_TARGET} when not given. */
    public String otherTarget() {
        return otherTarget == null ? DEFAULT_OTHER_TARGET : otherTarget;
    }

    /**
     * Neither --other nor --other-params was given: the main job's other side applies (the embedded
     * engine with {@link BenchCommand#MAIN_JOB_OTHER_PARAMS}). Comparing two builds must never silently
     * change one's flags, so giving either option turns the default off.
     */
    public boolean otherUnset() {
        return otherTarget == null && otherParams == null;
    }
}
