package io.stillwater.bench.gate;

import java.util.ArrayList;
import java.util.List;

/** The two builds or configurations a comparison runs. */
public enum Side {
    THIS,
    OTHER;

    /**
     * The order of {@code runsPerSide} repetitions of each side: this, other, this, other, ...
     * Interleaving spreads slow drift of the machine over both sides instead of one.
     */
    public static List<Side> interleaved(int runsPerSide) {
        if (runsPerSide < 1) {
            throw new IllegalArgumentException("need at least one run per side, got " + runsPerSide);
        }
        List<Side> out = new ArrayList<>();
        for (int i = 0; i < runsPerSide; i++) {
            out.add(THIS);
            out.add(OTHER);
        }
        return List.copyOf(out);
    }
}
