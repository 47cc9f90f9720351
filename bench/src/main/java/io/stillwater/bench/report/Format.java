package io.stillwater.bench.report;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.stats.Stat;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Optional;

/** How values appear in the human-readable reports (terminal, HTML); one place, so they agree. */
public final class Format {
    private Format() {
    }

    static String unit(Stat s) {
        return switch (s) {
            case QUERIES, ERRORS, ERROR_RATE -> "";
            case QPS -> "/s";
            case SLOPE -> "ms/s";
            default -> "ms";
        };
    }

    static String value(Stat s, double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return switch (s) {
            case QUERIES, ERRORS -> String.format(Locale.ROOT, "%d", Math.round(v));
            case ERROR_RATE -> String.format(Locale.ROOT, "%.2f%%", v * 100);
            case QPS -> String.format(Locale.ROOT, "%.1f", v);
            case SLOPE -> String.format(Locale.ROOT, "%.3f", v);
            default -> millis(v);
        };
    }

    /** Three significant digits or so, never scientific notation. */
    public static String millis(double v) {
        double a = Math.abs(v);
        String f = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, f, v);
    }

    /** Axis labels: at most three significant digits, no trailing zeros ("0.5", "2", "150"). */
    public static String compact(double v) {
        if (v == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(3));
        return d.stripTrailingZeros().toPlainString();
    }

    static String change(StatVerdict v) {
        double c = v.change();
        return Double.isNaN(c) ? "-" : String.format(Locale.ROOT, "%+.1f%%", c * 100);
    }

    static String ratio(StatVerdict v) {
        double c = v.change();
        return Double.isNaN(c) ? "-" : String.format(Locale.ROOT, "x%.2f", c + 1);
    }

    /** "20%" for a ratio (how much worse is tolerated), "+0.01" absolute, "ungated". */
    static String threshold(Threshold t) {
        return switch (t) {
            case Threshold.Ratio r -> String.format(Locale.ROOT, "%.0f%%", (r.factor() - 1) * 100);
            case Threshold.AbsoluteIncrease a -> "+" + trim(a.delta());
            case Threshold.Ungated u -> "ungated";
        };
    }

    /** The calibrated spread in the threshold's own terms; "" when not calibrated. */
    static String spread(Optional<Calibration> c, Threshold t) {
        if (c.isEmpty()) {
            return "";
        }
        Calibration cal = c.get();
        if (t instanceof Threshold.AbsoluteIncrease) {
            return Double.isNaN(cal.absoluteSpread()) ? "?" : "+-" + trim(cal.absoluteSpread());
        }
        return Double.isNaN(cal.relativeSpread()) ? "?"
                : String.format(Locale.ROOT, "+-%.1f%%", cal.relativeSpread() * 100);
    }

    static String outcome(Outcome o) {
        return switch (o) {
            case OK -> "ok";
            case REGRESSION -> "REGRESSION";
            case UNGATED -> "-";
            case NO_DATA -> "no data";
        };
    }

    private static String trim(double d) {
        String s = String.format(Locale.ROOT, "%.4f", d);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
