package io.stillwater.bench.load;

import java.util.List;

/** One load phase: its wall time (start until its last query finished) and its loops. */
public record LoadPhaseReport(double wallSeconds, List<LoopReport> loops) {
    public LoadPhaseReport {
        loops = List.copyOf(loops);
    }
}
