package io.stillwater.engine.dataflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.List;
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
}
