package io.stillwater.bench.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a scenario's measured query must run, checked after the load phase against the target's
 * peek history ({@link PeekVerifier}). Each aspect is either pinned or {@code ANY}; an expectation
 * with every aspect {@code ANY} still requires that the query's peeks appear in the history (a
 * scenario that cannot see its own queries cannot claim anything about them).
 *
 * <pre>{@code
 * expect(lookup, PeekExpectation.on(Runtime.INTERACTIVE).fastPath().notOffloaded());
 * }</pre>
 */
public record PeekExpectation(Runtime runtime, Path path, Offload offload) {

    /** The runtime of a replica a peek ran on, as the peek history names it. */
    public enum Runtime {
        ANY, SOLO, MAINTENANCE, INTERACTIVE,
        /**
         * The runtime that serves reads on the replica as the target provisions it: {@code interactive}
         * on a two-runtime replica, {@code solo} on a solo one; never {@code maintenance}. Resolved
         * per target when verifying, from {@code SHOW enable_compute_interactive_runtime} (the flag a
         * replica is provisioned with), so one declaration holds on both sides of the main job
         * (this = defaults, other = the flag off) and still fails on the side where the flag did not
         * reach the replica: there the peeks ran on the other runtime than the flag says.
         */
        READ
    }

    /** Fast path (a read of an existing arrangement) or a temporary peek dataflow. */
    public enum Path {
        ANY, FAST_PATH, DATAFLOW
    }

    /** Whether the peek's index walk was moved off the worker (peek offload). */
    public enum Offload {
        ANY, OFFLOADED, NOT_OFFLOADED
    }

    /** Nothing pinned: the peeks must only be visible. */
    public static final PeekExpectation ANYWHERE = new PeekExpectation(Runtime.ANY, Path.ANY, Offload.ANY);

    public PeekExpectation {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(offload, "offload");
    }

    /** On the replica's read runtime, whatever it is on this target ({@link Runtime#READ}). */
    public static PeekExpectation onReadRuntime() {
        return on(Runtime.READ);
    }

    public static PeekExpectation on(Runtime runtime) {
        return new PeekExpectation(runtime, Path.ANY, Offload.ANY);
    }

    public PeekExpectation fastPath() {
        return new PeekExpectation(runtime, Path.FAST_PATH, offload);
    }

    public PeekExpectation dataflow() {
        return new PeekExpectation(runtime, Path.DATAFLOW, offload);
    }

    public PeekExpectation offloaded() {
        return new PeekExpectation(runtime, path, Offload.OFFLOADED);
    }

    public PeekExpectation notOffloaded() {
        return new PeekExpectation(runtime, path, Offload.NOT_OFFLOADED);
    }

    /**
     * This expectation with {@link Runtime#READ} replaced by the target's read runtime ({@code SOLO}
     * or {@code INTERACTIVE}); unchanged when it pins another runtime.
     */
    public PeekExpectation resolve(Runtime readRuntime) {
        if (readRuntime != Runtime.SOLO && readRuntime != Runtime.INTERACTIVE) {
            throw new IllegalArgumentException("a replica's read runtime is solo or interactive, not " + readRuntime);
        }
        return runtime == Runtime.READ ? new PeekExpectation(readRuntime, path, offload) : this;
    }

    /** Why {@code peek} breaks this expectation, or "" when it meets it; {@link Runtime#READ} must be resolved. */
    String violation(PeekRecord peek) {
        if (runtime == Runtime.READ) {
            throw new IllegalStateException("resolve the read runtime before checking peeks against it");
        }
        List<String> out = new ArrayList<>();
        if (runtime != Runtime.ANY && !runtime.name().equalsIgnoreCase(String.valueOf(peek.runtime()))) {
            out.add("runtime " + peek.runtime());
        }
        if (path != Path.ANY && (peek.fastPath() == null || peek.fastPath() != (path == Path.FAST_PATH))) {
            out.add(peek.fastPath() == null ? "path unknown" : peek.fastPath() ? "fast path" : "dataflow");
        }
        if (offload != Offload.ANY && (peek.offloaded() == null || peek.offloaded() != (offload == Offload.OFFLOADED))) {
            out.add(peek.offloaded() == null ? "offload unknown" : peek.offloaded() ? "offloaded" : "not offloaded");
        }
        return String.join(", ", out);
    }

    /** Which peek history columns checking this needs, beyond the statement text. */
    List<String> neededColumns() {
        List<String> out = new ArrayList<>();
        if (runtime != Runtime.ANY) {
            out.add(PeekVerifier.RUNTIME);
        }
        if (path != Path.ANY) {
            out.add(PeekVerifier.FAST_PATH);
        }
        if (offload != Offload.ANY) {
            out.add(PeekVerifier.OFFLOADED);
        }
        return out;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (runtime != Runtime.ANY) {
            parts.add(runtime == Runtime.READ ? "the read runtime"
                    : "runtime " + runtime.name().toLowerCase(Locale.ROOT));
        }
        if (path != Path.ANY) {
            parts.add(path == Path.FAST_PATH ? "fast path" : "dataflow");
        }
        if (offload != Offload.ANY) {
            parts.add(offload == Offload.OFFLOADED ? "offloaded" : "not offloaded");
        }
        return parts.isEmpty() ? "visible in the peek history" : String.join(", ", parts);
    }
}
