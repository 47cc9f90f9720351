package io.stillwater.engine.dataflow;

import java.util.Optional;
import java.util.function.LongFunction;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Turns a {@link PlanNode} tree into a {@link Dataflow}: one operator per plan node,
 * except that consecutive {@code Project}/{@code Filter} nodes fuse into one
 * map/filter/project operator and set operations lower onto negate and threshold:
 * <pre>
 *   L EXCEPT ALL R     = threshold(L + negate(R))
 *   L INTERSECT ALL R  = L + negate(L EXCEPT ALL R)          (= min(L, R))
 *   EXCEPT / INTERSECT = the ALL versions over distinct(L), distinct(R)
 *   UNION              = distinct(UNION ALL)
 * </pre>
 * Expressions are compiled once per dataflow. A plan node object used twice becomes one
 * node; Gets of one object share one source.
 *
 * <p>Data-parallel copies ({@link #partitioned}): each of {@code W} workers builds its own
 * copy from the same plan, and an exchange node ({@link ExchangeOperator}) goes before
 * every keyed operator: join inputs by their join keys, reduce and top-k by their group
 * keys, distinct and threshold by the whole row. Exchanges are created in the same order
 * on every worker (the plan is walked the same way), which is what pairs up their rounds.
 * Collections that exist once rather than per input row (constants, generate_series, a
 * global aggregate's row) are produced by one worker only. Without {@code partitioned}
 * (one-shot reads, one worker) no exchange node exists.
 */
public final class DataflowBuilder {
    /** How expressions become evaluators; {@link ExprCompiler#compile} unless a caller supplies another. */
    @FunctionalInterface
    public interface ExpressionCompiler {
        Evaluator compile(Expr expr, EvalContext ctx);
    }

    private final EvalContext ctx;
    private final Cancellation cancel;
    private final ExpressionCompiler compiler;
    /** Null for a single, unpartitioned copy. */
    private Exchange exchange;
    /** Inputs a one-shot read's joins may probe instead of reading (null: none). */
    private LongFunction<Optional<ArrangedInput>> arrangements;

    private final List<Dataflow.Node> nodes = new ArrayList<>();
    private final Map<PlanNode, Integer> built = new IdentityHashMap<>();
    private final Map<Long, Integer> sources = new HashMap<>();

    public DataflowBuilder(EvalContext ctx, Cancellation cancel) {
        this(ctx, cancel, ExprCompiler::compile);
    }

    public DataflowBuilder(EvalContext ctx, Cancellation cancel, ExpressionCompiler compiler) {
        this.ctx = ctx;
        this.cancel = cancel;
        this.compiler = compiler;
    }

    /**
     * Makes this builder build worker {@code exchange.self()}'s copy of a dataflow run by
     * {@code exchange.peers()} workers. With one peer it changes nothing.
     */
    public DataflowBuilder partitioned(Exchange exchange) {
        if (!nodes.isEmpty()) throw new IllegalStateException("partition a builder before building");
        this.exchange = exchange.peers() > 1 ? exchange : null;
        return this;
    }

    /**
     * Lets joins of a one-shot read probe arranged inputs: a join whose input is a plain
     * {@code Get} of a collection {@code arrangements} returns, with equi keys covering the
     * arrangement's key, becomes a {@link LookupJoinOperator} and that input is never read.
     * Only for single-step dataflows (the arrangement is fixed at the read time).
     */
    public DataflowBuilder withArrangements(LongFunction<Optional<ArrangedInput>> arrangements) {
        if (!nodes.isEmpty()) throw new IllegalStateException("configure a builder before building");
        if (exchange != null) throw new IllegalStateException("a partitioned (maintained) dataflow cannot probe fixed arrangements");
        this.arrangements = arrangements;
        return this;
    }

    /** Routes {@code in} by {@code keyColumns} (null: whole row) when partitioned. */
    private int exchanged(int in, int[] keyColumns) {
        if (exchange == null) return in;
        return add(new ExchangeOperator(exchange, keyColumns, cancel), in);
    }

    /** Does this copy produce collections that exist once (constants)? Worker 0 does. */
    private boolean ownsSingletons() {
        return exchange == null || exchange.self() == 0;
    }

    /** Builds the dataflow computing {@code plan}. A builder builds one dataflow. */
    public Dataflow build(PlanNode plan) {
        if (!nodes.isEmpty()) throw new IllegalStateException("a DataflowBuilder builds one dataflow");
        int out = node(plan);
        return new Dataflow(nodes, out, plan.types(), cancel);
    }

    private int add(Operator op, int... inputs) {
        nodes.add(new Dataflow.Node(op, inputs, -1));
        return nodes.size() - 1;
    }

    private int node(PlanNode plan) {
        Integer done = built.get(plan);
        if (done != null) return done;
        int id = create(plan);
        built.put(plan, id);
        return id;
    }

    private int create(PlanNode plan) {
        return switch (plan) {
            case PlanNode.Get g -> source(g.objectId());
            case PlanNode.Constant c -> add(new ConstantOperator(ownsSingletons() ? c.rows() : List.of(), cancel));
            case PlanNode.Project p -> mapFilterProject(p);
            case PlanNode.Filter f -> mapFilterProject(f);
            case PlanNode.Join j -> {
                int lookup = lookupJoin(j);
                if (lookup >= 0) yield lookup;
                int l = exchanged(node(j.left()), j.leftKeys());
                int r = exchanged(node(j.right()), j.rightKeys());
                Evaluator residual = j.residual() == null ? null : compiler.compile(j.residual(), ctx);
                yield add(new JoinOperator(j.kind(), j.leftKeys(), j.rightKeys(), residual,
                        j.left().arity(), j.right().arity(), cancel), l, r);
            }
            case PlanNode.Reduce r -> {
                int in = exchanged(node(r.input()), r.groupKeys());
                List<Supplier<Accumulator>> factories = new ArrayList<>();
                for (AggCall a : r.aggs()) factories.add(Accumulators.factory(a, r.input().types()));
                if (exchange != null && r.groupKeys().length == 0
                        && exchange.self() != Exchange.route(Exchange.hashColumns(Row.EMPTY, new int[0]), exchange.peers())) {
                    // A global aggregate has one row; the worker its (empty) key routes to
                    // computes it, the others must not emit their own "empty input" row.
                    yield add(new ConstantOperator(List.of(), cancel), in);
                }
                yield add(new ReduceOperator(r.groupKeys(), factories, cancel), in);
            }
            case PlanNode.Distinct d -> distinct(node(d.input()));
            case PlanNode.Union u -> {
                int[] ins = new int[u.inputs().size()];
                for (int i = 0; i < ins.length; i++) ins[i] = node(u.inputs().get(i));
                int all = add(new UnionOperator(cancel), ins);
                yield u.all() ? all : distinct(all);
            }
            case PlanNode.Except e -> {
                int l = node(e.left());
                int r = node(e.right());
                yield e.all() ? exceptAll(l, r) : exceptAll(distinct(l), distinct(r));
            }
            case PlanNode.Intersect x -> {
                int l = node(x.left());
                int r = node(x.right());
                yield x.all() ? intersectAll(l, r) : intersectAll(distinct(l), distinct(r));
            }
            case PlanNode.TopK t -> add(new TopKOperator(t.groupKeys(), t.order(), t.limit(), t.offset(), cancel),
                    exchanged(node(t.input()), t.groupKeys()));
            case PlanNode.Window w -> add(new WindowOperator(w.partitionKeys(), w.order(), w.calls(), w.input().types(),
                    cancel), exchanged(node(w.input()), w.partitionKeys()));
            case PlanNode.GenerateSeries s -> {
                if (!ownsSingletons()) yield add(new ConstantOperator(List.of(), cancel));
                List<Evaluator> args = new ArrayList<>();
                for (Expr e : s.args()) args.add(compiler.compile(e, ctx));
                yield add(new GenerateSeriesOperator(args, s.type(), ctx, cancel));
            }
            case PlanNode.LateralSeries s -> {
                List<Evaluator> args = new ArrayList<>();
                for (Expr e : s.args()) args.add(compiler.compile(e, ctx));
                yield add(new LateralSeriesOperator(new GenerateSeriesOperator(args, s.type(), ctx, cancel),
                        s.outer(), cancel), node(s.input()));
            }
            case PlanNode.Recursive r -> recursive(r);
            case PlanNode.FlatMap f -> {
                List<Evaluator> args = new ArrayList<>();
                for (Expr e : f.args()) args.add(compiler.compile(e, ctx));
                yield add(new FlatMapOperator(f.function(), args, f.columns().size(), f.outer(), cancel), node(f.input()));
            }
        };
    }

    /**
     * Builds {@code j} as a lookup join into an arranged input when one side is a plain Get
     * of an arranged collection whose key columns are all join keys of the same type, and
     * returns its node; returns -1 otherwise (build a hash join).
     */
    private int lookupJoin(PlanNode.Join j) {
        if (arrangements == null) return -1;
        boolean rightArranged = j.right() instanceof PlanNode.Get
                && (j.kind() == JoinKind.INNER || j.kind() == JoinKind.LEFT
                    || j.kind() == JoinKind.SEMI || j.kind() == JoinKind.ANTI);
        for (boolean arrangedRight : new boolean[] {true, false}) {
            if (arrangedRight ? !rightArranged : !(j.left() instanceof PlanNode.Get && j.kind() == JoinKind.INNER)) continue;
            PlanNode.Get g = (PlanNode.Get) (arrangedRight ? j.right() : j.left());
            PlanNode probeSide = arrangedRight ? j.left() : j.right();
            int[] arrangedKeys = arrangedRight ? j.rightKeys() : j.leftKeys();
            int[] probeKeys = arrangedRight ? j.leftKeys() : j.rightKeys();
            Optional<ArrangedInput> a = arrangements.apply(g.objectId());
            if (a.isEmpty()) continue;
            int[] keyCols = a.get().keyColumns();
            int[] probeLookup = new int[keyCols.length];
            boolean[] covered = new boolean[arrangedKeys.length];
            boolean ok = keyCols.length > 0;
            for (int k = 0; k < keyCols.length && ok; k++) {
                int pair = -1;
                for (int i = 0; i < arrangedKeys.length; i++) if (arrangedKeys[i] == keyCols[k]) pair = i;
                ok = pair >= 0 && probeSide.types().get(probeKeys[pair]).equals(g.types().get(keyCols[k]));
                if (ok) {
                    probeLookup[k] = probeKeys[pair];
                    covered[pair] = true;
                }
            }
            if (!ok) continue;
            int extra = 0;
            for (boolean c : covered) if (!c) extra++;
            int[] probeExtra = new int[extra];
            int[] arrangedExtra = new int[extra];
            for (int i = 0, e = 0; i < covered.length; i++) {
                if (covered[i]) continue;
                probeExtra[e] = probeKeys[i];
                arrangedExtra[e++] = arrangedKeys[i];
            }
            int probe = node(probeSide);
            Evaluator residual = j.residual() == null ? null : compiler.compile(j.residual(), ctx);
            int id = add(new LookupJoinOperator(j.kind(), a.get(), arrangedRight, probeLookup, probeExtra, arrangedExtra,
                    residual, g.arity(), cancel), probe);
            return id;
        }
        return -1;
    }

    private int source(long objectId) {
        return sources.computeIfAbsent(objectId, oid -> {
            nodes.add(new Dataflow.Node(null, new int[0], oid));
            return nodes.size() - 1;
        });
    }

    /**
     * WITH RECURSIVE: one {@link RecursiveOperator} over the base and every collection the
     * step reads (the step itself runs inside the operator). The fixpoint is computed in
     * one place: every input is exchanged to one worker (by the empty key).
     */
    private int recursive(PlanNode.Recursive r) {
        List<Long> external = new ArrayList<>(PlanInputs.objectIds(r.step()));
        external.remove(r.workingId());
        int[] ins = new int[1 + external.size()];
        ins[0] = exchanged(node(r.base()), new int[0]);
        for (int k = 0; k < external.size(); k++) ins[k + 1] = exchanged(source(external.get(k)), new int[0]);
        return add(new RecursiveOperator(r, external, ctx, compiler, cancel), ins);
    }

    private int distinct(int in) {
        return add(new ThresholdOperator(ThresholdOperator.Mode.DISTINCT, cancel), exchanged(in, null));
    }

    private int exceptAll(int l, int r) {
        int negR = add(new NegateOperator(cancel), r);
        int diff = add(new UnionOperator(cancel), l, negR);
        return add(new ThresholdOperator(ThresholdOperator.Mode.POSITIVE, cancel), exchanged(diff, null));
    }

    private int intersectAll(int l, int r) {
        int except = exceptAll(l, r);
        int neg = add(new NegateOperator(cancel), except);
        return add(new UnionOperator(cancel), l, neg);
    }

    /** Fuses the chain of Project/Filter nodes ending at {@code top} into one operator. */
    private int mapFilterProject(PlanNode top) {
        int in = node(FusedMfp.base(top));
        return add(new MapFilterProject(FusedMfp.stages(top, compiler, ctx), cancel), in);
    }
}
