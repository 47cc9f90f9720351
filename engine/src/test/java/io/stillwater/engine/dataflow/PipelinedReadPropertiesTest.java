package io.stillwater.engine.dataflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A pipelined one-shot read ({@link PipelinedRead}) computes exactly what the incremental
 * dataflow computes in one step over whole snapshots ({@link OneShotRead#runUnchunked}),
 * which equals the plain {@link Reference} evaluation, for random plans (filters,
 * projections that may divide by zero, every join kind with and without residuals, cross
 * joins, joins probing an arranged input, aggregates with scalar-subquery errors,
 * DISTINCT, UNION, EXCEPT, INTERSECT, top-k, window functions, shared subplans) over random small tables,
 * at every chunk size from 1 row up. When the read fails, the pipelined read fails with
 * one of the errors present in the whole result's error collection.
 */
class PipelinedReadPropertiesTest {
    private static final List<SqlType> TYPES = Harness.TYPES;
    private static final Expr K = new Expr.Column(0, SqlType.INTEGER);
    private static final Expr V = new Expr.Column(1, SqlType.INTEGER);
    private static final Expr B = new Expr.Column(2, SqlType.BOOLEAN);
    private static final Expr S = new Expr.Column(3, SqlType.TEXT);

    @Provide
    Arbitrary<List<Row>> table() { return Harness.rows().list().ofMaxSize(10); }

    @Property(tries = 600, edgeCases = EdgeCasesMode.NONE)
    void pipelinedEqualsUnchunkedEqualsReference(@ForAll("table") List<Row> t1, @ForAll("table") List<Row> t2,
                                                 @ForAll long seed, @ForAll @IntRange(min = 1, max = 9) int chunkRows,
                                                 @ForAll boolean arrangeT2) {
        PlanNode plan = new PlanGen(new Random(seed)).plan(3);
        Map<Long, Changes> tables = Map.of(1L, Changes.insertAll(t1), 2L, Changes.insertAll(t2));
        SnapshotSource source = new SnapshotSource() {
            @Override
            public Changes read(long id, long asOf) { return tables.get(id); }

            @Override
            public Optional<ArrangedInput> arranged(long id, long asOf) {
                return arrangeT2 && id == 2 ? Optional.of(arrangement(tables.get(2L))) : Optional.empty();
            }
        };

        Set<EvalError> expectedErrors = new HashSet<>();
        Map<Row, Long> expected = null;
        try {
            expected = bag(OneShotRead.runUnchunked(plan, source, 1, EvalContext.defaults(), Cancellation.NONE));
        } catch (SqlException e) {
            expectedErrors.addAll(allErrors(plan, source));
            assertThat(expectedErrors).as("the unchunked read failed with %s", e.getMessage()).isNotEmpty();
        }
        if (expected != null) {
            Reference ref = new Reference(Map.of(1L, t1, 2L, t2));
            List<Row> refRows;
            try {
                refRows = ref.eval(plan);
            } catch (SqlException e) {
                refRows = null; // the reference fails on expression errors the dataflow keeps as data
            }
            if (refRows != null && ref.errors.isEmpty()) {
                assertThat(render(expected)).as("unchunked vs reference for %s", plan).isEqualTo(render(Reference.counts(refRows)));
            }
        }

        for (int chunk : new int[] {chunkRows, PipelinedRead.DEFAULT_CHUNK_ROWS}) {
            QueryMemory memory = QueryMemory.unlimited();
            try {
                Map<Row, Long> pipelined = bag(OneShotRead.run(plan, source, 1, EvalContext.defaults(), Cancellation.NONE,
                        memory, chunk));
                assertThat(expected).as("the unchunked read failed, the pipelined one did not: %s", plan).isNotNull();
                assertThat(render(pipelined)).as("pipelined (chunks of %d) vs unchunked for %s", chunk, plan)
                        .isEqualTo(render(expected));
            } catch (SqlException e) {
                assertThat(expectedErrors).as("pipelined failed with %s for %s", e.getMessage(), plan)
                        .contains(e.toEvalError());
            }
            assertThat(memory.used()).as("every stage released its reservations").isZero();
        }
    }

    /** Every error with a positive count in the whole result's error collection. */
    private static Set<EvalError> allErrors(PlanNode plan, SnapshotSource source) {
        Dataflow df = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE)
                .withArrangements(id -> source.arranged(id, 1)).build(plan);
        Map<Long, Changes> inputs = new HashMap<>();
        for (long id : df.sourceIds()) inputs.put(id, source.read(id, 1));
        Map<Row, Long> errors = bag(df.step(1, inputs).errors());
        Set<EvalError> out = new HashSet<>();
        errors.forEach((r, n) -> {
            if (n > 0) out.add((EvalError) r.get(0));
        });
        return out;
    }

    private static Map<Row, Long> bag(Changes c) {
        Map<Row, Long> out = new HashMap<>();
        Harness.accumulate(out, c);
        return out;
    }

    private static String render(Map<Row, Long> bag) { return Harness.render(bag); }

    /** T2 arranged by k (a hash map standing in for an index). */
    private static ArrangedInput arrangement(Changes contents) {
        Map<Row, List<Row>> byKey = new HashMap<>();
        for (int i = 0; i < contents.size(); i++) {
            Row r = contents.row(i);
            for (long n = 0; n < contents.diff(i); n++) byKey.computeIfAbsent(Row.of(r.get(0)), x -> new ArrayList<>()).add(r);
        }
        return new ArrangedInput() {
            @Override
            public int[] keyColumns() { return new int[] {0}; }

            @Override
            public void lookup(Row key, Visitor visitor) {
                for (Row r : byKey.getOrDefault(key, List.of())) visitor.accept(r, 1);
            }
        };
    }

    /** Random plans whose every node has the tables' schema (k int, v int, b boolean, s text). */
    private static final class PlanGen {
        private final Random random;
        private PlanNode shared;

        PlanGen(Random random) { this.random = random; }

        PlanNode plan(int depth) {
            if (depth == 0 || random.nextInt(5) == 0) return leaf();
            return switch (random.nextInt(12)) {
                case 0 -> new PlanNode.Filter(plan(depth - 1), List.of(predicate()));
                case 1 -> project(plan(depth - 1));
                case 2 -> join(depth);
                case 3 -> reduce(plan(depth - 1));
                case 4 -> new PlanNode.Distinct(plan(depth - 1));
                case 5 -> new PlanNode.Union(List.of(plan(depth - 1), plan(depth - 1)), random.nextBoolean());
                case 6 -> new PlanNode.Except(plan(depth - 1), plan(depth - 1), random.nextBoolean());
                case 7 -> new PlanNode.Intersect(plan(depth - 1), plan(depth - 1), random.nextBoolean());
                case 8 -> topK(plan(depth - 1));
                case 9 -> lookupJoin(plan(depth - 1));
                case 10 -> window(plan(depth - 1));
                default -> {
                    // the same plan object twice: one node with two consumers
                    if (shared == null) shared = plan(depth - 1);
                    yield new PlanNode.Union(List.of(shared, new PlanNode.Filter(shared, List.of(predicate()))), true);
                }
            };
        }

        private PlanNode leaf() {
            return switch (random.nextInt(5)) {
                case 0, 1 -> Harness.T1;
                case 2, 3 -> Harness.T2;
                default -> new PlanNode.Constant(List.of(Row.of(1, 2, true, "x"), Row.of(1, 0, null, "y"),
                        Row.of(null, 1, false, "x")), TYPES);
            };
        }

        private Expr predicate() {
            return switch (random.nextInt(3)) {
                case 0 -> call(Func.GT, SqlType.BOOLEAN, V, lit(1));
                case 1 -> call(Func.OR, SqlType.BOOLEAN, call(Func.IS_NULL, SqlType.BOOLEAN, K), B);
                default -> call(Func.EQ, SqlType.BOOLEAN, S, new Expr.Literal("x", SqlType.TEXT));
            };
        }

        private PlanNode project(PlanNode in) {
            List<Expr> exprs = switch (random.nextInt(3)) {
                case 0 -> List.of(V, K, B, S);
                case 1 -> List.of(K, call(Func.PLUS, SqlType.INTEGER, V, lit(1)), call(Func.NOT, SqlType.BOOLEAN, B), S);
                default -> List.of(K, call(Func.DIVIDE, SqlType.INTEGER, lit(6), V), B, S); // errors where v = 0
            };
            return new PlanNode.Project(in, exprs);
        }

        private PlanNode join(int depth) {
            PlanNode l = plan(depth - 1);
            PlanNode r = plan(depth - 1);
            JoinKind kind = JoinKind.values()[random.nextInt(JoinKind.values().length)];
            int shape = random.nextInt(3);
            int[] keys = shape == 0 ? new int[0] : shape == 1 ? new int[] {0} : new int[] {0, 2};
            Expr residual = switch (random.nextInt(3)) {
                case 0 -> null;
                case 1 -> call(Func.LE, SqlType.BOOLEAN, new Expr.Column(1, SqlType.INTEGER), new Expr.Column(5, SqlType.INTEGER));
                default -> call(Func.GT, SqlType.BOOLEAN,
                        call(Func.DIVIDE, SqlType.INTEGER, lit(10), new Expr.Column(5, SqlType.INTEGER)), lit(3));
            };
            return backToSchema(new PlanNode.Join(l, r, kind, keys, keys, residual), kind);
        }

        private PlanNode lookupJoin(PlanNode probe) {
            JoinKind kind = List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI).get(random.nextInt(4));
            Expr residual = random.nextBoolean() ? null
                    : call(Func.EQ, SqlType.BOOLEAN, new Expr.Column(3, SqlType.TEXT), new Expr.Column(7, SqlType.TEXT));
            return backToSchema(new PlanNode.Join(probe, Harness.T2, kind, new int[] {0}, new int[] {0}, residual), kind);
        }

        /** (l.k, r.v, l.b, r.s) of a join's output; SEMI/ANTI output the left side as it is. */
        private static PlanNode backToSchema(PlanNode.Join join, JoinKind kind) {
            if (kind == JoinKind.SEMI || kind == JoinKind.ANTI) return join;
            return new PlanNode.Project(join, List.of(K, new Expr.Column(5, SqlType.INTEGER), B, new Expr.Column(7, SqlType.TEXT)));
        }

        /** GROUP BY k, b: (k, min(v) or a scalar subquery's v, b, max(s)). */
        private PlanNode reduce(PlanNode in) {
            boolean single = random.nextInt(3) == 0;
            AggCall first = new AggCall(single ? AggFunc.SINGLE_VALUE : AggFunc.MIN, List.of(1), false, -1, List.of(),
                    SqlType.INTEGER, "v");
            AggCall last = new AggCall(AggFunc.MAX, List.of(3), false, -1, List.of(), SqlType.TEXT, "s");
            boolean global = random.nextInt(4) == 0;
            if (global) {
                PlanNode r = new PlanNode.Reduce(in, new int[0], List.of(first, last));
                return new PlanNode.Project(r, List.of(lit(0), new Expr.Column(0, SqlType.INTEGER), new Expr.Literal(true, SqlType.BOOLEAN),
                        new Expr.Column(1, SqlType.TEXT)));
            }
            PlanNode r = new PlanNode.Reduce(in, new int[] {0, 2}, List.of(first, last));
            return new PlanNode.Project(r, List.of(K, new Expr.Column(2, SqlType.INTEGER), new Expr.Column(1, SqlType.BOOLEAN),
                    new Expr.Column(3, SqlType.TEXT)));
        }

        private PlanNode topK(PlanNode in) {
            int[] groups = random.nextBoolean() ? new int[] {0} : new int[0];
            return new PlanNode.TopK(in, groups, List.of(new SortKey(1, random.nextBoolean(), random.nextBoolean())),
                    random.nextInt(5) - 1, random.nextInt(3));
        }

        /** A window's min(v) over a sliding frame or lag(v) in the place of v (the columns stay K, V, B, S). */
        private PlanNode window(PlanNode in) {
            int[] partition = random.nextBoolean() ? new int[] {0} : new int[0];
            var frame = new io.stillwater.engine.plan.WindowFrame(io.stillwater.engine.plan.WindowFrame.Unit.ROWS,
                    new io.stillwater.engine.plan.WindowFrame.Bound(io.stillwater.engine.plan.WindowFrame.BoundKind.PRECEDING, 1L),
                    io.stillwater.engine.plan.WindowFrame.Bound.CURRENT_ROW, io.stillwater.engine.plan.WindowFrame.Exclusion.NO_OTHERS);
            var min = new io.stillwater.engine.plan.WindowCall(io.stillwater.engine.plan.WindowFunc.AGGREGATE, List.of(),
                    new AggCall(AggFunc.MIN, List.of(1), false, -1, List.of(), SqlType.INTEGER, "min"), frame, SqlType.INTEGER, "min");
            var lag = new io.stillwater.engine.plan.WindowCall(io.stillwater.engine.plan.WindowFunc.LAG, List.of(1), null,
                    frame, SqlType.INTEGER, "lag");
            PlanNode w = new PlanNode.Window(in, partition, List.of(new SortKey(3, random.nextBoolean(), random.nextBoolean())),
                    List.of(min, lag));
            return new PlanNode.Project(w, List.of(K, new Expr.Column(4 + random.nextInt(2), SqlType.INTEGER), B, S));
        }

        private static Expr call(Func f, SqlType t, Expr... args) { return new Expr.Call(f, List.of(args), t); }

        private static Expr lit(int v) { return new Expr.Literal(v, SqlType.INTEGER); }
    }
}
