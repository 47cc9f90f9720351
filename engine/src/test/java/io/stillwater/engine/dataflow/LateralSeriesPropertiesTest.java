package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.Harness.T1;
import static io.stillwater.engine.dataflow.Harness.T2;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link LateralSeriesOperator} ({@code FROM t, LATERAL generate_series(k, v)}) maintained
 * through random inserts and deletes equals the {@link Reference}'s series recomputed from
 * scratch after every step: a retracted row retracts exactly its own series. The small
 * value domain makes empty series, NULL bounds and duplicate rows common.
 */
class LateralSeriesPropertiesTest {
    private static final SqlType INT = SqlType.INTEGER;
    private static final Expr K = new Expr.Column(0, INT);
    private static final Expr V = new Expr.Column(1, INT);

    @Provide
    Arbitrary<List<List<Harness.Op>>> oneTable() { return Harness.steps(1); }

    @Provide
    Arbitrary<List<List<Harness.Op>>> twoTables() { return Harness.steps(2); }

    private static PlanNode kv(PlanNode t) { return new PlanNode.Project(t, List.of(K, V)); }

    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void crossJoinLateral(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        Harness.check(new PlanNode.LateralSeries(kv(T1), List.of(K, V), INT, false), steps);
    }

    /** LEFT JOIN LATERAL ... ON true: a row with an empty (or NULL-bounded) series is kept once with NULL. */
    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void leftJoinLateral(@ForAll("oneTable") List<List<Harness.Op>> steps) {
        Harness.check(new PlanNode.LateralSeries(kv(T1), List.of(K, V), INT, true), steps);
    }

    /** The series over a join's output, as when the outer side is itself a join. */
    @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
    void overAJoin(@ForAll("twoTables") List<List<Harness.Op>> steps) {
        PlanNode join = new PlanNode.Join(kv(T1), kv(T2), JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        Harness.check(new PlanNode.LateralSeries(join, List.of(new Expr.Column(1, INT), new Expr.Column(3, INT)),
                INT, false), steps);
    }
}
