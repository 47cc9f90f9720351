package io.stillwater.engine.compute;

import io.stillwater.engine.params.ParameterSnapshot;

/**
 * What a replica is provisioned with. The system parameters are read once, when the
 * replica is created: changing {@code enable_compute_interactive_runtime} later affects
 * only replicas created afterwards (dropping and recreating a cluster re-provisions).
 *
 * @param cluster            the cluster's name
 * @param replica            the replica's name within its cluster ({@code r1}, ...)
 * @param replicaId          a stable id for introspection ({@code u1}, {@code u2}, ...)
 * @param workers            maintenance worker threads ({@code SIZE 'scale=1,workers=W'})
 * @param interactiveRuntime true: a maintenance and an interactive runtime; false: one solo runtime
 * @param params             every system parameter as of provisioning (peek budgets, offload, ...)
 */
public record ReplicaSpec(String cluster, String replica, String replicaId, int workers, boolean interactiveRuntime,
                          ParameterSnapshot params) {
    public ReplicaSpec {
        if (workers < 1) throw new IllegalArgumentException("a replica needs at least one worker, got " + workers);
    }
}
