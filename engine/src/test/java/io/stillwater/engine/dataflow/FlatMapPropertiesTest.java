package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.Harness.T1;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.expr.TableFunction;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A FlatMap (set-returning function per row), stepped through random batches of inserts
 * and deletes (duplicates, NULLs), has an accumulated output equal to the reference
 * evaluation of the accumulated input from scratch after every step: the operator is
 * linear, so a retraction removes exactly the rows its insertion added. Covered: unnest
 * of an array built from the row (NULL elements), zipped unnest of two arrays of different
 * lengths, the outer form (rows with no elements kept with NULLs) and downstream state (a
 * count per element).
 */
class FlatMapPropertiesTest {
    // t1 is (k int, v int, b boolean, s text)
    private static final SqlType INT_ARRAY = SqlType.arrayOf(SqlType.INTEGER);
    private static final Expr K = new Expr.Column(0, SqlType.INTEGER);
    private static final Expr V = new Expr.Column(1, SqlType.INTEGER);

    @Provide
    Arbitrary<List<List<Harness.Op>>> oneTable() { return Harness.steps(1); }

    private static Expr array(Expr... elements) { return new Expr.Call(Func.ARRAY, List.of(elements), INT_ARRAY); }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void unnestIsLinear(@ForAll("oneTable") List<List<Harness.Op>> steps, @ForAll boolean outer) {
        PlanNode plan = new PlanNode.FlatMap(T1, TableFunction.UNNEST, List.of(array(K, V, K)),
                List.of(SqlType.INTEGER), outer);
        Harness.check(plan, steps);
    }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void zippedUnnestWithOrdinalityFeedsAnAggregate(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        PlanNode flat = new PlanNode.FlatMap(T1, TableFunction.UNNEST_WITH_ORDINALITY,
                List.of(array(K, V), array(V)), List.of(SqlType.INTEGER, SqlType.INTEGER, SqlType.BIGINT), false);
        PlanNode plan = new PlanNode.Distinct(new PlanNode.Project(flat, List.of(
                new Expr.Column(4, SqlType.INTEGER), new Expr.Column(5, SqlType.INTEGER),
                new Expr.Column(6, SqlType.BIGINT))));
        Harness.check(plan, steps);
    }
}
