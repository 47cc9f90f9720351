package io.stillwater.engine.catalog;

/**
 * A cluster replica as the catalog records it.
 *
 * @param id                 Materialize-style replica id ({@code u1}, {@code u2}, ...), never reused
 * @param name               unique within its cluster ({@code r1}, ...)
 * @param size               its size (worker count)
 * @param interactiveRuntime whether it was provisioned with a maintenance and an
 *                           interactive runtime ({@code enable_compute_interactive_runtime}
 *                           when it was created); kept across restarts, so only dropping
 *                           and recreating the replica changes it
 */
public record ReplicaDef(String id, String name, ClusterSize size, boolean interactiveRuntime) {}
