package io.stillwater.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The BigDecimal transcendental functions agree with double math and with each other. */
class NumericMathTest {

    @Provide
    Arbitrary<BigDecimal> positives() {
        return Arbitraries.bigDecimals().between(new BigDecimal("0.000001"), new BigDecimal("1000000000")).ofScale(6)
                .filter(x -> x.signum() > 0);
    }

    private static void close(BigDecimal actual, double expected, double relative) {
        double a = actual.doubleValue();
        assertThat(Math.abs(a - expected)).as("%s vs %s", actual, expected)
                .isLessThanOrEqualTo(Math.abs(expected) * relative + 1e-15);
    }

    @Property
    void lnMatchesDoubleLog(@ForAll("positives") BigDecimal x) {
        close(NumericMath.ln(x), Math.log(x.doubleValue()), 1e-13);
    }

    @Property
    void expMatchesDoubleExp(@ForAll("exponents") BigDecimal y) {
        close(NumericMath.exp(y), Math.exp(y.doubleValue()), 1e-13);
    }

    @Provide
    Arbitrary<BigDecimal> exponents() {
        return Arbitraries.bigDecimals().between(new BigDecimal("-40"), new BigDecimal("40")).ofScale(4);
    }

    @Property
    void expInvertsLnToSixteenDigits(@ForAll("positives") BigDecimal x) {
        BigDecimal back = NumericMath.exp(NumericMath.ln(x));
        BigDecimal relErr = back.subtract(x).abs().divide(x, MathContext.DECIMAL64);
        assertThat(relErr).isLessThan(new BigDecimal("1e-14"));
    }

    @Property
    void sqrtSquaresBack(@ForAll("positives") BigDecimal x) {
        BigDecimal r = NumericMath.sqrt(x);
        close(r, Math.sqrt(x.doubleValue()), 1e-14);
        assertThat(r.scale()).isGreaterThanOrEqualTo(x.scale());
    }

    @Property
    void powerMatchesDoublePow(@ForAll("positives") BigDecimal base, @ForAll("smallExponents") BigDecimal e) {
        double expected = Math.pow(base.doubleValue(), e.doubleValue());
        if (expected > 1e300 || expected < 1e-300) return;
        close(NumericMath.power(base, e), expected, 1e-12);
    }

    @Provide
    Arbitrary<BigDecimal> smallExponents() {
        return Arbitraries.bigDecimals().between(new BigDecimal("-5"), new BigDecimal("5")).ofScale(2);
    }

    @Property
    void divisionKeepsSixteenSignificantDigits(@ForAll("positives") BigDecimal a, @ForAll("positives") BigDecimal b) {
        BigDecimal q = NumericMath.divide(a, b);
        assertThat(q.precision()).isGreaterThanOrEqualTo(16);
        close(q, a.doubleValue() / b.doubleValue(), 1e-15);
    }
}
