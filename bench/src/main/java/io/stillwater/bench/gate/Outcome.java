package io.stillwater.bench.gate;

/** The verdict on one stat of one action, this versus other. */
public enum Outcome {
    /** Gated and within its threshold. */
    OK,
    /** Gated and worse than other beyond its threshold. */
    REGRESSION,
    /** Reported only. */
    UNGATED,
    /** The action or a value is missing on one side (e.g. no successful query): cannot compare. */
    NO_DATA
}
