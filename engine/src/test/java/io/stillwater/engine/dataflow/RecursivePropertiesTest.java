package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.Harness.T1;
import static io.stillwater.engine.dataflow.Harness.T2;

import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
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
 * {@link RecursiveOperator} maintained through random inserts and deletes of its inputs
 * equals the {@link Reference}'s WITH RECURSIVE (PostgreSQL's iteration, evaluated from
 * scratch) after every step. T1's (k, v) are edges, T2's k the start nodes; the small
 * value domain makes cycles, duplicate edges and NULL keys common.
 */
class RecursivePropertiesTest {
    private static final SqlType INT = SqlType.INTEGER;
    private static final Expr K = new Expr.Column(0, INT);
    private static final Expr V = new Expr.Column(1, INT);

    @Provide
    Arbitrary<List<List<Harness.Op>>> twoTables() { return Harness.steps(2); }

    private static PlanNode edges() { return new PlanNode.Project(T1, List.of(K, V)); }

    /** Nodes reachable from T2's nodes along T1's edges: UNION, so cycles terminate. */
    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void reachabilityWithUnion(@ForAll("twoTables") List<List<Harness.Op>> steps) {
        PlanNode.Get working = new PlanNode.Get(-1, "reach", List.of(INT));
        PlanNode base = new PlanNode.Project(T2, List.of(K));
        PlanNode step = new PlanNode.Project(
                new PlanNode.Join(working, edges(), JoinKind.INNER, new int[] {0}, new int[] {0}, null),
                List.of(new Expr.Column(2, INT)));
        Harness.check(new PlanNode.Recursive(base, step, -1, false, List.of(INT)), steps);
    }

    /** Walks of at most three edges with their lengths: UNION ALL keeps one row per walk. */
    @Property(tries = 200, edgeCases = EdgeCasesMode.NONE)
    void boundedWalksWithUnionAll(@ForAll("twoTables") List<List<Harness.Op>> steps) {
        PlanNode.Get working = new PlanNode.Get(-2, "walks", List.of(INT, INT));
        PlanNode base = new PlanNode.Project(T2, List.of(K, new Expr.Literal(0, INT)));
        Expr len = new Expr.Column(1, INT);
        PlanNode joined = new PlanNode.Join(working, edges(), JoinKind.INNER, new int[] {0}, new int[] {0},
                new Expr.Call(Func.LT, List.of(len, new Expr.Literal(3, INT)), SqlType.BOOLEAN));
        PlanNode step = new PlanNode.Project(joined, List.of(new Expr.Column(3, INT),
                new Expr.Call(Func.PLUS, List.of(len, new Expr.Literal(1, INT)), INT)));
        Harness.check(new PlanNode.Recursive(base, step, -2, true, List.of(INT, INT)), steps);
    }
}
