package io.stillwater.bench.runner;

/** A target cannot run this scenario as requested; the scenario is SKIPPED with {@link #getMessage()}. */
public final class TargetSkipException extends Exception {
    public TargetSkipException(String reason) {
        super(reason);
    }
}
