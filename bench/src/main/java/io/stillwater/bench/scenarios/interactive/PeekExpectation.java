package io.stillwater.bench.scenarios.interactive;

import java.util.Objects;

/**
 * Where one query of an interactive-runtime scenario must run, to be checked after the load phase
 * against the target's {@code mz_introspection.mz_peek_history} (runtime that served the read, fast
 * path or dataflow, offloaded or not). A run whose reads ran elsewhere did not measure what the
 * scenario says it measures, so the harness must report it INVALID rather than compare it.
 *
 * <p>This is the scenarios' side of the self-verification contract, kept local until the harness's
 * API exists (see {@link InteractiveRuntimeScenario#expectations()}).
 *
 * @param action   the action's name ({@code Action.name()}), as in the statistics
 * @param sql      the statement text the target records for each execution of the action
 * @param cluster  the cluster whose replica must have served it
 * @param servedBy which runtime must have served it
 * @param path     fast path or peek dataflow
 * @param offload  whether a fast-path walk moved to the offload pool
 */
public record PeekExpectation(String action, String sql, String cluster, ServedBy servedBy, Path path,
        Offload offload) {

    public PeekExpectation {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(servedBy, "servedBy");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(offload, "offload");
    }

    /** The runtime a read must have run on, stated so that it holds on both sides of a comparison. */
    public enum ServedBy {
        /**
         * The runtime that serves reads on the replica as provisioned: {@code interactive} on a
         * two-runtime replica, {@code solo} on a solo one; never {@code maintenance}. Scenarios whose
         * cluster follows the side's {@code enable_compute_interactive_runtime} use this, so the same
         * expectation holds for this = defaults and other = the flag off.
         */
        READ_RUNTIME,
        /** {@code solo}: the scenario provisions its replica with the interactive runtime off, on every side. */
        SOLO
    }

    /** How the read was executed. */
    public enum Path {
        /** A lookup or walk over one arrangement, no dataflow. */
        FAST_PATH,
        /** A one-shot peek dataflow. */
        DATAFLOW,
        /** Either; the scenario's premise does not depend on it. */
        ANY
    }

    /** Whether a fast-path walk left its inline budget for the offload pool. */
    public enum Offload {
        OFFLOADED,
        /** Never offloaded (a lookup visits far fewer positions than the inline budget). */
        INLINE,
        /** Either; e.g. walks in scenarios whose other side turns offload off. */
        ANY
    }
}
