package io.stillwater.bench.gate;

/**
 * How one statistic is gated against the other side. {@link Ungated} is an explicit value,
 * distinct from "no override" (which means: use the default), so an override can switch a
 * default gate off.
 */
public sealed interface Threshold permits Threshold.Ratio, Threshold.AbsoluteIncrease, Threshold.Ungated {

    /** Shared instance of {@link Ungated}. */
    Threshold UNGATED = new Ungated();

    static Threshold ratio(double factor) {
        return new Ratio(factor);
    }

    static Threshold absoluteIncrease(double delta) {
        return new AbsoluteIncrease(delta);
    }

    /**
     * Regression when this is worse than other by more than {@code factor}: for a
     * higher-is-worse stat {@code this > other * factor}, for a lower-is-worse stat
     * {@code this < other / factor}.
     */
    record Ratio(double factor) implements Threshold {
        public Ratio {
            if (!(factor > 1) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("a ratio threshold must be a finite factor > 1, got " + factor
                        + " (use Threshold.UNGATED to switch a gate off)");
            }
        }

        @Override
        public String toString() {
            return String.format("%.0f%%", (factor - 1) * 100);
        }
    }

    /**
     * Regression when this exceeds other by more than {@code delta} in absolute terms; for stats
     * such as the error rate, whose other side is often exactly 0.
     */
    record AbsoluteIncrease(double delta) implements Threshold {
        public AbsoluteIncrease {
            if (!(delta >= 0) || Double.isInfinite(delta)) {
                throw new IllegalArgumentException("an absolute threshold must be finite and >= 0, got " + delta);
            }
        }

        @Override
        public String toString() {
            return "+" + delta;
        }
    }

    /** Reported, never gated. */
    record Ungated() implements Threshold {
        @Override
        public String toString() {
            return "ungated";
        }
    }
}
