package io.stillwater.engine.compute;

/** Which runtime of a replica served a read (the labels {@code mz_peek_history} records). */
public enum ComputeRuntime {
    /** The one runtime of a solo replica: maintenance and reads share its worker loop. */
    SOLO("solo"),
    /** A two-runtime replica's maintenance runtime (peek dataflows when interactive dataflows are off). */
    MAINTENANCE("maintenance"),
    /** A two-runtime replica's interactive runtime: reads over published snapshots, concurrently. */
    INTERACTIVE("interactive");

    private final String label;

    ComputeRuntime(String label) { this.label = label; }

    public String label() { return label; }

    /**
     * Where a replica serves a read of {@code kind} (the placement table of DESIGN.md).
     *
     * @param twoRuntimes          whether the replica was provisioned with an interactive runtime
     * @param interactiveDataflows {@code enable_compute_interactive_dataflows} at the read
     */
    public static ComputeRuntime place(PeekKind kind, boolean twoRuntimes, boolean interactiveDataflows) {
        if (!twoRuntimes) return SOLO;
        if (kind == PeekKind.DATAFLOW && !interactiveDataflows) return MAINTENANCE;
        return INTERACTIVE;
    }
}
