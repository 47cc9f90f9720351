package io.stillwater.micro;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.FusedMfp;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The expression evaluator: {@code SELECT a + b, upper(c) FROM t WHERE a > 500 AND b % 3 = 0} as
 * the engine compiles it ({@link FusedMfp}, the same stages as the dataflow's MapFilterProject
 * operator and the fast-path walks) applied to {@value #ROWS} rows {@code (int, int, text)}; about
 * one in six passes the filter. Time per input row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ExpressionBenchmark {
    static final int ROWS = 1024;

    private Row[] rows;
    private FusedMfp filterProject;

    @Setup(Level.Trial)
    public void build() {
        SplittableRandom random = new SplittableRandom(3);
        rows = new Row[ROWS];
        for (int i = 0; i < ROWS; i++) {
            rows[i] = Row.of(random.nextInt(1000), random.nextInt(1000), "name-" + i);
        }
        filterProject = FusedMfp.compile(query(), EvalContext.defaults());
    }

    /** The plan of the query above over {@code t(a int, b int, c text)}. */
    static PlanNode query() {
        SqlType i = SqlType.INTEGER;
        Expr a = new Expr.Column(0, i);
        Expr b = new Expr.Column(1, i);
        Expr c = new Expr.Column(2, SqlType.TEXT);
        PlanNode t = new PlanNode.Get(1, "t", List.of(i, i, SqlType.TEXT));
        Expr aOver500 = new Expr.Call(Func.GT, List.of(a, new Expr.Literal(500, i)), SqlType.BOOLEAN);
        Expr bMod3 = new Expr.Call(Func.MOD, List.of(b, new Expr.Literal(3, i)), i);
        Expr bMod3Is0 = new Expr.Call(Func.EQ, List.of(bMod3, new Expr.Literal(0, i)), SqlType.BOOLEAN);
        PlanNode filtered = new PlanNode.Filter(t, List.of(aOver500, bMod3Is0));
        return new PlanNode.Project(filtered, List.of(
                new Expr.Call(Func.PLUS, List.of(a, b), i),
                new Expr.Call(Func.UPPER, List.of(c), SqlType.TEXT)));
    }

    /** The filter and projection of one row (null when filtered out), for the smoke test. */
    Row applyOne(Row row) {
        return filterProject.apply(row);
    }

    /** How many of the rows the query keeps, computed without the evaluator (for the smoke test). */
    int expectedKept() {
        int n = 0;
        for (Row r : rows) {
            if ((Integer) r.get(0) > 500 && (Integer) r.get(1) % 3 == 0) n++;
        }
        return n;
    }

    /** Rows that pass, for the smoke test: the evaluator must keep and compute the right ones. */
    int applyAll(Blackhole bh) {
        int kept = 0;
        for (Row r : rows) {
            Row out = filterProject.apply(r);
            if (out != null) {
                kept++;
                bh.consume(out);
            }
        }
        return kept;
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int filterProject(Blackhole bh) {
        return applyAll(bh);
    }
}
