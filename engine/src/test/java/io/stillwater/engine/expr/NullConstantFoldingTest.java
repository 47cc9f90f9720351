package io.stillwater.engine.expr;

import static io.stillwater.engine.expr.Func.*;
import static io.stillwater.engine.expr.ExprBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import org.junit.jupiter.api.Test;

/**
 * A call that a NULL constant makes NULL whatever its other arguments are is NULL without
 * evaluating them, as PostgreSQL folds it when planning. Each case's row makes
 * {@code a + 2147483647} overflow, so evaluating that side would fail.
 */
class NullConstantFoldingTest {
    private static final Row ROW = Row.of(1);
    private static final Expr OVERFLOW = call(PLUS, INT, col(0, INT), i(Integer.MAX_VALUE));

    private static Object run(Expr e) { return eval(e, ROW); }

    @Test
    void theOverflowingSideFailsOnItsOwn() {
        assertThatThrownBy(() -> run(OVERFLOW)).isInstanceOf(SqlException.class)
                .satisfies(e -> assertThat(((SqlException) e).state()).isEqualTo(SqlState.NUMERIC_VALUE_OUT_OF_RANGE));
    }

    @Test
    void strictCallsWithANullConstantAreNull() {
        assertThat(run(call(GE, BOOL, OVERFLOW, nul(INT)))).isNull();
        assertThat(run(call(EQ, BOOL, OVERFLOW, cast(nul(TEXT), INT)))).isNull();
        assertThat(run(call(TIMES, INT, OVERFLOW, nul(INT)))).isNull();
        assertThat(run(call(NOT, BOOL, call(LT, BOOL, OVERFLOW, nul(INT))))).isNull();
    }

    @Test
    void betweenIsNullOnlyWhenBothBoundsAre() {
        assertThat(run(call(BETWEEN, BOOL, OVERFLOW, nul(INT), nul(INT)))).isNull();
        // x BETWEEN NULL AND 5 is false for x > 5: x must be evaluated.
        assertThatThrownBy(() -> run(call(BETWEEN, BOOL, OVERFLOW, nul(INT), i(5)))).isInstanceOf(SqlException.class);
        assertThat(run(call(BETWEEN, BOOL, i(10), nul(INT), i(5)))).isEqualTo(false);
    }

    @Test
    void inIsNullForANullLeftSideOrAListOfNulls() {
        assertThat(run(call(IN, BOOL, nul(INT), OVERFLOW, i(1)))).isNull();
        assertThat(run(call(IN, BOOL, OVERFLOW, nul(INT), nul(INT)))).isNull();
        // 1 IN (NULL, 1) is true: the list is evaluated.
        assertThat(run(call(IN, BOOL, i(1), nul(INT), i(1)))).isEqualTo(true);
    }

    @Test
    void nonStrictCallsStillEvaluateTheirArguments() {
        assertThatThrownBy(() -> run(call(COALESCE, INT, nul(INT), OVERFLOW))).isInstanceOf(SqlException.class);
        assertThatThrownBy(() -> run(call(IS_DISTINCT_FROM, BOOL, OVERFLOW, nul(INT)))).isInstanceOf(SqlException.class);
        assertThat(run(call(IS_NULL, BOOL, nul(INT)))).isEqualTo(true);
        assertThat(run(call(CONCAT, TEXT, nul(TEXT), s("a")))).isEqualTo("a");
        assertThat(run(call(OR, BOOL, nul(BOOL), b(true)))).isEqualTo(true);
        // NULLIF is strict in its first argument only.
        assertThat(run(call(NULLIF, INT, nul(INT), OVERFLOW))).isNull();
        assertThatThrownBy(() -> run(call(NULLIF, INT, OVERFLOW, nul(INT)))).isInstanceOf(SqlException.class);
    }
}
