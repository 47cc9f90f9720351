package io.stillwater.engine.dataflow;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * PostgreSQL's numeric division and square root result scales, so aggregates print
 * exactly what PostgreSQL 15 prints ({@code avg(int)} of 1..4 is {@code 2.5000000000000000}).
 *
 * <p>PostgreSQL stores numerics in base-10000 digits; {@code select_div_scale} picks a
 * result scale giving at least 16 significant digits, never less than either input's
 * display scale: {@code rscale = max(16 - 4 * qweight, dscale1, dscale2, 0)} where
 * {@code qweight} estimates the quotient's base-10000 weight. Results are rounded half
 * away from zero, as PostgreSQL's {@code round_var} does.
 */
final class PgNumeric {
    private static final int MIN_SIG_DIGITS = 16;
    private static final int MAX_DISPLAY_SCALE = 1000;

    private PgNumeric() {}

    /** {@code a / b} with PostgreSQL's result scale; {@code b} must be non-zero. */
    static BigDecimal divide(BigDecimal a, BigDecimal b) {
        return a.divide(b, divScale(a, b), RoundingMode.HALF_UP);
    }

    static int divScale(BigDecimal a, BigDecimal b) {
        int w1 = weight(a), w2 = weight(b);
        int qweight = w1 - w2;
        if (firstDigit(a, w1) <= firstDigit(b, w2)) qweight--;
        int rscale = MIN_SIG_DIGITS - qweight * 4;
        rscale = Math.max(rscale, Math.max(a.scale(), 0));
        rscale = Math.max(rscale, Math.max(b.scale(), 0));
        return Math.min(Math.max(rscale, 0), MAX_DISPLAY_SCALE);
    }

    /** Square root of a non-negative value, rounded to {@code scale} digits. */
    static BigDecimal sqrt(BigDecimal x, int scale) {
        if (x.signum() == 0) return BigDecimal.ZERO.setScale(scale);
        int digits = Math.max(x.precision() - x.scale(), 1) / 2 + scale + 10;
        return x.sqrt(new MathContext(digits, RoundingMode.DOWN)).setScale(scale, RoundingMode.HALF_UP);
    }

    /** Base-10000 weight of the leading digit (0 for zero, as PostgreSQL's loop leaves it). */
    private static int weight(BigDecimal x) {
        if (x.signum() == 0) return 0;
        int e10 = x.precision() - x.scale() - 1;
        return Math.floorDiv(e10, 4);
    }

    private static int firstDigit(BigDecimal x, int weight) {
        if (x.signum() == 0) return 0;
        return x.abs().movePointLeft(4 * weight).intValue();
    }
}
