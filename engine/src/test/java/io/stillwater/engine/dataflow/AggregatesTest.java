package io.stillwater.engine.dataflow;

import org.assertj.core.data.Offset;
import static io.stillwater.engine.dataflow.TestPlans.agg;
import static io.stillwater.engine.dataflow.TestPlans.read;
import static io.stillwater.engine.dataflow.TestPlans.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Aggregate values exactly as PostgreSQL 15 prints them. */
class AggregatesTest {
    private static final List<SqlType> INT = List.of(SqlType.INTEGER);

    private static PlanNode ints(int... xs) {
        Object[][] rows = new Object[xs.length][];
        for (int i = 0; i < xs.length; i++) rows[i] = new Object[] {xs[i]};
        return values(INT, rows);
    }

    private static Object global(PlanNode input, AggCall a) {
        List<Row> out = read(new PlanNode.Reduce(input, new int[0], List.of(a)));
        assertThat(out).hasSize(1);
        return out.get(0).get(0);
    }

    private static String numeric(PlanNode input, AggFunc f) {
        return ((BigDecimal) global(input, agg(f, SqlType.NUMERIC, 0))).toPlainString();
    }

    @Test
    void avgOfIntegersUsesPostgresDivisionScale() {
        assertThat(numeric(ints(1, 2, 3, 4), AggFunc.AVG)).isEqualTo("2.5000000000000000");
        assertThat(numeric(ints(1, 1), AggFunc.AVG)).isEqualTo("1.00000000000000000000");
        assertThat(numeric(ints(1, 1, 2), AggFunc.AVG)).isEqualTo("1.3333333333333333");
        assertThat(numeric(ints(10000, 20000), AggFunc.AVG)).isEqualTo("15000.000000000000");
        assertThat(numeric(ints(0, 0), AggFunc.AVG)).isEqualTo("0.00000000000000000000");
    }

    @Test
    void avgOfNumericKeepsInputScale() {
        PlanNode in = values(List.of(SqlType.NUMERIC), new Object[] {new BigDecimal("1.5")}, new Object[] {new BigDecimal("2.25")});
        assertThat(numeric(in, AggFunc.AVG)).isEqualTo("1.8750000000000000");
        assertThat(((BigDecimal) global(in, agg(AggFunc.SUM, SqlType.NUMERIC, 0))).toPlainString()).isEqualTo("3.75");
    }

    @Test
    void varianceAndStddevOfIntegers() {
        PlanNode in = ints(1, 2, 3, 4);
        assertThat(numeric(in, AggFunc.VAR_SAMP)).isEqualTo("1.6666666666666667");
        assertThat(numeric(in, AggFunc.STDDEV_SAMP)).isEqualTo("1.2909944487358056");
        assertThat(numeric(in, AggFunc.VAR_POP)).isEqualTo("1.2500000000000000");
        assertThat(numeric(in, AggFunc.STDDEV_POP)).isEqualTo("1.1180339887498948");
        assertThat(numeric(ints(1, 2), AggFunc.VAR_SAMP)).isEqualTo("0.50000000000000000000");
        assertThat(numeric(ints(5, 5), AggFunc.STDDEV_SAMP)).isEqualTo("0");
        assertThat(global(ints(5), agg(AggFunc.STDDEV_SAMP, SqlType.NUMERIC, 0))).isNull();
    }

    @Test
    void floatAggregates() {
        PlanNode in = values(List.of(SqlType.DOUBLE), new Object[] {1.0}, new Object[] {2.0}, new Object[] {4.0});
        assertThat(global(in, agg(AggFunc.SUM, SqlType.DOUBLE, 0))).isEqualTo(7.0);
        assertThat((Double) global(in, agg(AggFunc.AVG, SqlType.DOUBLE, 0))).isCloseTo(7.0 / 3, Offset.offset(1e-15));
        assertThat((Double) global(in, agg(AggFunc.VAR_POP, SqlType.DOUBLE, 0))).isCloseTo(14.0 / 9, Offset.offset(1e-12));
    }

    @Test
    void sumOfIntegersIsBigintAndNullOverNoRows() {
        assertThat(global(ints(2_000_000_000, 2_000_000_000), agg(AggFunc.SUM, SqlType.BIGINT, 0))).isEqualTo(4_000_000_000L);
        assertThat(global(ints(), agg(AggFunc.SUM, SqlType.BIGINT, 0))).isNull();
        PlanNode big = values(List.of(SqlType.BIGINT), new Object[] {Long.MAX_VALUE}, new Object[] {Long.MAX_VALUE});
        assertThat(global(big, agg(AggFunc.SUM, SqlType.NUMERIC, 0))).isEqualTo(new BigDecimal("18446744073709551614"));
    }

