package io.stillwater.engine.expr;

import static io.stillwater.engine.expr.ExprBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongBinaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Integer arithmetic against Math.*Exact, numeric division against BigDecimal, and 3VL truth tables. */
class ArithmeticPropertiesTest {

    private static Object run(Func f, SqlType t, Object a, Object b) {
        boolean predicate = f == Func.LT || f == Func.EQ || f == Func.GE;
        Expr e = call(f, predicate ? BOOL : t, col(0, t), col(1, t));
        return ExprCompiler.compile(e, CTX).eval(Row.of(a, b));
    }

    private static void agreesWithExact(Func f, long a, long b, LongBinaryOperator exact) {
        long expected;
        try {
            expected = exact.applyAsLong(a, b);
        } catch (ArithmeticException overflow) {
            assertThatThrownBy(() -> run(f, BIG, a, b)).isInstanceOfSatisfying(SqlException.class, e -> {
                assertThat(e.state()).isEqualTo(SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
                assertThat(e.getMessage()).isEqualTo("bigint out of range");
            });
            return;
        }
        assertThat(run(f, BIG, a, b)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Long> edgyLongs() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-3, 3),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 1L << 32, -(1L << 32)));
    }

    @Property
    void bigintPlusOverflowsExactlyWhenAddExactDoes(@ForAll("edgyLongs") long a, @ForAll("edgyLongs") long b) {
        agreesWithExact(Func.PLUS, a, b, Math::addExact);
    }

    @Property
    void bigintMinusOverflowsExactlyWhenSubtractExactDoes(@ForAll("edgyLongs") long a, @ForAll("edgyLongs") long b) {
        agreesWithExact(Func.MINUS, a, b, Math::subtractExact);
    }

    @Property
    void bigintTimesOverflowsExactlyWhenMultiplyExactDoes(@ForAll("edgyLongs") long a, @ForAll("edgyLongs") long b) {
        agreesWithExact(Func.TIMES, a, b, Math::multiplyExact);
    }

    @Property
    void bigintDivideTruncatesTowardZero(@ForAll("edgyLongs") long a, @ForAll("edgyLongs") long b) {
        if (b == 0) {
            assertThatThrownBy(() -> run(Func.DIVIDE, BIG, a, b)).hasMessage("division by zero");
            return;
        }
        agreesWithExact(Func.DIVIDE, a, b, Math::divideExact);
        if (!(a == Long.MIN_VALUE && b == -1)) {
            assertThat(run(Func.MOD, BIG, a, b)).isEqualTo(a % b);
        }
    }

    @Property
    void integerArithmeticOverflowsExactlyWhenIntExactDoes(@ForAll int a, @ForAll int b) {
        int[][] cases = {{0}, {1}, {2}};
        for (int[] k : cases) {
            Func f = k[0] == 0 ? Func.PLUS : k[0] == 1 ? Func.MINUS : Func.TIMES;
            Integer expected;
            try {
                expected = switch (f) {
                    case PLUS -> Math.addExact(a, b);
                    case MINUS -> Math.subtractExact(a, b);
                    default -> Math.multiplyExact(a, b);
                };
            } catch (ArithmeticException overflow) {
                expected = null;
            }
            if (expected == null) {
                assertThatThrownBy(() -> run(f, INT, a, b)).hasMessage("integer out of range");
            } else {
                assertThat(run(f, INT, a, b)).isEqualTo(expected);
            }
        }
    }

    @Property
    void smallintArithmeticIsRangeChecked(@ForAll short a, @ForAll short b) {
        int sum = a + b;
        if (sum < Short.MIN_VALUE || sum > Short.MAX_VALUE) {
            assertThatThrownBy(() -> run(Func.PLUS, SMALL, a, b)).hasMessage("smallint out of range");
        } else {
            assertThat(run(Func.PLUS, SMALL, a, b)).isEqualTo((short) sum);
        }
    }

    @Provide
    Arbitrary<BigDecimal> numerics() {
        return Combinators.combine(
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(25).negate(), BigInteger.TEN.pow(25)),
                Arbitraries.integers().between(0, 10)).as(BigDecimal::new);
    }

    @Property
    void numericDivisionHasSixteenSignificantDigitsAndRoundsHalfUp(@ForAll("numerics") BigDecimal a,
                                                                    @ForAll("numerics") BigDecimal b) {
        if (b.signum() == 0) return;
        BigDecimal q = (BigDecimal) run(Func.DIVIDE, NUM, a, b);
        // The result is the exact quotient rounded (half away from zero) at its own scale...
        BigDecimal exact = a.divide(b, q.scale() + 30, RoundingMode.DOWN);
        assertThat(q).isEqualByComparingTo(exact.setScale(q.scale(), RoundingMode.HALF_UP));
        // ...and that scale keeps at least 16 significant digits and never drops an input's scale.
        assertThat(q.scale()).isGreaterThanOrEqualTo(Math.max(a.scale(), b.scale()));
        if (a.signum() != 0) assertThat(q.precision()).as("significant digits of %s", q).isGreaterThanOrEqualTo(16);
    }

    @Property
    void numericRoundMatchesHalfUp(@ForAll("numerics") BigDecimal a, @ForAll @IntRange(min = -5, max = 12) int places) {
        BigDecimal r = (BigDecimal) eval(call(Func.ROUND, NUM, new Expr.Literal(a, NUM), i(places)));
        BigDecimal expected = a.setScale(places, RoundingMode.HALF_UP);
        assertThat(r).isEqualByComparingTo(expected);
        assertThat(r.scale()).isEqualTo(Math.max(places, 0));
    }

    // ------------------------------------------------------------ three-valued logic

    private static final List<Boolean> TRUTH = Arrays.asList(true, false, null);

    /** SQL's AND as Kleene logic: false dominates, then unknown. */
    private static Boolean kleeneAnd(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) return false;
        if (a == null || b == null) return null;
        return true;
    }

    private static Boolean kleeneOr(Boolean a, Boolean b) {
        if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) return true;
        if (a == null || b == null) return null;
        return false;
    }

    @Test
    void andOrNotFollowTheTruthTables() {
        for (Boolean a : TRUTH) {
            for (Boolean b : TRUTH) {
                assertThat(eval(call(Func.AND, BOOL, ExprBuilder.b(a), ExprBuilder.b(b)))).as("%s AND %s", a, b).isEqualTo(kleeneAnd(a, b));
                assertThat(eval(call(Func.OR, BOOL, ExprBuilder.b(a), ExprBuilder.b(b)))).as("%s OR %s", a, b).isEqualTo(kleeneOr(a, b));
                assertThat(eval(call(Func.IS_DISTINCT_FROM, BOOL, ExprBuilder.b(a), ExprBuilder.b(b)))).isEqualTo(!Objects.equals(a, b));
            }
            assertThat(eval(call(Func.NOT, BOOL, ExprBuilder.b(a)))).isEqualTo(a == null ? null : !a);
            assertThat(eval(call(Func.IS_TRUE, BOOL, ExprBuilder.b(a)))).isEqualTo(Boolean.TRUE.equals(a));
            assertThat(eval(call(Func.IS_NOT_TRUE, BOOL, ExprBuilder.b(a)))).isEqualTo(!Boolean.TRUE.equals(a));
            assertThat(eval(call(Func.IS_FALSE, BOOL, ExprBuilder.b(a)))).isEqualTo(Boolean.FALSE.equals(a));
            assertThat(eval(call(Func.IS_NOT_FALSE, BOOL, ExprBuilder.b(a)))).isEqualTo(!Boolean.FALSE.equals(a));
            assertThat(eval(call(Func.IS_NULL, BOOL, ExprBuilder.b(a)))).isEqualTo(a == null);
            assertThat(eval(call(Func.IS_NOT_NULL, BOOL, ExprBuilder.b(a)))).isEqualTo(a != null);
        }
    }

    @Test
    void andShortCircuitsOnFalse() {
        Expr boom = call(Func.EQ, BOOL, call(Func.DIVIDE, INT, i(1), i(0)), i(1));
        assertThat(eval(call(Func.AND, BOOL, ExprBuilder.b(false), boom))).isEqualTo(false);
        assertThat(eval(call(Func.OR, BOOL, ExprBuilder.b(true), boom))).isEqualTo(true);
    }

    @Property
    void comparisonsAgreeWithTheStorageOrderForIntegers(@ForAll long a, @ForAll long b) {
        int c = Long.compare(a, b);
        assertThat(run(Func.LT, BIG, a, b)).isEqualTo(c < 0);
        assertThat(run(Func.EQ, BIG, a, b)).isEqualTo(c == 0);
        assertThat(run(Func.GE, BIG, a, b)).isEqualTo(c >= 0);
    }
}
