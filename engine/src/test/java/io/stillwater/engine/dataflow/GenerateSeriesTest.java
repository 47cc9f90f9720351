package io.stillwater.engine.dataflow;

import io.stillwater.engine.plan.JoinKind;
import static io.stillwater.engine.dataflow.TestPlans.lit;
import static io.stillwater.engine.dataflow.TestPlans.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class GenerateSeriesTest {
    private static List<Object> series(SqlType type, Expr... args) {
        return read(new PlanNode.GenerateSeries(List.of(args), type)).stream().map(r -> r.get(0)).toList();
    }

    private static Expr i(int v) { return lit(v, SqlType.INTEGER); }

    @Test
    void integers() {
        assertThat(series(SqlType.INTEGER, i(1), i(5))).containsExactly(1, 2, 3, 4, 5);
        assertThat(series(SqlType.INTEGER, i(10), i(1), i(-4))).containsExactlyInAnyOrder(10, 6, 2);
        assertThat(series(SqlType.INTEGER, i(5), i(1))).isEmpty();
        assertThat(series(SqlType.INTEGER, i(1), lit(null, SqlType.INTEGER))).isEmpty();
        assertThat(series(SqlType.INTEGER, i(Integer.MAX_VALUE - 1), i(Integer.MAX_VALUE), i(1)))
                .containsExactlyInAnyOrder(Integer.MAX_VALUE - 1, Integer.MAX_VALUE);
    }

    @Test
    void bigintStopsBeforeOverflow() {
        Expr max = lit(Long.MAX_VALUE, SqlType.BIGINT);
        assertThat(series(SqlType.BIGINT, lit(Long.MAX_VALUE - 1, SqlType.BIGINT), max, lit(5L, SqlType.BIGINT)))
                .containsExactly(Long.MAX_VALUE - 1);
    }

    @Test
    void numericWithFractionalStep() {
        List<Object> out = series(SqlType.NUMERIC, lit(BigDecimal.ONE, SqlType.NUMERIC), lit(new BigDecimal("2"), SqlType.NUMERIC),
                lit(new BigDecimal("0.5"), SqlType.NUMERIC));
        assertThat(out.stream().map(o -> ((BigDecimal) o).toPlainString()).sorted()).containsExactly("1", "1.5", "2.0");
    }

    @Test
    void timestampsByInterval() {
        Expr start = lit(LocalDateTime.of(2024, 1, 31, 0, 0), SqlType.TIMESTAMP);
        Expr stop = lit(LocalDateTime.of(2024, 4, 30, 0, 0), SqlType.TIMESTAMP);
        // Month steps clamp to the month's end and keep clamping (as PostgreSQL's repeated addition does).
        assertThat(series(SqlType.TIMESTAMP, start, stop, lit(new Interval(1, 0, 0), SqlType.INTERVAL))).containsExactly(
                LocalDateTime.of(2024, 1, 31, 0, 0), LocalDateTime.of(2024, 2, 29, 0, 0),
                LocalDateTime.of(2024, 3, 29, 0, 0), LocalDateTime.of(2024, 4, 29, 0, 0));
        Expr hours = lit(new Interval(0, 0, 12L * 3_600_000_000L), SqlType.INTERVAL);
        assertThat(series(SqlType.TIMESTAMP, lit(LocalDateTime.of(2024, 1, 1, 0, 0), SqlType.TIMESTAMP),
                lit(LocalDateTime.of(2024, 1, 2, 0, 0), SqlType.TIMESTAMP), hours)).hasSize(3);
    }

    @Test
    void zeroStepIsAnError() {
        assertThatThrownBy(() -> series(SqlType.INTEGER, i(1), i(3), i(0)))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
                    assertThat(e.getMessage()).isEqualTo("Evaluation error: step size cannot equal zero");
                });
        Expr t = lit(LocalDateTime.of(2024, 1, 1, 0, 0), SqlType.TIMESTAMP);
        assertThatThrownBy(() -> series(SqlType.TIMESTAMP, t, t, lit(Interval.ZERO, SqlType.INTERVAL)))
                .isInstanceOf(SqlException.class).hasMessage("Evaluation error: step size cannot equal zero");
        assertThatThrownBy(() -> series(SqlType.NUMERIC, lit(BigDecimal.ONE, SqlType.NUMERIC), lit(BigDecimal.TEN, SqlType.NUMERIC),
                lit(new BigDecimal("0.00"), SqlType.NUMERIC))).isInstanceOf(SqlException.class).hasMessage("Evaluation error: step size cannot equal zero");
    }

    @Test
    void seriesJoinsLikeAnyCollection() {
        PlanNode s = new PlanNode.GenerateSeries(List.of(i(1), i(3)), SqlType.INTEGER);
        PlanNode cross = new PlanNode.Join(s, s, JoinKind.INNER, new int[0], new int[0], null);
        assertThat(read(cross)).hasSize(9).contains(Row.of(1, 3), Row.of(3, 1));
    }
}
