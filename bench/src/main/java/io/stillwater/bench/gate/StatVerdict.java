package io.stillwater.bench.gate;

import io.stillwater.bench.stats.Stat;

/**
 * One row of the comparison: {@code thisValue} and {@code otherValue} are the medians over the
 * runs of each side. {@link #change()} is this / other - 1 (NaN when other is 0 or missing).
 */
public record StatVerdict(String action, Stat stat, double thisValue, double otherValue, Threshold threshold,
        Outcome outcome) {

    public double change() {
        return otherValue == 0 || Double.isNaN(otherValue) ? Double.NaN : thisValue / otherValue - 1;
    }
}
