package io.stillwater.bench.history;

import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.stats.Stat;

/**
 * The run-to-run spread of one stat of one action, measured by an A/A run (the same side run
 * {@code runs} times in total). Both forms are kept because thresholds come in both forms:
 * {@code relativeSpread} = max / min - 1 over the runs' values (NaN when min &lt;= 0), compared
 * with a ratio threshold's factor - 1; {@code absoluteSpread} = max - min, compared with an
 * absolute threshold's delta. {@code scenarioVersion} is the version measured: a calibration of
 * another version describes another workload. The range of single runs overstates the noise of a median of
 * several runs, so a flag raised from it errs on the side of warning.
 */
public record Calibration(String scenario, String scenarioVersion, String action, Stat stat, double relativeSpread,
        double absoluteSpread, int runs) {

    /**
     * True when the threshold would fire on noise alone: its margin is less than twice the
     * measured spread. Ungated stats and unmeasured spreads are never flagged.
     */
    public boolean tighterThanNoise(Threshold threshold) {
        return switch (threshold) {
            case Threshold.Ratio r -> !Double.isNaN(relativeSpread) && r.factor() - 1 < 2 * relativeSpread;
            case Threshold.AbsoluteIncrease a -> !Double.isNaN(absoluteSpread) && a.delta() < 2 * absoluteSpread;
            case Threshold.Ungated u -> false;
        };
    }
}
