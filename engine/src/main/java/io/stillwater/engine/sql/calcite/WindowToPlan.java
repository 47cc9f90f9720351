package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.plan.WindowCall;
import io.stillwater.engine.plan.WindowFrame;
import io.stillwater.engine.plan.WindowFunc;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexFieldCollation;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexWindow;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Translates a projection with window functions ({@link RexOver}, as Calcite's SqlToRel
 * leaves them) into {@link PlanNode.Window} nodes:
 * <pre>
 *   Project(exprs with RexOver)  ⇒  Project(exprs, each RexOver a column of the windows)
 *                                     └ Window (one per distinct PARTITION BY + ORDER BY)
 *                                        └ ... └ Project(input columns, then the window operands)
 * </pre>
 * The bottom projection computes every argument, partition key and order key that is not
 * a plain input column; each Window node appends its functions' columns, so column
 * numbers of the layers below stay valid above. Frames are per function (one Window node
 * serves windows that differ only in their frame).
 */
final class WindowToPlan {
    private final RexToExpr rex;

    WindowToPlan(RexToExpr rex) { this.rex = rex; }

    /** One window node being built: its partition and order, and its calls with the RexOvers they compute. */
    private record Layer(int[] partition, List<SortKey> order, List<WindowCall> calls, List<RexOver> overs) {}

    PlanNode translate(LogicalProject p, PlanNode in) {
        RexBuilder rb = p.getCluster().getRexBuilder();
        // Every distinct window call in the projection (Calcite shares equal RexOvers by digest).
        Map<String, RexOver> overs = new LinkedHashMap<>();
        for (RexNode e : p.getProjects()) {
            e.accept(new RexShuttle() {
                @Override
                public RexNode visitOver(RexOver over) {
                    overs.putIfAbsent(over.toString(), over);
                    return over;
                }
            });
        }
        // The bottom projection: the input's columns, then the operands that are expressions.
        List<Expr> base = new ArrayList<>();
        for (int i = 0; i < in.arity(); i++) base.add(new Expr.Column(i, in.types().get(i)));
        Map<String, Integer> operandColumns = new LinkedHashMap<>();
        Map<String, Layer> layers = new LinkedHashMap<>();
        for (RexOver over : overs.values()) {
            RexWindow w = over.getWindow();
            int[] partition = new int[w.partitionKeys.size()];
            for (int k = 0; k < partition.length; k++) partition[k] = column(w.partitionKeys.get(k), in, base, operandColumns);
            List<SortKey> order = new ArrayList<>();
            for (RexFieldCollation fc : w.orderKeys) {
                int col = column(fc.left, in, base, operandColumns);
                boolean desc = fc.getDirection().isDescending();
                boolean nullsFirst = switch (fc.getNullDirection()) {
                    case FIRST -> true;
                    case LAST -> false;
                    default -> desc; // PostgreSQL: NULLs are larger than every value
                };
                order.add(new SortKey(col, desc, nullsFirst));
            }
            List<Integer> args = new ArrayList<>();
            for (RexNode o : over.getOperands()) args.add(column(o, in, base, operandColumns));
            String layerKey = java.util.Arrays.toString(partition) + order;
            Layer layer = layers.computeIfAbsent(layerKey, k -> new Layer(partition, order, new ArrayList<>(), new ArrayList<>()));
            layer.calls().add(call(over, args, frame(w, order, base), base));
            layer.overs().add(over);
        }
        PlanNode node = new PlanNode.Project(in, base);
        Map<String, Integer> overColumns = new LinkedHashMap<>();
        for (Layer layer : layers.values()) {
            int first = node.arity();
            node = new PlanNode.Window(node, layer.partition(), layer.order(), layer.calls());
            for (int k = 0; k < layer.overs().size(); k++) overColumns.put(layer.overs().get(k).toString(), first + k);
        }
        // The projection on top: each window call replaced by its column.
        List<SqlType> types = node.types();
        RexShuttle replace = new RexShuttle() {
            @Override
            public RexNode visitOver(RexOver over) {
                int col = overColumns.get(over.toString());
                RexNode ref = new RexInputRef(col, over.getType());
                if (over.getAggOperator().getKind() == SqlKind.SUM0) {
                    // $SUM0 (Calcite's sum that is 0 over no rows) is sum with NULL read as 0.
                    return rb.makeCall(SqlStdOperatorTable.COALESCE, ref, rb.makeZeroLiteral(over.getType()));
                }
                return ref;
            }
        };
        List<Expr> top = new ArrayList<>();
        for (RexNode e : p.getProjects()) top.add(rex.translate(e.accept(replace), types));
        return new PlanNode.Project(node, top);
    }

    /** The bottom projection's column computing {@code e}: an input column as is, else an added expression. */
    private int column(RexNode e, PlanNode in, List<Expr> base, Map<String, Integer> added) {
        if (e instanceof RexInputRef r) return r.getIndex();
        return added.computeIfAbsent(e.toString(), k -> {
            base.add(rex.translate(e, in.types()));
            return base.size() - 1;
        });
    }

