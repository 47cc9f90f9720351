package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * PostgreSQL numeric arithmetic on {@link BigDecimal}, including the result scales
 * PostgreSQL chooses (at least 16 significant digits for division, sqrt, ln, exp, power;
 * {@code NUMERIC_MIN_SIG_DIGITS}) computed from its base-10000 digit weights.
 */
final class NumericMath {
    private NumericMath() {}

    static final int MIN_SIG_DIGITS = 16;
    static final int MAX_DISPLAY_SCALE = 1000;
    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    static SqlException divisionByZero() {
        return new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }

    /** Decimal exponent of the leading digit: 123.4 -> 2, 0.05 -> -2. x != 0. */
    static int exponent10(BigDecimal x) {
        return x.precision() - x.scale() - 1;
    }

    /** PostgreSQL's NumericVar weight: the base-10000 position of the leading digit. */
    static int weight(BigDecimal x) {
        return Math.floorDiv(exponent10(x), 4);
    }

    /** The leading base-10000 digit of |x| (1..9999). */
    static int firstDigit(BigDecimal x) {
        return x.abs().movePointLeft(4 * weight(x)).setScale(0, RoundingMode.DOWN).intValue();
    }

    static int dscale(BigDecimal x) { return Math.max(x.scale(), 0); }

    private static int clampScale(int rscale) {
        return Math.min(Math.max(rscale, 0), MAX_DISPLAY_SCALE);
    }

    /** PostgreSQL numeric division: select_div_scale, then round half away from zero. */
    static BigDecimal divide(BigDecimal a, BigDecimal b) {
        if (b.signum() == 0) throw divisionByZero();
        int w1 = 0, f1 = 0;
        if (a.signum() != 0) { w1 = weight(a); f1 = firstDigit(a); }
        int w2 = weight(b), f2 = firstDigit(b);
        int qweight = w1 - w2;
        if (f1 <= f2) qweight--;
        int rscale = MIN_SIG_DIGITS - qweight * 4;
        rscale = Math.max(rscale, dscale(a));
        rscale = Math.max(rscale, dscale(b));
        return a.divide(b, clampScale(rscale), RoundingMode.HALF_UP);
    }

    static BigDecimal mod(BigDecimal a, BigDecimal b) {
        if (b.signum() == 0) throw divisionByZero();
        return a.remainder(b);
    }