    @Test
    void globalAggregateOverEmptyInputIsOneRow() {
        PlanNode empty = ints();
        List<Row> out = read(new PlanNode.Reduce(empty, new int[0], List.of(
                agg(AggFunc.COUNT_STAR, SqlType.BIGINT), agg(AggFunc.COUNT, SqlType.BIGINT, 0),
                agg(AggFunc.MIN, SqlType.INTEGER, 0), agg(AggFunc.AVG, SqlType.NUMERIC, 0),
                agg(AggFunc.BOOL_AND, SqlType.BOOLEAN, 0))));
        assertThat(out).containsExactly(Row.of(0L, 0L, null, null, null));
        // Grouped aggregate over empty input: no rows at all.
        assertThat(read(new PlanNode.Reduce(empty, new int[] {0}, List.of(agg(AggFunc.COUNT_STAR, SqlType.BIGINT))))).isEmpty();
    }

    @Test
    void stringAggWithSeparatorAndOrder() {
        List<SqlType> types = List.of(SqlType.TEXT, SqlType.TEXT, SqlType.INTEGER);
        PlanNode in = values(types, new Object[] {"a", ", ", 3}, new Object[] {"b", "; ", 1},
                new Object[] {null, "!", 2}, new Object[] {"c", null, 2});
        AggCall ordered = new AggCall(AggFunc.STRING_AGG, List.of(0, 1), false, -1,
                List.of(SortKey.asc(2)), SqlType.TEXT, "string_agg");
        // b (first: its separator is dropped), c (NULL separator is empty), a.
        assertThat(global(in, ordered)).isEqualTo("bc, a");
        AggCall desc = new AggCall(AggFunc.STRING_AGG, List.of(0, 1), false, -1,
                List.of(SortKey.desc(2)), SqlType.TEXT, "string_agg");
        assertThat(global(in, desc)).isEqualTo("ac; b");
    }

    @Test
    void singleValueFailsOnMoreThanOneRow() {
        assertThat(global(ints(), agg(AggFunc.SINGLE_VALUE, SqlType.INTEGER, 0))).isNull();
        assertThat(global(ints(7), agg(AggFunc.SINGLE_VALUE, SqlType.INTEGER, 0))).isEqualTo(7);
        assertThatThrownBy(() -> global(ints(7, 7), agg(AggFunc.SINGLE_VALUE, SqlType.INTEGER, 0)))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.CARDINALITY_VIOLATION);
                    assertThat(e.getMessage()).isEqualTo("Evaluation error: more than one row returned by a subquery used as an expression");
                });
    }

    @Test
    void filterAndDistinct() {
        List<SqlType> types = List.of(SqlType.INTEGER, SqlType.BOOLEAN);
        PlanNode in = values(types, new Object[] {1, true}, new Object[] {1, true}, new Object[] {2, false},
                new Object[] {3, null}, new Object[] {null, true});
        AggCall countDistinct = new AggCall(AggFunc.COUNT, List.of(0), true, -1, List.of(), SqlType.BIGINT, "c");
        AggCall sumFiltered = new AggCall(AggFunc.SUM, List.of(0), false, 1, List.of(), SqlType.BIGINT, "s");
        AggCall sumDistinctFiltered = new AggCall(AggFunc.SUM, List.of(0), true, 1, List.of(), SqlType.BIGINT, "s");
        List<Row> out = read(new PlanNode.Reduce(in, new int[0], List.of(countDistinct, sumFiltered, sumDistinctFiltered)));
        assertThat(out).containsExactly(Row.of(3L, 2L, 1L));
    }

    @Test
    void sumOfIntervals() {
        PlanNode in = values(List.of(SqlType.INTERVAL), new Object[] {new Interval(1, 2, 3)}, new Object[] {new Interval(0, 5, 7)});
        assertThat(global(in, agg(AggFunc.SUM, SqlType.INTERVAL, 0))).isEqualTo(new Interval(1, 7, 10));
    }

    @Test
    void minMaxAndBoolOverGroups() {
        List<SqlType> types = List.of(SqlType.TEXT, SqlType.INTEGER, SqlType.BOOLEAN);
        PlanNode in = values(types, new Object[] {"a", 5, true}, new Object[] {"a", -1, false},
                new Object[] {"b", null, true}, new Object[] {"b", 9, null});
        List<Row> out = read(new PlanNode.Reduce(in, new int[] {0}, List.of(
                agg(AggFunc.MIN, SqlType.INTEGER, 1), agg(AggFunc.MAX, SqlType.INTEGER, 1),
                agg(AggFunc.BOOL_AND, SqlType.BOOLEAN, 2), agg(AggFunc.BOOL_OR, SqlType.BOOLEAN, 2))));
        assertThat(out).containsExactly(Row.of("a", -1, 5, false, true), Row.of("b", 9, 9, true, true));
    }
}
