package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.PgArray;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Collect;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Spool;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Translates Calcite's logical plan (after decorrelation) into the engine's {@link PlanNode}.
 * Stateless apart from the expression translator; one per statement.
 */
final class RelToPlan {
    private final RexToExpr rex;
    private final RecursiveCtes recursive = new RecursiveCtes();

    RelToPlan(RexToExpr rex) { this.rex = rex; }

    PlanNode translate(RelNode rel) {
        var setReturning = TableFunctions.translate(rel, rex, this::translate);
        if (setReturning.isPresent()) return setReturning.get();
        return switch (rel) {
            case TableScan scan when RecursiveCtes.isWorkingTable(scan) -> recursive.workingTable(scan);
            case RepeatUnion r -> recursive.translate(r, this::translate);
            case Spool s -> translate(s.getInput()); // the spools around a recursive CTE's terms
            case TableScan scan -> {
                var table = scan.getTable().unwrap(CatalogSchema.CatalogTable.class);
                if (table == null) throw RexToExpr.unsupported("scan of " + scan.getTable().getQualifiedName());
                var def = table.def();
                yield new PlanNode.Get(def.id(), def.name(), def.types());
            }
            case LogicalProject p -> {
                PlanNode in = translate(p.getInput());
                if (RexOver.containsOver(p.getProjects(), null)) yield new WindowToPlan(rex).translate(p, in);
                if (isIdentity(p.getProjects(), in.arity())) yield in;
                yield new PlanNode.Project(in, rex.translateAll(p.getProjects(), in.types()));
            }
            case LogicalFilter f -> {
                PlanNode in = translate(f.getInput());
                List<Expr> preds = new ArrayList<>();
                for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
                    preds.add(rex.translate(c, in.types()));
                }
                if (in instanceof PlanNode.Filter inner) {
                    List<Expr> all = new ArrayList<>(inner.predicates());
                    all.addAll(preds);
                    yield new PlanNode.Filter(inner.input(), all);
                }
                yield new PlanNode.Filter(in, preds);
            }
            case LogicalJoin j -> join(j);
            case LogicalAggregate a -> aggregate(a);
            case LogicalUnion u -> {
                List<PlanNode> ins = new ArrayList<>();
                for (RelNode i : u.getInputs()) ins.add(translate(i));
                yield new PlanNode.Union(ins, u.all);
            }
            case LogicalMinus m -> {
                PlanNode acc = translate(m.getInputs().get(0));
                for (int i = 1; i < m.getInputs().size(); i++) {
                    acc = new PlanNode.Except(acc, translate(m.getInputs().get(i)), m.all);
                }
                yield acc;
            }
            case LogicalIntersect m -> {
                PlanNode acc = translate(m.getInputs().get(0));
                for (int i = 1; i < m.getInputs().size(); i++) {
                    acc = new PlanNode.Intersect(acc, translate(m.getInputs().get(i)), m.all);
                }
                yield acc;
            }
            case LogicalValues v -> values(v);
            case LogicalSort s -> {
                PlanNode in = translate(s.getInput());
                if (s.fetch == null && s.offset == null) yield in; // ORDER BY inside a subquery has no effect
                yield new PlanNode.TopK(in, new int[0], sortKeys(s.getCollation()), constant(s.fetch, -1),
                        constant(s.offset, 0));
            }
            case LogicalTableFunctionScan t -> generateSeries(t);
            case Collect c -> collect(c);
            case Correlate c -> LateralCalls.translate(c, c.getLeft(), translate(c.getLeft()), rex);
            case LogicalWindow w -> throw RexToExpr.unsupported("window functions");
            default -> throw RexToExpr.unsupported("the query operator "
                    + rel.getRelTypeName().replaceFirst("^Logical", "").toLowerCase(Locale.ROOT));
        };
    }

    /**
     * {@code ARRAY(SELECT x ...)}: the one row holding the array of the subquery's values,
     * in the subquery's ORDER BY when it has one, the empty array when it has no rows.
     */
    private PlanNode collect(Collect c) {
        RelNode input = c.getInput();
        List<SortKey> order = List.of();
        PlanNode in;
        if (input instanceof LogicalSort s && s.fetch == null && s.offset == null && s.getInput().getRowType().getFieldCount() == 1) {
            order = sortKeys(s.getCollation());
            in = translate(s.getInput());
        } else if (input instanceof LogicalProject p && p.getProjects().size() == 1
                && p.getInput() instanceof LogicalSort s && s.fetch == null && s.offset == null) {
            // ORDER BY a column that is not selected: the value first, then the sorted input's columns.
            PlanNode sorted = translate(s.getInput());
            List<Expr> cols = new ArrayList<>();
            cols.add(rex.translate(p.getProjects().get(0), sorted.types()));
            for (int i = 0; i < sorted.arity(); i++) cols.add(new Expr.Column(i, sorted.types().get(i)));
            in = new PlanNode.Project(sorted, cols);
            order = new ArrayList<>();
            for (SortKey k : sortKeys(s.getCollation())) order.add(new SortKey(k.column() + 1, k.descending(), k.nullsFirst()));
            SqlType type = SqlType.arrayOf(in.types().get(0));
            return arrayOf(in, order, type);
        } else {
            in = translate(input);
        }
        if (in.arity() != 1) throw RexToExpr.unsupported("ARRAY(subquery) of more than one column");
        return arrayOf(in, order, SqlType.arrayOf(in.types().get(0)));
    }

    /** The one-row array of column 0 of {@code in}, ordered by {@code order}; empty for no rows. */
    private static PlanNode arrayOf(PlanNode in, List<SortKey> order, SqlType type) {
        AggCall agg = new AggCall(AggFunc.ARRAY_AGG, List.of(0), false, -1, order, type, "array");
        PlanNode reduce = new PlanNode.Reduce(in, new int[0], List.of(agg));
        Expr array = new Expr.Call(Func.COALESCE, List.of(new Expr.Column(0, type), new Expr.Literal(PgArray.empty(), type)), type);
        return new PlanNode.Project(reduce, List.of(array));
    }

    static boolean isIdentity(List<RexNode> exprs, int inputArity) {
        if (exprs.size() != inputArity) return false;
        for (int i = 0; i < exprs.size(); i++) {
            if (!(exprs.get(i) instanceof RexInputRef r) || r.getIndex() != i) return false;
        }
        return true;
    }

    static List<SortKey> sortKeys(RelCollation collation) {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation fc : collation.getFieldCollations()) {
            boolean desc = fc.direction.isDescending();
            boolean nullsFirst = switch (fc.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                default -> desc; // PostgreSQL: NULLs are larger than every value
            };
            keys.add(new SortKey(fc.getFieldIndex(), desc, nullsFirst));
        }
        return keys;
    }

    static long constant(RexNode n, long absent) {
        if (n == null) return absent;
        if (n instanceof RexLiteral l) {
            BigDecimal v = l.getValueAs(BigDecimal.class);
            if (v == null) return absent;
            return v.longValueExact();
        }
        throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                "LIMIT and OFFSET with parameters are only supported on the outermost query");
    }

    private PlanNode join(LogicalJoin j) {
        PlanNode left = translate(j.getLeft());
        PlanNode right = translate(j.getRight());
        int nLeft = left.arity();
        List<SqlType> both = new ArrayList<>(left.types());
        both.addAll(right.types());
        List<Integer> lk = new ArrayList<>();
        List<Integer> rk = new ArrayList<>();
        List<Expr> residual = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
            if (c.isAlwaysTrue()) continue;
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                    && call.getOperands().get(0) instanceof RexInputRef a
                    && call.getOperands().get(1) instanceof RexInputRef b) {
                int x = a.getIndex();
                int y = b.getIndex();
                if (x < nLeft && y >= nLeft && comparableKeys(both.get(x), both.get(y))) {
                    lk.add(x);
                    rk.add(y - nLeft);
                    continue;
                }
                if (y < nLeft && x >= nLeft && comparableKeys(both.get(y), both.get(x))) {
                    lk.add(y);
                    rk.add(x - nLeft);
                    continue;
                }
            }
            residual.add(rex.translate(c, both));
        }
        JoinKind kind = switch (j.getJoinType()) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case RIGHT -> JoinKind.RIGHT;
            case FULL -> JoinKind.FULL;
            case SEMI -> JoinKind.SEMI;
            case ANTI -> JoinKind.ANTI;
            default -> throw RexToExpr.unsupported("join type " + j.getJoinType().lowerName);
        };
        Expr res = residual.isEmpty() ? null
                : residual.size() == 1 ? residual.get(0)
                : new Expr.Call(Func.AND, residual, SqlType.BOOLEAN);
        return new PlanNode.Join(left, right, kind, lk.stream().mapToInt(Integer::intValue).toArray(),
                rk.stream().mapToInt(Integer::intValue).toArray(), res);
    }

    /** Equi-join keys must have the same kind so hashing and equality agree. */
    private static boolean comparableKeys(SqlType a, SqlType b) {
        return a.kind() == b.kind() || (a.kind().isString() && b.kind().isString());
    }

    private PlanNode aggregate(LogicalAggregate a) {
        PlanNode in = translate(a.getInput());
        if (a.getGroupType() != Aggregate.Group.SIMPLE) {
            return GroupingSets.expand(a, in, (keys, calls) -> aggregate(in, keys, calls));
        }
        return aggregate(in, a.getGroupSet().toArray(), a.getAggCallList());
    }

    /** A plain GROUP BY {@code keys} (input columns) computing {@code calls} over {@code in}. */
    private PlanNode aggregate(PlanNode in, int[] keys, List<AggregateCall> calls) {
        List<AggCall> aggs = new ArrayList<>();
        // Output columns after the Reduce: null when the Reduce's own column is used as is.
        List<Expr> post = new ArrayList<>();
        boolean needsPost = false;
        for (int k = 0; k < keys.length; k++) post.add(new Expr.Column(k, in.types().get(keys[k])));
        for (AggregateCall call : calls) {
            String name = call.getAggregation().getName().toUpperCase(Locale.ROOT);
            SqlType type = TypeMapping.fromRel(call.getType());
            List<Integer> args = call.getArgList();
            List<SortKey> order = sortKeys(call.getCollation());
            int filter = call.filterArg;
            if (name.equals("LITERAL_AGG")) {
                needsPost = true;
                RexLiteral lit = (RexLiteral) call.rexList.get(0);
                post.add(RexToExpr.literal(lit, TypeMapping.fromRel(lit.getType())));
                continue;
            }
            AggFunc f = switch (name) {
                case "COUNT" -> args.isEmpty() ? AggFunc.COUNT_STAR : AggFunc.COUNT;
                case "SUM" -> AggFunc.SUM;
                case "$SUM0" -> AggFunc.SUM;
                case "AVG" -> AggFunc.AVG;
                case "MIN" -> AggFunc.MIN;
                case "MAX" -> AggFunc.MAX;
                case "BOOL_AND", "EVERY" -> AggFunc.BOOL_AND;
                case "BOOL_OR", "SOME" -> AggFunc.BOOL_OR;
                case "STRING_AGG", "LISTAGG" -> AggFunc.STRING_AGG;
                case "SINGLE_VALUE" -> AggFunc.SINGLE_VALUE;
                case "STDDEV", "STDDEV_SAMP" -> AggFunc.STDDEV_SAMP;
                case "STDDEV_POP" -> AggFunc.STDDEV_POP;
                case "VARIANCE", "VAR_SAMP" -> AggFunc.VAR_SAMP;
                case "VAR_POP" -> AggFunc.VAR_POP;
                case "ARRAY_AGG" -> AggFunc.ARRAY_AGG;
                case "JSONB_AGG" -> AggFunc.JSONB_AGG;
                case "JSONB_OBJECT_AGG" -> AggFunc.JSONB_OBJECT_AGG;
                default -> throw RexToExpr.unsupported("aggregate function " + name.toLowerCase(Locale.ROOT));
            };
            if (f == AggFunc.MIN || f == AggFunc.MAX || f == AggFunc.SINGLE_VALUE) {
                type = in.types().get(args.get(0)); // exactly the input's type, modifiers included
            }
            if (f == AggFunc.ARRAY_AGG) type = SqlType.arrayOf(in.types().get(args.get(0)));
            if (f == AggFunc.COUNT && call.getArgList().size() > 1) {
                throw RexToExpr.unsupported("count with several arguments");
            }
            int col = keys.length + aggs.size();
            aggs.add(new AggCall(f, args, call.isDistinct(), filter, order, type,
                    call.getName() == null ? name.toLowerCase(Locale.ROOT) : PgSqlRewriter.displayName(call.getName())));
            if (name.equals("$SUM0")) {
                needsPost = true;
                Expr zero = new Expr.Literal(zeroOf(type), type);
                post.add(new Expr.Call(Func.COALESCE, List.of(new Expr.Column(col, type), zero), type));
            } else {
                post.add(new Expr.Column(col, type));
            }
        }
        PlanNode reduce = new PlanNode.Reduce(in, keys, aggs);
        return needsPost ? new PlanNode.Project(reduce, post) : reduce;
    }

    private static Object zeroOf(SqlType t) {
        return switch (t.kind()) {
            case SMALLINT -> (short) 0;
            case INTEGER -> 0;
            case BIGINT -> 0L;
            case REAL -> 0f;
            case DOUBLE -> 0d;
            default -> BigDecimal.ZERO;
        };
    }

    private PlanNode values(LogicalValues v) {
        List<SqlType> types = new ArrayList<>();
        for (var f : v.getRowType().getFieldList()) types.add(TypeMapping.fromRel(f.getType()));
        List<Row> rows = new ArrayList<>();
        for (var tuple : v.getTuples()) {
            Object[] vals = new Object[tuple.size()];
            for (int i = 0; i < tuple.size(); i++) vals[i] = RexToExpr.literal(tuple.get(i), types.get(i)).value();
            rows.add(Row.of(vals));
        }
        return new PlanNode.Constant(rows, types);
    }

    private PlanNode generateSeries(LogicalTableFunctionScan t) {
        if (!(t.getCall() instanceof RexCall call)
                || !call.getOperator().getName().equalsIgnoreCase("generate_series")) {
            throw RexToExpr.unsupported("table function " + t.getCall());
        }
        if (!t.getInputs().isEmpty() || RexUtil.containsCorrelation(call)) {
            throw RexToExpr.unsupported("generate_series with arguments from other tables (LATERAL)");
        }
        List<Expr> args = rex.translateAll(call.getOperands(), List.of());
        SqlType type = TypeMapping.fromRel(t.getRowType().getFieldList().get(0).getType());
        return new PlanNode.GenerateSeries(args, type);
    }

}
