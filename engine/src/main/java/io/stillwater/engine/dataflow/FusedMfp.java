package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import io.stillwater.engine.plan.PlanNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A chain of consecutive {@code Filter}/{@code Project} plan nodes compiled into one row
 * function, for reads that apply it without building a dataflow (fast-path lookups and
 * walks apply it to each row they find). Same stages and semantics as the
 * {@link MapFilterProject} operator: filters keep rows whose predicates are all TRUE;
 * evaluation errors are thrown as {@link io.stillwater.engine.error.SqlException}.
 *
 * <p>Immutable and safe to share between threads (evaluators are).
 */
public final class FusedMfp {
    private final PlanNode input;
    private final MapFilterProject op;
    private final boolean identity;

    private FusedMfp(PlanNode input, List<MapFilterProject.Stage> stages) {
        this.input = input;
        this.op = new MapFilterProject(stages, Cancellation.NONE);
        this.identity = stages.isEmpty();
    }

    /** Whether {@code node} is a Filter or Project (the start of an MFP chain). */
    public static boolean isMfp(PlanNode node) {
        return node instanceof PlanNode.Project || node instanceof PlanNode.Filter;
    }

    /** The node below the Filter/Project chain ending at {@code top} ({@code top} itself if none). */
    public static PlanNode base(PlanNode top) {
        PlanNode n = top;
        while (isMfp(n)) n = n instanceof PlanNode.Project p ? p.input() : ((PlanNode.Filter) n).input();
        return n;
    }

    /** Compiles the Filter/Project chain ending at {@code top}, down to (excluding) {@link #base(PlanNode)}. */
    public static FusedMfp compile(PlanNode top, EvalContext ctx) {
        return new FusedMfp(base(top), stages(top, ExprCompiler::compile, ctx));
    }

    /**
     * The fused stages of the Filter/Project chain ending at {@code top}: empty filters
     * dropped, column-only projections as column selections (identity ones dropped).
     * One definition for one-shot walks and for dataflows ({@link DataflowBuilder}).
     */
    static List<MapFilterProject.Stage> stages(PlanNode top, DataflowBuilder.ExpressionCompiler compiler, EvalContext ctx) {
        Deque<PlanNode> chain = new ArrayDeque<>();
        PlanNode n = top;
        while (isMfp(n)) {
            chain.addFirst(n);
            n = n instanceof PlanNode.Project p ? p.input() : ((PlanNode.Filter) n).input();
        }
        int arity = n.arity();
        List<MapFilterProject.Stage> stages = new ArrayList<>();
        for (PlanNode link : chain) {
            if (link instanceof PlanNode.Filter f) {
                if (f.predicates().isEmpty()) continue;
                Evaluator[] preds = new Evaluator[f.predicates().size()];
                for (int i = 0; i < preds.length; i++) preds[i] = compiler.compile(f.predicates().get(i), ctx);
                stages.add(new MapFilterProject.FilterStage(preds));
            } else {
                PlanNode.Project p = (PlanNode.Project) link;
                int[] cols = columnsOnly(p.exprs());
                if (cols == null) {
                    Evaluator[] ex = new Evaluator[p.exprs().size()];
                    for (int i = 0; i < ex.length; i++) ex[i] = compiler.compile(p.exprs().get(i), ctx);
                    stages.add(new MapFilterProject.MapStage(ex));
                } else if (!isIdentity(cols, arity)) {
                    stages.add(new MapFilterProject.ColumnStage(cols));
                }
                arity = p.exprs().size();
            }
        }
        return stages;
    }

    /** The plan node the chain reads (its input rows are this node's rows). */
    public PlanNode input() { return input; }

    /** Whether the chain changes nothing (every row passes unchanged). */
    public boolean isIdentity() { return identity; }

    /**
     * The row after the whole chain, or null when a filter drops it.
     *
     * @throws io.stillwater.engine.error.SqlException for an evaluation error in this row
     */
    public Row apply(Row row) { return identity ? row : op.apply(row); }

    private static int[] columnsOnly(List<Expr> exprs) {
        int[] cols = new int[exprs.size()];
        for (int i = 0; i < cols.length; i++) {
            if (!(exprs.get(i) instanceof Expr.Column c)) return null;
            cols[i] = c.index();
        }
        return cols;
    }

    private static boolean isIdentity(int[] cols, int arity) {
        if (cols.length != arity) return false;
        for (int i = 0; i < cols.length; i++) if (cols[i] != i) return false;
        return true;
    }
}
