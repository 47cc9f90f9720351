package io.stillwater.engine.dataflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class FinishingTest {
    private static final List<SqlType> TYPES = List.of(SqlType.INTEGER, SqlType.TEXT);
    private static final PlanNode BODY = new PlanNode.Constant(List.of(), TYPES);

    private static QueryPlan plan(List<SortKey> order, long limit, long offset, String... names) {
        return new QueryPlan(BODY, order, limit, offset, List.of(names), TYPES.subList(0, names.length));
    }

    private static final Changes RESULT = new Changes()
            .add(Row.of(2, "b"), 2).add(Row.of(null, "n"), 1).add(Row.of(1, "a"), 1).add(Row.of(3, "c"), 1);

    @Test
    void ascendingPutsNullsLastByDefault() {
        assertThat(Finishing.apply(plan(List.of(SortKey.asc(0)), -1, 0, "x", "y"), RESULT)).containsExactly(
                Row.of(1, "a"), Row.of(2, "b"), Row.of(2, "b"), Row.of(3, "c"), Row.of(null, "n"));
    }

    @Test
    void descendingPutsNullsFirstByDefaultAndExplicitPlacementWins() {
        assertThat(Finishing.apply(plan(List.of(SortKey.desc(0)), -1, 0, "x", "y"), RESULT)).containsExactly(
                Row.of(null, "n"), Row.of(3, "c"), Row.of(2, "b"), Row.of(2, "b"), Row.of(1, "a"));
        assertThat(Finishing.apply(plan(List.of(new SortKey(0, true, false)), -1, 0, "x", "y"), RESULT)).containsExactly(
                Row.of(3, "c"), Row.of(2, "b"), Row.of(2, "b"), Row.of(1, "a"), Row.of(null, "n"));
        assertThat(Finishing.apply(plan(List.of(new SortKey(0, false, true)), -1, 0, "x", "y"), RESULT)).containsExactly(
                Row.of(null, "n"), Row.of(1, "a"), Row.of(2, "b"), Row.of(2, "b"), Row.of(3, "c"));
    }

    @Test
    void offsetAndLimitCountExpandedRowsAndSortOnlyColumnsAreDropped() {
        // ORDER BY y (column 1) but output only x: offset 1 lands inside the duplicated b.
        assertThat(Finishing.apply(plan(List.of(SortKey.asc(1)), 2, 1, "x"), RESULT))
                .containsExactly(Row.of(2), Row.of(2));
        assertThat(Finishing.apply(plan(List.of(SortKey.asc(1)), 0, 0, "x"), RESULT)).isEmpty();
        assertThat(Finishing.apply(plan(List.of(SortKey.asc(1)), 10, 4, "x"), RESULT)).containsExactly(Row.of((Object) null));
        assertThat(Finishing.apply(plan(List.of(SortKey.asc(1)), -1, 9, "x"), RESULT)).isEmpty();
    }

    @Test
    void withoutOrderEveryRowIsKeptWithItsMultiplicity() {
        assertThat(Finishing.apply(plan(List.of(), -1, 0, "x", "y"), RESULT)).containsExactlyInAnyOrder(
                Row.of(1, "a"), Row.of(2, "b"), Row.of(2, "b"), Row.of(3, "c"), Row.of(null, "n"));
        assertThat(Finishing.apply(plan(List.of(), 3, 0, "x", "y"), RESULT)).hasSize(3);
    }

    @Test
    void secondKeyBreaksTies() {
        Changes r = new Changes().add(Row.of(1, "b"), 1).add(Row.of(1, "a"), 1).add(Row.of(0, "z"), 1);
        assertThat(Finishing.apply(plan(List.of(SortKey.asc(0), SortKey.desc(1)), -1, 0, "x", "y"), r))
                .containsExactly(Row.of(0, "z"), Row.of(1, "b"), Row.of(1, "a"));
    }

    /** Any order of (a, b) keys, any offset/limit: equals expanding, sorting fully and slicing. */
    @Property(tries = 500)
    void matchesFullSortAndSlice(@ForAll("results") List<Row> rows, @ForAll boolean descA, @ForAll boolean nullsFirstA,
                                 @ForAll boolean descB, @ForAll boolean nullsFirstB,
                                 @ForAll @IntRange(min = -1, max = 12) int limit, @ForAll @IntRange(min = 0, max = 5) int offset,
                                 @ForAll @IntRange(min = 1, max = 2) int width) {
        Changes c = new Changes();
        for (Row r : rows) c.add(r, (Integer) r.get(2));
        List<SortKey> order = List.of(new SortKey(0, descA, nullsFirstA), new SortKey(1, descB, nullsFirstB));
        QueryPlan qp = new QueryPlan(BODY, order, limit, offset, List.of("a", "b").subList(0, width), TYPES.subList(0, width));

        List<Row> expanded = new ArrayList<>();
        for (Row r : rows) for (int i = 0; i < (Integer) r.get(2); i++) expanded.add(r);
        expanded.sort(RowOrder.byKeys(order));
        List<Row> expected = new ArrayList<>();
        for (int i = offset; i < expanded.size() && (limit < 0 || i < offset + limit); i++) {
            expected.add(expanded.get(i).project(width == 1 ? new int[] {0} : new int[] {0, 1}));
        }
        assertThat(Finishing.apply(qp, c)).containsExactlyElementsOf(expected);
    }

    @Provide
    Arbitrary<List<Row>> results() {
        Arbitrary<Integer> a = Arbitraries.integers().between(0, 5).injectNull(0.2);
        Arbitrary<String> b = Arbitraries.of("p", "q", "r").injectNull(0.2);
        Arbitrary<Integer> count = Arbitraries.integers().between(1, 3);
        return Combinators.combine(a, b, count).as((x, y, n) -> Row.of(x, y, n)).list().ofMaxSize(60)
                .map(l -> {
                    // one entry per distinct (a, b), as a consolidated result has
                    Map<Row, Row> byKey = new LinkedHashMap<>();
                    for (Row r : l) byKey.putIfAbsent(r.project(new int[] {0, 1}), r);
                    return List.copyOf(byKey.values());
                });
    }
}
