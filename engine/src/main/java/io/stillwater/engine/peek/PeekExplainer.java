package io.stillwater.engine.peek;

import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * The text of {@code EXPLAIN}: one line per output row. Format:
 * <pre>
 * Explained Query (fast path lookup):
 *   Finish order_by=[#0 asc nulls_last] limit=3 output=[#0]
 *     Project (#0)
 *       Filter (#1 = 5)
 *         ReadIndex t_b_idx (u1004) on t (u1002) lookup=[(5)]
 *
 * Used Indexes:
 *   - t_b_idx (u1004) on t (u1002) key=(#1) (lookup)
 * Read From Tables:
 *   - t2 (u1003)
 * </pre>
 * The header names the path: {@code constant}, {@code fast path lookup}, {@code fast path
 * walk} or {@code peek dataflow}. The tree is the plan, two spaces of indentation per
 * level; leaves say where rows come from ({@code ReadIndex} for an export's arrangement,
 * {@code ReadTable} for a table snapshot, {@code ReadBuiltin} for a built-in relation).
 * Columns are {@code #i} (positional in the node's input). {@code Used Indexes} lists the
 * exports read (indexes and materialized views) with their keys and how each is read
 * ({@code lookup}, {@code walk} or {@code import}); {@code Read From Tables} lists tables
 * read from their own snapshots; sections with no entries are left out.
 */
public final class PeekExplainer {
    private final ObjectNames names;

    public PeekExplainer(ObjectNames names) { this.names = names; }

    /** The EXPLAIN rows (one line each) for {@code plan}. */
    public List<String> explain(PeekPlan plan) { return explain(plan, null); }

    /**
     * The EXPLAIN rows for {@code plan}, with a first {@code Finish} line for the query's
     * ORDER BY / LIMIT / OFFSET and output columns when {@code query} has any.
     */
    public List<String> explain(PeekPlan plan, QueryPlan query) {
        return explain(plan, query, Optional.empty());
    }

    /**
     * As {@link #explain(PeekPlan, QueryPlan)}, ending with {@code Target Runtime: <runtime>}
     * (after a blank line) when {@code runtime} is known: which runtime of the session's
     * replica would serve the read now ({@code solo}, {@code maintenance} or {@code
     * interactive}). Constants are served by no replica and never get the line.
     */
    public List<String> explain(PeekPlan plan, QueryPlan query,
                                Optional<ComputeRuntime> runtime) {
        List<String> out = explainPlan(plan, query);
        if (runtime.isPresent() && !(plan instanceof PeekPlan.Constant)) {
            out.add("");
            out.add("Target Runtime: " + runtime.get().label());
        }
        return out;
    }

    private List<String> explainPlan(PeekPlan plan, QueryPlan query) {
        List<String> out = new ArrayList<>();
        out.add("Explained Query (" + plan.pathName() + "):");
        int depth = 1;
        if (query != null) {
            String finish = finish(query, plan.body().arity());
            if (finish != null) {
                out.add("  " + finish);
                depth = 2;
            }
        }
        node(plan, plan.body(), depth, out);
        List<String> used = new ArrayList<>();
        for (CollectionReader r : plan.exports().values()) {
            String how = switch (plan) {
                case PeekPlan.FastPathLookup l -> "lookup";
                case PeekPlan.FastPathWalk w -> "walk";
                default -> "import";
            };
            used.add("  - " + exportName(r) + " key=(" + exprs(r.key()) + ") (" + how + ")");
        }
        List<String> tables = new ArrayList<>();
        for (long id : new TreeSet<>(plan.tables())) tables.add("  - " + names.describe(id));
        if (!used.isEmpty() || !tables.isEmpty()) out.add("");
        if (!used.isEmpty()) {
            out.add("Used Indexes:");
            out.addAll(used);
        }
        if (!tables.isEmpty()) {
            out.add("Read From Tables:");
            out.addAll(tables);
        }
        return out;
    }

    /** {@code Finish order_by=[#0 asc nulls_last] limit=3 output=[#0, #1]}, or null when there is nothing to finish. */
    private static String finish(QueryPlan q, int bodyArity) {
        boolean project = q.columnNames().size() < bodyArity;
        if (q.order().isEmpty() && q.limit() < 0 && q.offset() == 0 && !project) return null;
        StringBuilder b = new StringBuilder("Finish");
        if (!q.order().isEmpty()) b.append(" order_by=[").append(order(q.order())).append(']');
        if (q.limit() >= 0) b.append(" limit=").append(q.limit());
        if (q.offset() > 0) b.append(" offset=").append(q.offset());
        StringJoiner cols = new StringJoiner(", ");
        for (int i = 0; i < q.columnNames().size(); i++) cols.add("#" + i);
        return b.append(" output=[").append(cols).append(']').toString();
    }

    private static String order(List<SortKey> keys) {
        StringJoiner order = new StringJoiner(", ");
        for (SortKey k : keys) {
            order.add("#" + k.column() + (k.descending() ? " desc" : " asc") + (k.nullsFirst() ? " nulls_first" : " nulls_last"));
        }
        return order.toString();
    }

    private String exportName(CollectionReader r) {
        return names.describe(r.exportId()) + " on " + names.describe(r.collectionId());
    }

    private void node(PeekPlan plan, PlanNode n, int depth, List<String> out) {
        String pad = "  ".repeat(depth);
        switch (n) {
            case PlanNode.Get g when g.objectId() < 0 -> out.add(pad + "WorkingTable " + g.name() + " id=" + g.objectId());
            case PlanNode.Get g -> out.add(pad + leaf(plan, g));
            case PlanNode.Constant c -> {
                out.add(pad + "Constant" + (c.rows().isEmpty() ? " <empty>" : ""));
                int shown = 0;
                for (Row r : c.rows()) {
                    if (shown++ == 10) {
                        out.add(pad + "  - ... (" + c.rows().size() + " rows)");
                        break;
                    }
                    out.add(pad + "  - " + row(r, c));
                }
            }
            case PlanNode.Project p -> {
                out.add(pad + "Project (" + exprs(p.exprs()) + ")");
                node(plan, p.input(), depth + 1, out);
            }
            case PlanNode.Filter f -> {
                StringJoiner j = new StringJoiner(" AND ");
                for (Expr e : f.predicates()) j.add(unparenthesized(expr(e)));
                out.add(pad + "Filter (" + j + ")");
                node(plan, f.input(), depth + 1, out);
            }
            case PlanNode.Join j -> {
                StringJoiner on = new StringJoiner(" AND ");
                int leftArity = j.left().arity();
                for (int i = 0; i < j.leftKeys().length; i++) {
                    on.add("#" + j.leftKeys()[i] + " = #" + (leftArity + j.rightKeys()[i]));
                }
                if (j.residual() != null) on.add(expr(j.residual()));
                String cond = on.length() == 0 ? "" : " on=(" + on + ")";
                out.add(pad + "Join kind=" + j.kind().name().toLowerCase(Locale.ROOT) + cond);
                node(plan, j.left(), depth + 1, out);
                node(plan, j.right(), depth + 1, out);
            }
            case PlanNode.Reduce r -> {
                StringJoiner aggs = new StringJoiner(", ");
                for (AggCall a : r.aggs()) aggs.add(agg(a));
                out.add(pad + "Reduce group_by=[" + columns(r.groupKeys()) + "] aggregates=[" + aggs + "]");
                node(plan, r.input(), depth + 1, out);
            }
            case PlanNode.Distinct d -> {
                out.add(pad + "Distinct");
                node(plan, d.input(), depth + 1, out);
            }
            case PlanNode.Union u -> {
                out.add(pad + (u.all() ? "Union all" : "Union"));
                for (PlanNode i : u.inputs()) node(plan, i, depth + 1, out);
            }
            case PlanNode.Except e -> {
                out.add(pad + (e.all() ? "Except all" : "Except"));
                node(plan, e.left(), depth + 1, out);
                node(plan, e.right(), depth + 1, out);
            }
            case PlanNode.Intersect i -> {
                out.add(pad + (i.all() ? "Intersect all" : "Intersect"));
                node(plan, i.left(), depth + 1, out);
                node(plan, i.right(), depth + 1, out);
            }
            case PlanNode.TopK t -> {
                String order = order(t.order());
                out.add(pad + "TopK group_by=[" + columns(t.groupKeys()) + "] order_by=[" + order + "]"
                        + (t.limit() >= 0 ? " limit=" + t.limit() : "") + (t.offset() > 0 ? " offset=" + t.offset() : ""));
                node(plan, t.input(), depth + 1, out);
            }
            case PlanNode.GenerateSeries s -> out.add(pad + "GenerateSeries (" + exprs(s.args()) + ")");
            case PlanNode.LateralSeries s -> {
                out.add(pad + "LateralSeries" + (s.outer() ? " outer" : "") + " (" + exprs(s.args()) + ")");
                node(plan, s.input(), depth + 1, out);
            }
            case PlanNode.Window w -> {
                StringJoiner calls = new StringJoiner(", ");
                for (var c : w.calls()) calls.add(c.name() + (c.func().usesFrame() ? " " + c.frame() : ""));
                out.add(pad + "Window partition_by=[" + columns(w.partitionKeys()) + "] order_by=[" + order(w.order())
                        + "] functions=[" + calls + "]");
                node(plan, w.input(), depth + 1, out);
            }
            case PlanNode.FlatMap f -> {
                out.add(pad + "FlatMap " + f.function().sqlName() + "(" + exprs(f.args()) + ")" + (f.outer() ? " outer" : ""));
                node(plan, f.input(), depth + 1, out);
            }
            case PlanNode.Recursive r -> {
                out.add(pad + "Recursive" + (r.all() ? " all" : "") + " working=" + r.workingId());
                node(plan, r.base(), depth + 1, out);
                node(plan, r.step(), depth + 1, out);
            }
        }
    }

    private String leaf(PeekPlan plan, PlanNode.Get g) {
        switch (plan) {
            case PeekPlan.FastPathLookup l -> {
                StringJoiner keys = new StringJoiner(", ");
                for (Row k : l.keys()) keys.add(keyRow(k, l.export()));
                return "ReadIndex " + exportName(l.export()) + " lookup=[" + keys + "]";
            }
            case PeekPlan.FastPathWalk w -> {
                return "ReadIndex " + exportName(w.export()) + " walk";
            }
            case PeekPlan.PeekDataflow d -> {
                CollectionReader r = d.imports().get(g.objectId());
                if (r != null) return "ReadIndex " + exportName(r);
                if (d.systemRelations().contains(g.objectId())) return "ReadBuiltin " + g.name() + " (s" + g.objectId() + ")";
                return "ReadTable " + names.describe(g.objectId());
            }
            case PeekPlan.Constant c -> {
                return "Get " + g.name();
            }
        }
    }

    private static String keyRow(Row k, CollectionReader export) {
        StringJoiner j = new StringJoiner(", ", "(", ")");
        for (int i = 0; i < k.arity(); i++) j.add(literal(k.get(i), export.key().get(i).type().kind(), export.key().get(i)));
        return j.toString();
    }

    private static String row(Row r, PlanNode.Constant c) {
        StringJoiner j = new StringJoiner(", ", "(", ")");
        for (int i = 0; i < r.arity(); i++) j.add(literal(r.get(i), c.types().get(i).kind(), null));
        return j.toString();
    }

    private static String literal(Object v, TypeKind kind, Expr typed) {
        if (v == null) return "null";
        String text = DatumText.format(typed == null ? SqlType.of(kind) : typed.type(), v);
        return kind.isNumeric() || kind == TypeKind.BOOLEAN ? text : "'" + text.replace("'", "''") + "'";
    }

    private static String agg(AggCall a) {
        StringJoiner args = new StringJoiner(", ");
        for (int c : a.args()) args.add("#" + c);
        String name = a.func().name().toLowerCase(Locale.ROOT);
        if (name.equals("count_star")) return "count(*)" + filter(a);
        return name + "(" + (a.distinct() ? "distinct " : "") + args + ")" + filter(a);
    }

    private static String filter(AggCall a) { return a.filterColumn() >= 0 ? " filter (#" + a.filterColumn() + ")" : ""; }

    private static String columns(int[] cols) {
        StringJoiner j = new StringJoiner(", ");
        for (int c : cols) j.add("#" + c);
        return j.toString();
    }

    /** Drops one pair of parentheses around the whole text, when they enclose all of it. */
    private static String unparenthesized(String text) {
        if (!text.startsWith("(") || !text.endsWith(")")) return text;
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                int close = text.indexOf('\'', i + 1);
                while (close >= 0 && close + 1 < text.length() && text.charAt(close + 1) == '\'') close = text.indexOf('\'', close + 2);
                if (close < 0) return text;
                i = close;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0 && i < text.length() - 1) {
                return text;
            }
        }
        return text.substring(1, text.length() - 1);
    }

    /** A comma-separated list; each item loses its outer parentheses (the commas delimit them). */
    static String exprs(List<Expr> es) {
        StringJoiner j = new StringJoiner(", ");
        for (Expr e : es) j.add(unparenthesized(expr(e)));
        return j.toString();
    }

    /** An expression as EXPLAIN prints it: {@code #i} for columns, infix operators, SQL literals. */
    static String expr(Expr e) {
        return switch (e) {
            case Expr.Column c -> "#" + c.index();
            case Expr.Literal l -> literal(l.value(), l.type().kind(), l);
            case Expr.Param p -> "$" + (p.index() + 1);
            case Expr.Cast c -> expr(c.input()) + "::" + c.type().displayName();
            case Expr.Case c -> {
                StringBuilder b = new StringBuilder("case");
                for (int i = 0; i < c.conds().size(); i++) {
                    b.append(" when ").append(expr(c.conds().get(i))).append(" then ").append(expr(c.results().get(i)));
                }
                if (c.otherwise() != null) b.append(" else ").append(expr(c.otherwise()));
                yield b.append(" end").toString();
            }
            case Expr.Call c -> call(c);
        };
    }

    private static String call(Expr.Call c) {
        String op = switch (c.func()) {
            case PLUS -> "+"; case MINUS -> "-"; case TIMES -> "*"; case DIVIDE -> "/"; case MOD -> "%";
            case EQ -> "="; case NE -> "!="; case LT -> "<"; case LE -> "<="; case GT -> ">"; case GE -> ">=";
            case AND -> "AND"; case OR -> "OR"; case CONCAT_OP -> "||";
            case LIKE -> "LIKE"; case NOT_LIKE -> "NOT LIKE"; case ILIKE -> "ILIKE"; case NOT_ILIKE -> "NOT ILIKE";
            case IS_DISTINCT_FROM -> "IS DISTINCT FROM"; case IS_NOT_DISTINCT_FROM -> "IS NOT DISTINCT FROM";
            default -> null;
        };
        if (op != null && c.args().size() >= 2) {
            StringJoiner j = new StringJoiner(" " + op + " ", "(", ")");
            for (Expr a : c.args()) j.add(expr(a));
            return j.toString();
        }
        return switch (c.func()) {
            case NOT -> "NOT " + expr(c.args().get(0));
            case IS_NULL -> "(" + expr(c.args().get(0)) + ") IS NULL";
            case IS_NOT_NULL -> "(" + expr(c.args().get(0)) + ") IS NOT NULL";
            case IN -> expr(c.args().get(0)) + " IN (" + exprs(c.args().subList(1, c.args().size())) + ")";
            default -> c.func().name().toLowerCase(Locale.ROOT) + "(" + exprs(c.args()) + ")";
        };
    }
}
