package io.stillwater.bench.feature.scenario;

/**
 * The {@code --scale} option: absent, absolute ({@code 4}: every scenario at 10^4 rows) or relative
 * ({@code -1}, {@code +0.5}: added to each scenario's own SCALE). Scenarios with FIXED_SCALE ignore it.
 *
 * @param value the number written
 * @param relative whether it was written with a sign
 */
public record ScaleOption(double value, boolean relative) {
    /** No {@code --scale}: every scenario at its SCALE. */
    public static final ScaleOption NONE = new ScaleOption(0, true);

    /**
     * Parses {@code --scale}: a number with a sign is relative, without one absolute (and then must be
     * positive).
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static ScaleOption parse(String text) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The scale a scenario with this SCALE and FIXED_SCALE runs at. */
    public double effective(double scenarioScale, boolean fixed) {
        if (fixed) {
            return scenarioScale;
        }
        return relative ? scenarioScale + value : value;
    }
}