    private static WindowCall call(RexOver over, List<Integer> args, WindowFrame frame, List<Expr> base) {
        if (over.isDistinct()) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED, "DISTINCT is not implemented for window functions");
        }
        if (over.ignoreNulls()) {
            throw RexToExpr.unsupported("IGNORE NULLS in window functions");
        }
        SqlType type = TypeMapping.fromRel(over.getType());
        String name = over.getAggOperator().getName().toLowerCase(Locale.ROOT);
        WindowFunc func = switch (over.getAggOperator().getKind()) {
            case ROW_NUMBER -> WindowFunc.ROW_NUMBER;
            case RANK -> WindowFunc.RANK;
            case DENSE_RANK -> WindowFunc.DENSE_RANK;
            case PERCENT_RANK -> WindowFunc.PERCENT_RANK;
            case CUME_DIST -> WindowFunc.CUME_DIST;
            case NTILE -> WindowFunc.NTILE;
            case LAG -> WindowFunc.LAG;
            case LEAD -> WindowFunc.LEAD;
            case FIRST_VALUE -> WindowFunc.FIRST_VALUE;
            case LAST_VALUE -> WindowFunc.LAST_VALUE;
            case NTH_VALUE -> WindowFunc.NTH_VALUE;
            default -> WindowFunc.AGGREGATE;
        };
        if (func != WindowFunc.AGGREGATE) {
            if (func == WindowFunc.FIRST_VALUE || func == WindowFunc.LAST_VALUE || func == WindowFunc.NTH_VALUE
                    || func == WindowFunc.LAG || func == WindowFunc.LEAD) {
                type = base.get(args.get(0)).type(); // the value's own type, modifiers included
            }
            return new WindowCall(func, args, null, frame, type, name);
        }
        AggFunc agg = switch (name.toUpperCase(Locale.ROOT)) {
            case "COUNT" -> args.isEmpty() ? AggFunc.COUNT_STAR : AggFunc.COUNT;
            case "SUM", "$SUM0" -> AggFunc.SUM;
            case "AVG" -> AggFunc.AVG;
            case "MIN" -> AggFunc.MIN;
            case "MAX" -> AggFunc.MAX;
            case "BOOL_AND", "EVERY" -> AggFunc.BOOL_AND;
            case "BOOL_OR", "SOME" -> AggFunc.BOOL_OR;
            case "STRING_AGG", "LISTAGG" -> AggFunc.STRING_AGG;
            case "STDDEV", "STDDEV_SAMP" -> AggFunc.STDDEV_SAMP;
            case "STDDEV_POP" -> AggFunc.STDDEV_POP;
            case "VARIANCE", "VAR_SAMP" -> AggFunc.VAR_SAMP;
            case "VAR_POP" -> AggFunc.VAR_POP;
            default -> throw RexToExpr.unsupported("aggregate function " + name + " over a window");
        };
        if (agg == AggFunc.MIN || agg == AggFunc.MAX) type = base.get(args.get(0)).type();
        if (name.equals("$sum0")) name = "sum";
        AggCall call = new AggCall(agg, args, false, -1, List.of(), type, name);
        return new WindowCall(WindowFunc.AGGREGATE, List.of(), call, frame, type, name);
    }

    private static WindowFrame frame(RexWindow w, List<SortKey> order, List<Expr> base) {
        WindowFrame.Unit unit = w.isRows() ? WindowFrame.Unit.ROWS : WindowFrame.Unit.RANGE;
        WindowFrame.Bound start = bound(w.getLowerBound(), unit);
        WindowFrame.Bound end = bound(w.getUpperBound(), unit);
        if (unit == WindowFrame.Unit.ROWS && (groupsOffset(start) || groupsOffset(end))) {
            // A GROUPS frame as PgTokens respelled it: ROWS with biased offsets.
            unit = WindowFrame.Unit.GROUPS;
            start = unbiased(start);
            end = unbiased(end);
        }
        if (unit == WindowFrame.Unit.RANGE && (start.offset() != null || end.offset() != null)) {
            if (order.size() != 1) {
                throw new SqlException(SqlState.WINDOWING_ERROR,
                        "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
            }
            SqlType t = base.get(order.get(0).column()).type();
            if (!t.kind().isNumeric()) {
                throw RexToExpr.unsupported("RANGE with offset PRECEDING/FOLLOWING over " + t.kind().name().toLowerCase(Locale.ROOT));
            }
        }
        WindowFrame.Exclusion exclusion = switch (w.getExclude()) {
            case EXCLUDE_NO_OTHER -> WindowFrame.Exclusion.NO_OTHERS;
            case EXCLUDE_CURRENT_ROW -> WindowFrame.Exclusion.CURRENT_ROW;
            case EXCLUDE_GROUP -> WindowFrame.Exclusion.GROUP;
            case EXCLUDE_TIES -> WindowFrame.Exclusion.TIES;
        };
        return new WindowFrame(unit, start, end, exclusion);
    }

    private static boolean groupsOffset(WindowFrame.Bound b) {
        return b.offset() instanceof Long n && n >= WindowRewrites.GROUPS_OFFSET_BIAS;
    }

    private static WindowFrame.Bound unbiased(WindowFrame.Bound b) {
        if (b.offset() == null) return b;
        return new WindowFrame.Bound(b.kind(), (Long) b.offset() - WindowRewrites.GROUPS_OFFSET_BIAS);
    }

    private static WindowFrame.Bound bound(RexWindowBound b, WindowFrame.Unit unit) {
        if (b.isCurrentRow()) return WindowFrame.Bound.CURRENT_ROW;
        if (b.isUnbounded()) return b.isPreceding() ? WindowFrame.Bound.UNBOUNDED_PRECEDING : WindowFrame.Bound.UNBOUNDED_FOLLOWING;
        if (!(b.getOffset() instanceof RexLiteral lit)) {
            throw RexToExpr.unsupported("a window frame offset that is not a constant");
        }
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        if (v == null) {
            throw new SqlException(SqlState.NULL_VALUE_NOT_ALLOWED, "frame starting or ending offset must not be null");
        }
        if (v.signum() < 0) {
            throw new SqlException(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                    "frame starting or ending offset must not be negative");
        }
        Object offset = unit == WindowFrame.Unit.RANGE ? v : (Object) v.longValue();
        return new WindowFrame.Bound(b.isPreceding() ? WindowFrame.BoundKind.PRECEDING : WindowFrame.BoundKind.FOLLOWING,
                offset);
    }
}
