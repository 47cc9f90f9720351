package io.stillwater.engine.compute;

/**
 * What kind of read a replica serves: decides where it runs (DESIGN.md "Clusters, replicas
 * and the two runtimes") and how introspection names it.
 */
public enum PeekKind {
    /** Fast path: rows under given keys of one index. */
    LOOKUP("lookup", true),
    /** Fast path: a walk of one index with a fused filter (resumable, offloadable). */
    WALK("walk", true),
    /** A one-shot dataflow over snapshots at the read time. */
    DATAFLOW("dataflow", false),
    /** A read of the replica's own {@code mz_introspection} relations. */
    INTROSPECTION("introspection", false);

    private final String label;
    private final boolean fastPath;

    PeekKind(String label, boolean fastPath) {
        this.label = label;
        this.fastPath = fastPath;
    }

    /** The name introspection and EXPLAIN use. */
    public String label() { return label; }

    public boolean fastPath() { return fastPath; }
}