    static BigDecimal sqrt(BigDecimal x) {
        if (x.signum() < 0) {
            throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION, "cannot take square root of a negative number");
        }
        int sweight = x.signum() == 0 ? -1 : (weight(x) + 1) * 4 / 2 - 1;
        int rscale = clampScale(Math.max(MIN_SIG_DIGITS - sweight, dscale(x)));
        if (x.signum() == 0) return BigDecimal.ZERO.setScale(rscale);
        int digits = rscale + Math.max(exponent10(x) / 2 + 2, 1) + 5;
        return x.sqrt(new MathContext(digits, RoundingMode.HALF_EVEN)).setScale(rscale, RoundingMode.HALF_UP);
    }

    private static SqlException logError(BigDecimal x) {
        return new SqlException(SqlState.INVALID_ARGUMENT_FOR_LOGARITHM,
                x.signum() == 0 ? "cannot take logarithm of zero" : "cannot take logarithm of a negative number");
    }

    /** (int) log10(|ln x|), PostgreSQL's estimate_ln_dweight truncated toward zero. */
    private static int lnDweight(BigDecimal x) {
        if (x.compareTo(BigDecimal.ONE) == 0) return 0;
        double l;
        double d = x.doubleValue();
        if (Double.isFinite(d) && d > 0) l = Math.log(d);
        else l = (exponent10(x) + Math.log10(x.movePointLeft(exponent10(x)).doubleValue())) * Math.log(10);
        if (l == 0) {
            // x is within double rounding of 1: ln x ~ x - 1.
            l = x.subtract(BigDecimal.ONE).doubleValue();
        }
        return (int) Math.log10(Math.abs(l));
    }

    static BigDecimal ln(BigDecimal x) {
        if (x.signum() <= 0) throw logError(x);
        int rscale = clampScale(Math.max(MIN_SIG_DIGITS - lnDweight(x), dscale(x)));
        return lnRaw(x, rscale + 10).setScale(rscale, RoundingMode.HALF_UP);
    }

    static BigDecimal log10(BigDecimal x) {
        if (x.signum() <= 0) throw logError(x);
        int rscale = clampScale(Math.max(MIN_SIG_DIGITS - lnDweight(x), dscale(x)));
        int work = rscale + 10;
        return lnRaw(x, work).divide(lnRaw(BigDecimal.TEN, work), work, RoundingMode.HALF_EVEN)
                .setScale(rscale, RoundingMode.HALF_UP);
    }

    /** log(base, x). */
    static BigDecimal log(BigDecimal base, BigDecimal x) {
        if (base.signum() <= 0) throw logError(base);
        if (x.signum() <= 0) throw logError(x);
        if (base.compareTo(BigDecimal.ONE) == 0) throw divisionByZero();
        int rscale = MIN_SIG_DIGITS - (lnDweight(x) - lnDweight(base));
        rscale = clampScale(Math.max(Math.max(rscale, dscale(base)), dscale(x)));
        int work = rscale + 10;
        return lnRaw(x, work).divide(lnRaw(base, work), work, RoundingMode.HALF_EVEN).setScale(rscale, RoundingMode.HALF_UP);
    }

    static BigDecimal exp(BigDecimal x) {
        double approx = x.doubleValue() * Math.log10(Math.E);
        if (approx > 131_000) throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        int dweight = (int) approx;
        int rscale = clampScale(Math.max(MIN_SIG_DIGITS - dweight, dscale(x)));
        if (approx < -rscale - 2) return BigDecimal.ZERO.setScale(rscale);
        return expRaw(x, rscale + Math.max(dweight, 0) + 10).setScale(rscale, RoundingMode.HALF_UP);
    }

    static BigDecimal power(BigDecimal base, BigDecimal exp) {
        if (base.signum() == 0) {
            if (exp.signum() < 0) {
                throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION, "zero raised to a negative power is undefined");
            }
            if (exp.signum() == 0) return BigDecimal.ONE.setScale(MIN_SIG_DIGITS);
        }
        boolean integral = exp.signum() == 0 || exp.stripTrailingZeros().scale() <= 0;
        if (integral && exp.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            int n = exp.intValueExact();
            int rscale = clampScale(Math.max(Math.max(MIN_SIG_DIGITS, dscale(base)), dscale(exp)));
            if (base.signum() == 0) return BigDecimal.ZERO.setScale(rscale);
            double magnitude = Math.abs((double) n) * (exponent10(base) + 1);
            if (magnitude > 131_000) throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
            if (n >= 0) return base.pow(n).setScale(rscale, RoundingMode.HALF_UP);
            BigDecimal denom = base.pow(-n);
            return BigDecimal.ONE.divide(denom, rscale, RoundingMode.HALF_UP);
        }
        if (base.signum() < 0) {
            throw new SqlException(SqlState.INVALID_ARGUMENT_FOR_POWER_FUNCTION,
                    "a negative number raised to a non-integer power yields a complex result");
        }
        if (base.signum() == 0) return BigDecimal.ZERO.setScale(MIN_SIG_DIGITS);
        double val = exp.doubleValue() * Math.log10(base.doubleValue() > 0 && Double.isFinite(base.doubleValue())
                ? base.doubleValue() : 10);
        if (val > 131_000) throw new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        int rscale = MIN_SIG_DIGITS - (int) val;
        rscale = clampScale(Math.max(Math.max(rscale, dscale(base)), dscale(exp)));
        if (val < -rscale - 2) return BigDecimal.ZERO.setScale(rscale);
        int work = rscale + Math.max((int) val, 0) + 12;
        return expRaw(exp.multiply(lnRaw(base, work)), work).setScale(rscale, RoundingMode.HALF_UP);
    }

    /** ln(x) for x > 0 with about {@code scale} correct decimals. */
    private static BigDecimal lnRaw(BigDecimal x, int scale) {
        // x = m * 10^e with m in [1, 10): ln x = e ln 10 + ln m.
        int e = exponent10(x);
        MathContext mc = new MathContext(scale + 20 + Math.abs(e) / 100, RoundingMode.HALF_EVEN);
        BigDecimal m = x.movePointLeft(e);
        BigDecimal lnm = lnSmall(m, mc);
        if (e == 0) return lnm;
        return lnSmall(BigDecimal.TEN, mc).multiply(BigDecimal.valueOf(e), mc).add(lnm, mc);
    }

    /** ln(m) for m in (0, 10]: halve the logarithm by square roots, then atanh series. */
    private static BigDecimal lnSmall(BigDecimal m, MathContext mc) {
        int halvings = 0;
        BigDecimal y = m;
        BigDecimal near = new BigDecimal("0.01");
        while (y.subtract(BigDecimal.ONE).abs().compareTo(near) > 0) {
            y = y.sqrt(mc);
            halvings++;
        }
        // ln y = 2 atanh(z), z = (y-1)/(y+1)
        BigDecimal z = y.subtract(BigDecimal.ONE).divide(y.add(BigDecimal.ONE), mc);
        BigDecimal z2 = z.multiply(z, mc);
        BigDecimal term = z, sum = BigDecimal.ZERO;
        BigDecimal eps = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2);
        for (int k = 1; term.abs().compareTo(eps) > 0; k += 2) {
            sum = sum.add(term.divide(BigDecimal.valueOf(k), mc), mc);
            term = term.multiply(z2, mc);
        }
        return sum.multiply(TWO, mc).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(halvings)), mc);
    }

    /** e^x with about {@code scale} correct decimals (relative to the result's magnitude). */
    private static BigDecimal expRaw(BigDecimal x, int scale) {
        MathContext mc = new MathContext(scale + 20, RoundingMode.HALF_EVEN);
        // Reduce |x| below 1/2^8 by halving, then square back.
        int squarings = 0;
        BigDecimal r = x;
        BigDecimal limit = new BigDecimal("0.004");
        while (r.abs().compareTo(limit) > 0) {
            r = r.divide(TWO, mc);
            squarings++;
        }
        BigDecimal sum = BigDecimal.ONE, term = BigDecimal.ONE;
        BigDecimal eps = BigDecimal.ONE.movePointLeft(mc.getPrecision() + 2);
        for (int k = 1; term.abs().compareTo(eps) > 0; k++) {
            term = term.multiply(r, mc).divide(BigDecimal.valueOf(k), mc);
            sum = sum.add(term, mc);
        }
        MathContext wide = new MathContext(mc.getPrecision() + squarings / 3 + 5, RoundingMode.HALF_EVEN);
        for (int i = 0; i < squarings; i++) sum = sum.multiply(sum, wide);
        return sum;
    }
}
