package io.stillwater.engine.peek;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PeekPlannerTest {
    static final long T = 1001;      // indexed table (a int, b text, c bigint)
    static final long U = 1002;      // unindexed table (x int)
    static final long IDX_A = 2001;  // index on t(a)
    static final long IDX_AB = 2002; // index on t(a, b)
    static final List<SqlType> T_TYPES = List.of(SqlType.INTEGER, SqlType.TEXT, SqlType.BIGINT);

    static final Expr A = new Expr.Column(0, SqlType.INTEGER);
    static final Expr B = new Expr.Column(1, SqlType.TEXT);
    static final Expr C = new Expr.Column(2, SqlType.BIGINT);
    static final PlanNode.Get GET_T = new PlanNode.Get(T, "t", T_TYPES);
    static final PlanNode.Get GET_U = new PlanNode.Get(U, "u", List.of(SqlType.INTEGER));

    final TestExport idxA = hydrated(new TestExport(IDX_A, T, List.of(A)));
    final TestExport idxAb = hydrated(new TestExport(IDX_AB, T, List.of(A, B)));
    final TestCompute compute = new TestCompute().add(idxA).add(idxAb);
    final PeekPlanner planner = new PeekPlanner(compute, id -> id == T || id == U);
    final EvalContext ctx = EvalContext.defaults();

    static TestExport hydrated(TestExport e) {
        e.hydrate(10, new Changes(), new Changes());
        return e;
    }

    static Expr lit(Object v, SqlType t) { return new Expr.Literal(v, t); }

    static Expr eq(Expr l, Expr r) { return new Expr.Call(Func.EQ, List.of(l, r), SqlType.BOOLEAN); }

    static Expr call(Func f, Expr... args) { return new Expr.Call(f, List.of(args), SqlType.BOOLEAN); }

    static PlanNode filter(PlanNode in, Expr... preds) { return new PlanNode.Filter(in, List.of(preds)); }

    @Test
    void planWithoutInputsIsConstant() {
        PlanNode body = new PlanNode.Constant(List.of(Row.of(1)), List.of(SqlType.INTEGER));
        assertThat(planner.plan(body, ctx)).isInstanceOf(PeekPlan.Constant.class);
    }

    @Test
    void equalityOnTheWholeKeyIsALookup() {
        PlanNode body = new PlanNode.Project(filter(GET_T, eq(A, lit(5, SqlType.INTEGER))), List.of(B));
        PeekPlan plan = planner.plan(body, ctx);
        assertThat(plan).isInstanceOf(PeekPlan.FastPathLookup.class);
        PeekPlan.FastPathLookup l = (PeekPlan.FastPathLookup) plan;
        assertThat(l.export().exportId()).isEqualTo(IDX_A);
        assertThat(l.keys()).containsExactly(Row.of(5));
        assertThat(plan.exports()).containsOnlyKeys(IDX_A);
    }

    @Test
    void constantOnTheLeftAndConjunctionsAlsoFixTheKey() {
        Expr pred = call(Func.AND, eq(lit("x", SqlType.TEXT), B), eq(lit(7, SqlType.INTEGER), A));
        PeekPlan plan = new PeekPlanner(new TestCompute().add(idxAb), id -> id == T).plan(filter(GET_T, pred), ctx);
        assertThat(plan).isInstanceOfSatisfying(PeekPlan.FastPathLookup.class,
                l -> assertThat(l.keys()).containsExactly(Row.of(7, "x")));
    }

    @Test
    void partialKeyIsAWalk() {
        PeekPlan plan = new PeekPlanner(new TestCompute().add(idxAb), id -> id == T)
                .plan(filter(GET_T, eq(A, lit(5, SqlType.INTEGER))), ctx);
        assertThat(plan).isInstanceOfSatisfying(PeekPlan.FastPathWalk.class,
                w -> assertThat(w.export().exportId()).isEqualTo(IDX_AB));
    }

    @Test
    void nonEqualityFilterIsAWalkAndSoIsABareRead() {
        Expr gt = new Expr.Call(Func.GT, List.of(A, lit(5, SqlType.INTEGER)), SqlType.BOOLEAN);
        assertThat(planner.plan(filter(GET_T, gt), ctx)).isInstanceOf(PeekPlan.FastPathWalk.class);
        assertThat(planner.plan(GET_T, ctx)).isInstanceOf(PeekPlan.FastPathWalk.class);
        // a = a + 1 is not a constant
        Expr selfRef = eq(A, new Expr.Call(Func.PLUS, List.of(A, lit(1, SqlType.INTEGER)), SqlType.INTEGER));
        assertThat(planner.plan(filter(GET_T, selfRef), ctx)).isInstanceOf(PeekPlan.FastPathWalk.class);
    }

    @Test
    void inListsAndDisjunctionsAreSeveralLookups() {
        Expr in = new Expr.Call(Func.IN, List.of(A, lit(1, SqlType.INTEGER), lit(2, SqlType.INTEGER)), SqlType.BOOLEAN);
        assertThat(planner.plan(filter(GET_T, in), ctx)).isInstanceOfSatisfying(PeekPlan.FastPathLookup.class,
                l -> assertThat(l.keys()).containsExactly(Row.of(1), Row.of(2)));
        Expr or = call(Func.OR, eq(A, lit(3, SqlType.INTEGER)), eq(A, lit(4, SqlType.INTEGER)));
        assertThat(planner.plan(filter(GET_T, or), ctx)).isInstanceOfSatisfying(PeekPlan.FastPathLookup.class,
                l -> assertThat(l.keys()).containsExactly(Row.of(3), Row.of(4)));
        Expr mixedOr = call(Func.OR, eq(A, lit(3, SqlType.INTEGER)), eq(C, lit(4L, SqlType.BIGINT)));
        assertThat(planner.plan(filter(GET_T, mixedOr), ctx)).isInstanceOf(PeekPlan.FastPathWalk.class);
    }

    @Test
    void filterAboveAProjectIsRewrittenOntoTheCollection() {
        // SELECT * FROM (SELECT b, a FROM t) WHERE a = 9
        PlanNode proj = new PlanNode.Project(GET_T, List.of(B, A));
        PlanNode body = filter(proj, eq(new Expr.Column(1, SqlType.INTEGER), lit(9, SqlType.INTEGER)));
        assertThat(planner.plan(body, ctx)).isInstanceOfSatisfying(PeekPlan.FastPathLookup.class,
                l -> assertThat(l.keys()).containsExactly(Row.of(9)));
    }

    @Test
    void widenedIntegerKeyIsLookedUpAtTheNarrowedValue() {
        Expr widened = new Expr.Cast(A, SqlType.BIGINT);
        assertThat(planner.plan(filter(GET_T, eq(widened, lit(5L, SqlType.BIGINT))), ctx))
                .isInstanceOfSatisfying(PeekPlan.FastPathLookup.class, l -> {
                    assertThat(l.keys()).containsExactly(Row.of(5));
                    assertThat(l.keys().get(0).get(0)).isInstanceOf(Integer.class);
                });
        // out of the key's range: no key can match
        assertThat(planner.plan(filter(GET_T, eq(widened, lit(1L << 40, SqlType.BIGINT))), ctx))
                .isInstanceOfSatisfying(PeekPlan.FastPathLookup.class, l -> assertThat(l.keys()).isEmpty());
    }

    @Test
    void equalityWithNullMatchesNothing() {
        assertThat(planner.plan(filter(GET_T, eq(A, lit(null, SqlType.INTEGER))), ctx))
                .isInstanceOfSatisfying(PeekPlan.FastPathLookup.class, l -> assertThat(l.keys()).isEmpty());
    }

    @Test
    void floatKeysAreNeverLookedUp() {
        Expr d = new Expr.Column(0, SqlType.DOUBLE);
        TestExport idx = hydrated(new TestExport(3000, 3001, List.of(d)));
        PlanNode get = new PlanNode.Get(3001, "f", List.of(SqlType.DOUBLE));
        PeekPlan plan = new PeekPlanner(new TestCompute().add(idx), id -> false).plan(filter(get, eq(d, lit(0.0, SqlType.DOUBLE))), ctx);
        assertThat(plan).isInstanceOf(PeekPlan.FastPathWalk.class);
    }

    @Test
    void unindexedTablesAreReadThroughAPeekDataflow() {
        PeekPlan plan = planner.plan(filter(GET_U, eq(new Expr.Column(0, SqlType.INTEGER), lit(1, SqlType.INTEGER))), ctx);
        assertThat(plan).isInstanceOfSatisfying(PeekPlan.PeekDataflow.class, d -> {
            assertThat(d.tables()).containsExactly(U);
            assertThat(d.imports()).isEmpty();
        });
    }

    @Test
    void joinsImportIndexedInputsAndReadOthersFromTables() {
        PlanNode join = new PlanNode.Join(GET_T, GET_U, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        PeekPlan plan = planner.plan(join, ctx);
        assertThat(plan).isInstanceOfSatisfying(PeekPlan.PeekDataflow.class, d -> {
            assertThat(d.imports()).containsOnlyKeys(T);
            assertThat(d.imports().get(T).exportId()).isEqualTo(IDX_A); // oldest hydrated export
            assertThat(d.tables()).containsExactly(U);
            assertThat(d.exports()).containsOnlyKeys(IDX_A);
        });
    }

    @Test
    void hydratedExportsArePreferred() {
        TestExport cold = new TestExport(1500, T, List.of(C)); // older id, not hydrated
        PeekPlan plan = new PeekPlanner(new TestCompute().add(cold).add(idxAb), id -> id == T).plan(GET_T, ctx);
        assertThat(plan).isInstanceOfSatisfying(PeekPlan.FastPathWalk.class,
                w -> assertThat(w.export().exportId()).isEqualTo(IDX_AB));
    }

    @Test
    void builtInRelationsAreReadBySystemRelations() {
        PlanNode sys = new PlanNode.Get(12, "mz_tables", List.of(SqlType.TEXT));
        assertThat(planner.plan(sys, ctx)).isInstanceOfSatisfying(PeekPlan.PeekDataflow.class,
                d -> assertThat(d.systemRelations()).isEqualTo(Set.of(12L)));
    }

    @Test
    void writesReadIndexedTablesFromTheirSnapshots() {
        PeekPlanner forWrites = PeekPlanner.readingTablesDirectly(compute, id -> id == T || id == U);
        PeekPlan plan = forWrites.plan(filter(GET_T, eq(A, lit(5, SqlType.INTEGER))), ctx);
        assertThat(plan).isInstanceOfSatisfying(PeekPlan.PeekDataflow.class, d -> {
            assertThat(d.tables()).containsExactly(T);
            assertThat(d.exports()).isEmpty();
        });
    }

    @Test
    void aDroppedObjectIsUndefined() {
        assertThatThrownBy(() -> planner.plan(new PlanNode.Get(4242, "gone", List.of(SqlType.INTEGER)), ctx))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_TABLE));
    }
}
