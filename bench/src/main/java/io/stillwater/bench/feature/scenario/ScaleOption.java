package io.stillwater.bench.feature.scenario;

import java.util.regex.Pattern;

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
        String t = text == null ? "" : text.strip();
        if (!NUMBER.matcher(t).matches()) {
            throw new IllegalArgumentException("--scale '" + (text == null ? "" : text) + "' is not a scale: write a"
                    + " number, either absolute (4: every scenario at 10^4 rows) or signed to be relative to each"
                    + " scenario's own SCALE (+1: ten times the rows, -0.5)");
        }
        boolean relative = t.charAt(0) == '+' || t.charAt(0) == '-';
        double value = Double.parseDouble(t);
        if (!relative && !(value > 0)) {
            throw new IllegalArgumentException("--scale " + t + ": an absolute scale must be positive (rows ="
                    + " 10^scale); write it with a sign (+0, -1) to change each scenario's own SCALE instead");
        }
        return new ScaleOption(value, relative);
    }

    /** Plain decimals only: no exponent, NaN, Infinity or hex, which Double.parseDouble would accept. */
    private static final Pattern NUMBER =
            Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");

    /** The scale a scenario with this SCALE and FIXED_SCALE runs at. */
    public double effective(double scenarioScale, boolean fixed) {
        if (fixed) {
            return scenarioScale;
        }
        return relative ? scenarioScale + value : value;
    }
}
