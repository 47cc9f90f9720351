package io.stillwater.engine.peek;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.FusedMfp;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Whatever path the planner picks for a Filter/Project over an indexed collection
 * (lookup on some keys, or walk), the rows equal the chain applied to every row of the
 * collection: the reference model is a plain loop.
 */
class LookupPropertiesTest {
    static final Expr A = new Expr.Column(0, SqlType.INTEGER);
    static final Expr B = new Expr.Column(1, SqlType.TEXT);
    static final PlanNode.Get GET = new PlanNode.Get(1001, "t", List.of(SqlType.INTEGER, SqlType.TEXT));
    static final EvalContext CTX = EvalContext.defaults();

    record Case(List<Row> rows, List<Expr> key, Expr predicate) {}

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> small = Arbitraries.integers().between(-3, 3);
        Arbitrary<String> word = Arbitraries.of("x", "y", "z");
        Arbitrary<Row> row = Combinators.combine(small.injectNull(0.1), word.injectNull(0.1)).as(Row::of);
        Arbitrary<List<Row>> rows = row.list().ofMaxSize(30);
        Arbitrary<List<Expr>> key = Arbitraries.of(List.of(A), List.of(B), List.of(A, B), List.of(B, A));
        Arbitrary<Expr> aEq = small.injectNull(0.1).map(v -> call(Func.EQ, A, new Expr.Literal(v, SqlType.INTEGER)));
        Arbitrary<Expr> bEq = word.map(v -> call(Func.EQ, new Expr.Literal(v, SqlType.TEXT), B));
        Arbitrary<Expr> aIn = small.list().ofMinSize(1).ofMaxSize(3).map(vs -> {
            List<Expr> args = new ArrayList<>(List.of(A));
            for (int v : vs) args.add(new Expr.Literal(v, SqlType.INTEGER));
            return new Expr.Call(Func.IN, args, SqlType.BOOLEAN);
        });
        Arbitrary<Expr> aGt = small.map(v -> call(Func.GT, A, new Expr.Literal(v, SqlType.INTEGER)));
        Arbitrary<Expr> atom = Arbitraries.oneOf(aEq, bEq, aIn, aGt);
        Arbitrary<Expr> predicate = Arbitraries.oneOf(atom,
                Combinators.combine(atom, atom).as((x, y) -> call(Func.AND, x, y)),
                Combinators.combine(atom, atom).as((x, y) -> call(Func.OR, x, y)));
        return Combinators.combine(rows, key, predicate).as(Case::new);
    }

    static Expr call(Func f, Expr... args) { return new Expr.Call(f, List.of(args), SqlType.BOOLEAN); }

    @Property(tries = 300)
    void everyPathAgreesWithApplyingTheChainToEveryRow(@ForAll("cases") Case c) {
        PlanNode body = new PlanNode.Project(new PlanNode.Filter(GET, List.of(c.predicate())), List.of(B, A));
        TestExport idx = new TestExport(2001, 1001, c.key());
        Changes contents = new Changes();
        for (Row r : c.rows()) contents.add(r, 1);
        idx.hydrate(10, contents, new Changes());
        PeekPlan plan = new PeekPlanner(new TestCompute().add(idx), id -> false).plan(body, CTX);
        Statistics.label("path").collect(plan.pathName());
        Statistics.label("path").coverage(check -> {
            check.check("fast path lookup").percentage(p -> p > 10);
            check.check("fast path walk").percentage(p -> p > 10);
        });

        List<Row> actual;
        try (PeekInputs in = PeekInputs.at(10)) {
            in.addExport(2001, idx.snapshot(10));
            actual = TestCompute.rows(PeekExecutor.withoutEngine().run(plan, in, CTX, Cancellation.NONE).rows());
        }
        FusedMfp chain = FusedMfp.compile(body, CTX);
        List<Row> expected = new ArrayList<>();
        for (Row r : c.rows()) {
            Row out = chain.apply(r);
            if (out != null) expected.add(out);
        }
        assertThat(actual).as(plan.pathName()).containsExactlyInAnyOrderElementsOf(expected);
    }
}
