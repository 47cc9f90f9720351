package io.stillwater.engine.plan;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.TableFunction;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * A relational plan: the closed set of nodes the SQL front end produces from Calcite's
 * plan and the dataflow layer turns into operators. Every node's output is a multiset
 * of rows with the column types {@link #types()}.
 *
 * <p>Plans are immutable values. Column references in expressions are positional in the
 * node's input (for {@link Join}: left columns then right columns).
 */
public sealed interface PlanNode {
    List<SqlType> types();

    default int arity() { return types().size(); }

    /** The contents of a stored collection (a table now; views and indexes later). */
    record Get(long objectId, String name, List<SqlType> types) implements PlanNode {
        public Get { types = List.copyOf(types); }
    }

    /** A constant multiset (VALUES, SELECT without FROM). */
    record Constant(List<Row> rows, List<SqlType> types) implements PlanNode {
        public Constant { rows = List.copyOf(rows); types = List.copyOf(types); }
    }

    /** Computes {@code exprs} over each input row: output column i is exprs[i]. */
    record Project(PlanNode input, List<Expr> exprs) implements PlanNode {
        public Project { exprs = List.copyOf(exprs); }

        @Override
        public List<SqlType> types() { return exprs.stream().map(Expr::type).toList(); }
    }

    /** Keeps the rows for which every predicate is true (not false, not NULL). */
    record Filter(PlanNode input, List<Expr> predicates) implements PlanNode {
        public Filter { predicates = List.copyOf(predicates); }

        @Override
        public List<SqlType> types() { return input.types(); }
    }

    /**
     * Joins on {@code leftKeys[i] = rightKeys[i]} (SQL equality: NULL keys never match)
     * and then {@code residual} (null when absent) over the concatenated row. A cross
     * join has no keys and no residual. Outer joins pad the missing side with NULLs;
     * SEMI/ANTI output left rows that have / have no match.
     */
    record Join(PlanNode left, PlanNode right, JoinKind kind, int[] leftKeys, int[] rightKeys, Expr residual)
            implements PlanNode {
        @Override
        public List<SqlType> types() {
            if (kind == JoinKind.SEMI || kind == JoinKind.ANTI) return left.types();
            var out = new ArrayList<>(left.types());
            out.addAll(right.types());
            return List.copyOf(out);
        }
    }

    /**
     * Groups by {@code groupKeys} and computes {@code aggs}; output is the group key
     * columns followed by one column per aggregate. With no group keys the output is
     * exactly one row, even over empty input (SQL's global aggregate).
     */
    record Reduce(PlanNode input, int[] groupKeys, List<AggCall> aggs) implements PlanNode {
        public Reduce { aggs = List.copyOf(aggs); }

        @Override
        public List<SqlType> types() {
            var out = new ArrayList<SqlType>();
            for (int k : groupKeys) out.add(input.types().get(k));
            for (AggCall a : aggs) out.add(a.type());
            return List.copyOf(out);
        }
    }

    /** Removes duplicate rows. */
    record Distinct(PlanNode input) implements PlanNode {
        @Override
        public List<SqlType> types() { return input.types(); }
    }

    /** UNION [ALL] of inputs with equal types. */
    record Union(List<PlanNode> inputs, boolean all) implements PlanNode {
        public Union { inputs = List.copyOf(inputs); }

        @Override
        public List<SqlType> types() { return inputs.get(0).types(); }
    }

    /** {@code left EXCEPT [ALL] right}. */
    record Except(PlanNode left, PlanNode right, boolean all) implements PlanNode {
        @Override
        public List<SqlType> types() { return left.types(); }
    }

    /** {@code left INTERSECT [ALL] right}. */
    record Intersect(PlanNode left, PlanNode right, boolean all) implements PlanNode {
        @Override
        public List<SqlType> types() { return left.types(); }
    }

    /**
     * Per group of {@code groupKeys} (all rows when empty), keeps the rows at positions
     * {@code [offset, offset + limit)} in {@code order}; {@code limit} -1 means no limit.
     * Ties are broken by the whole row so the result is deterministic.
     */
    record TopK(PlanNode input, int[] groupKeys, List<SortKey> order, long limit, long offset)
            implements PlanNode {
        public TopK { order = List.copyOf(order); }

        @Override
        public List<SqlType> types() { return input.types(); }
    }

    /**
     * Window functions: every input row, followed by one column per call, computed over the
     * row's partition (the rows equal on {@code partitionKeys}; all rows when empty) ordered
     * by {@code order} (peers: rows equal on every order key). Rows that are peers and
     * otherwise identical are ordered by the whole row, so results are deterministic.
     */
    record Window(PlanNode input, int[] partitionKeys, List<SortKey> order, List<WindowCall> calls)
            implements PlanNode {
        public Window { order = List.copyOf(order); calls = List.copyOf(calls); }

        @Override
        public List<SqlType> types() {
            var out = new ArrayList<>(input.types());
            for (WindowCall c : calls) out.add(c.type());
            return List.copyOf(out);
        }
    }

    /**
     * A set-returning function applied to each input row ({@code FROM t, unnest(t.tags)},
     * {@code SELECT unnest(tags) FROM t}): each input row followed by each row the
     * function returns for {@code args} evaluated over that input row. Linear: an input
     * change becomes its output rows with the same diff, so maintaining it needs no state.
     * With {@code outer} an input row for which the function returns no rows keeps one
     * row padded with NULLs ({@code LEFT JOIN LATERAL f(...) ON true}). {@code columns}
     * are the function's column types.
     */
    record FlatMap(PlanNode input, TableFunction function, List<Expr> args, List<SqlType> columns, boolean outer)
            implements PlanNode {
        public FlatMap { args = List.copyOf(args); columns = List.copyOf(columns); }

        @Override
        public List<SqlType> types() {
            List<SqlType> out = new ArrayList<>(input.types());
            out.addAll(columns);
            return List.copyOf(out);
        }
    }

    /**
     * {@code generate_series(start, stop [, step])} as a table function: one column of
     * the argument type (integer, bigint, numeric, or timestamp with an interval step).
     * Arguments are constant expressions (evaluated once).
     */
    record GenerateSeries(List<Expr> args, SqlType type) implements PlanNode {
        public GenerateSeries { args = List.copyOf(args); }

        @Override
        public List<SqlType> types() { return List.of(type); }
    }

    /**
     * {@code FROM t, LATERAL generate_series(a, b [, c])}: every input row followed by each
     * value of the series its own arguments give ({@code args} read the input row); with
     * {@code outer} (LEFT JOIN LATERAL ... ON true) a row whose series is empty is kept
     * once, followed by NULL. Linear: a change to the input changes only its own rows.
     */
    record LateralSeries(PlanNode input, List<Expr> args, SqlType type, boolean outer) implements PlanNode {
        public LateralSeries { args = List.copyOf(args); }

        @Override
        public List<SqlType> types() {
            List<SqlType> out = new java.util.ArrayList<>(input.types());
            out.add(type);
            return out;
        }
    }

    /**
     * {@code WITH RECURSIVE}: {@code base UNION [ALL] step}, iterated to a fixpoint as
     * PostgreSQL does. {@code step} reads the rows the previous iteration added through
     * {@code Get(workingId)} ({@code workingId} is negative: it names no stored
     * collection); each iteration's new rows feed the next, and the iteration stops when
     * it adds none. With {@code all} false, rows already in the result are not added again.
     */
    record Recursive(PlanNode base, PlanNode step, long workingId, boolean all, List<SqlType> types)
            implements PlanNode {
        public Recursive { types = List.copyOf(types); }
    }
}
