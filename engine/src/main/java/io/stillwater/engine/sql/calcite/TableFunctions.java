package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.TableFunction;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rel.logical.LogicalTableFunctionScan;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Set-returning functions ({@code unnest}, {@code jsonb_each}, ...) from Calcite's plan to
 * {@link PlanNode.FlatMap}, as Materialize plans them: a function in FROM with constant
 * arguments is a FlatMap over the one empty row; one whose arguments come from an earlier
 * FROM item (a Correlate whose right side is the function) is a FlatMap over that item,
 * the correlation variables becoming the item's columns. {@code unnest} arrives as
 * Calcite's Uncollect (over a Project of the one-row Values); the others as table function
 * scans of the operators declared here. A LEFT correlate ({@code LEFT JOIN LATERAL f ON
 * true}) is an outer FlatMap.
 */
final class TableFunctions {
    private TableFunctions() { }

    /** The SQL operators of the table functions other than unnest (Calcite's UNNEST) and generate_series. */
    static List<SqlOperator> operators() {
        return List.of(
                op("JSONB_ARRAY_ELEMENTS", f -> f.builder().add("value", variant(f)).build()),
                op("JSONB_ARRAY_ELEMENTS_TEXT", f -> f.builder().add("value", text(f)).build()),
                op("JSONB_EACH", f -> f.builder().add("key", text(f)).add("value", variant(f)).build()),
                op("JSONB_EACH_TEXT", f -> f.builder().add("key", text(f)).add("value", text(f)).build()),
                op("JSONB_OBJECT_KEYS", f -> f.builder().add("jsonb_object_keys", text(f)).build()),
                op("GENERATE_SUBSCRIPTS", f -> f.builder().add("generate_subscripts",
                        f.createTypeWithNullability(f.createSqlType(SqlTypeName.INTEGER), true)).build()));
    }

    /** True for a call of one of the set-returning functions (by name), unnest included. */
    static boolean isSetReturning(String name) {
        return name.equalsIgnoreCase("unnest") || TableFunction.named(name).isPresent();
    }

    /**
     * A set-returning function that follows other FROM items sees them, as if written
     * with LATERAL ({@code FROM j, jsonb_each(j.doc) e}): PostgreSQL's rule for functions
     * in FROM. Calcite's UNNEST already sees them; the others are wrapped in LATERAL.
     */
    static SqlNode implicitlyLateral(SqlNode item) {
        SqlNode inner = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        if (inner.getKind() != SqlKind.COLLECTION_TABLE
                || !(((SqlCall) inner).operand(0) instanceof SqlCall c)
                || TableFunction.named(c.getOperator().getName()).isEmpty()) {
            return item;
        }
        SqlNode lateral = SqlStdOperatorTable.LATERAL.createCall(inner.getParserPosition(), inner);
        if (item == inner) return lateral;
        ((SqlCall) item).setOperand(0, lateral);
        return item;
    }

    /**
     * The column name of a single-column set-returning function in FROM (an alias without
     * a column list then names that column, as in PostgreSQL), or null for other items.
     */
    static String singleColumnName(SqlNode node) {
        if (node.getKind() == SqlKind.COLLECTION_TABLE) node = ((SqlCall) node).operand(0);
        if (!(node instanceof SqlCall c)) return null;
        String name = c.getOperator().getName().toLowerCase(java.util.Locale.ROOT);
        return switch (name) {
            case "generate_series", "jsonb_object_keys", "generate_subscripts" -> name;
            case "unnest" -> c.operandCount() == 1 ? name : null;
            case "jsonb_array_elements", "jsonb_array_elements_text" -> "value";
            default -> null;
        };
    }

    private static RelDataType variant(RelDataTypeFactory f) {
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARIANT), true);
    }

    private static RelDataType text(RelDataTypeFactory f) {
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true);
    }

    private static SqlOperator op(String name, Function<RelDataTypeFactory, RelDataType> rowType) {
        final class Op extends SqlFunction implements SqlTableFunction {
            Op() {
                super(name, SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, null, OperandTypes.VARIADIC,
                        SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
            }

            @Override
            public SqlReturnTypeInference getRowTypeInference() {
                return (SqlOperatorBinding b) -> rowType.apply(b.getTypeFactory());
            }
        }
        return new Op();
    }

    /** The plan of {@code rel} if it is a set-returning function this class plans, else empty. */
    static Optional<PlanNode> translate(RelNode rel, RexToExpr rex, Function<RelNode, PlanNode> translate) {
        if (rel instanceof LogicalFilter f && f.getInput() instanceof Correlate c
                && call(c.getRight(), c.getCorrelationId()) != null) {
            RelNode pushed = filterBeforeFunction(f, c);
            return pushed == null ? Optional.empty() : Optional.of(translate.apply(pushed));
        }
        if (rel instanceof Correlate c) {
            Call call = call(c.getRight(), c.getCorrelationId());
            if (call == null) return Optional.empty();
            if (c.getJoinType() != JoinRelType.INNER && c.getJoinType() != JoinRelType.LEFT) return Optional.empty();
            PlanNode left = translate.apply(c.getLeft());
            List<RexNode> args = decorrelate(call.args, c.getCorrelationId());
            List<Expr> exprs = coerce(call.function, rex.translateAll(args, left.types()));
            return Optional.of(new PlanNode.FlatMap(left, call.function, exprs, columns(call, exprs),
                    c.getJoinType() == JoinRelType.LEFT));
        }
        Call call = call(rel, null);
        if (call == null) return Optional.empty();
        for (RexNode a : call.args) {
            if (RexUtil.containsCorrelation(a)) {
                throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        call.function.sqlName() + " with arguments from a FROM item it cannot see is not supported");
            }
        }
        PlanNode one = new PlanNode.Constant(List.of(Row.EMPTY), List.of());
        List<Expr> exprs = coerce(call.function, rex.translateAll(call.args, List.of()));
        return Optional.of(new PlanNode.FlatMap(one, call.function, exprs, columns(call, exprs), false));
    }

    /**
     * The arguments in the types the function takes: a jsonb function's text argument
     * ({@code jsonb_each('{"a":1}')}, an unknown-typed literal in PostgreSQL) is cast to
     * jsonb, as PostgreSQL resolves it; generate_subscripts' dimension is an integer.
     */
    private static List<Expr> coerce(TableFunction f, List<Expr> args) {
        List<Expr> out = new ArrayList<>(args);
        switch (f) {
            case UNNEST, UNNEST_WITH_ORDINALITY -> {
                for (Expr a : args) {
                    if (!a.type().isArray()) {
                        throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function unnest("
                                + a.type().displayName() + ") does not exist");
                    }
                }
            }
            case GENERATE_SUBSCRIPTS -> {
                if (out.size() < 2 || out.size() > 3 || !out.get(0).type().isArray()) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                            "function generate_subscripts takes an array, a dimension and an optional boolean");
                }
                out.set(1, cast(out.get(1), SqlType.INTEGER));
                if (out.size() == 3) out.set(2, cast(out.get(2), SqlType.BOOLEAN));
            }
            default -> {
                if (out.size() != 1) {
                    throw new SqlException(SqlState.UNDEFINED_FUNCTION, "function " + f.sqlName() + " takes one jsonb argument");
                }
                out.set(0, cast(out.get(0), SqlType.JSONB));
            }
        }
        return out;
    }

    /** unnest's columns are its arrays' base element types (a 2-D array's elements are scalars). */
    private static List<SqlType> columns(Call call, List<Expr> args) {
        if (call.function != TableFunction.UNNEST && call.function != TableFunction.UNNEST_WITH_ORDINALITY) {
            return call.columns;
        }
        List<SqlType> out = new ArrayList<>();
        for (Expr a : args) {
            SqlType t = a.type();
            while (t.isArray()) t = t.element();
            out.add(t);
        }
        if (call.function == TableFunction.UNNEST_WITH_ORDINALITY) out.add(SqlType.BIGINT);
        return out;
    }

    private static Expr cast(Expr e, SqlType type) {
        if (e.type().kind() == type.kind()) return e;
        if (e instanceof Expr.Literal l && l.value() == null) return new Expr.Literal(null, type);
        return new Expr.Cast(e, type);
    }

    /**
     * A WHERE over {@code FROM t, f(t.x)} whose conjuncts read only t's columns filters t
     * before the function runs, as PostgreSQL pushes such a qual down to t's scan: so
     * {@code WHERE jsonb_typeof(doc) = 'object'} guards {@code jsonb_each(doc)} from the
     * rows it would fail on. Null when no conjunct can move.
     */
    private static RelNode filterBeforeFunction(LogicalFilter f, Correlate c) {
        int leftCount = c.getLeft().getRowType().getFieldCount();
        List<RexNode> below = new ArrayList<>();
        List<RexNode> above = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(f.getCondition())) {
            var bits = RelOptUtil.InputFinder.bits(conjunct);
            boolean leftOnly = bits.isEmpty() ? false : bits.length() <= leftCount;
            (leftOnly && !RexUtil.containsCorrelation(conjunct) ? below : above).add(conjunct);
        }
        if (below.isEmpty()) return null;
        RexBuilder b = f.getCluster().getRexBuilder();
        RelNode left = LogicalFilter.create(c.getLeft(), RexUtil.composeConjunction(b, below));
        RelNode correlate = c.copy(c.getTraitSet(), List.of(left, c.getRight()));
        return above.isEmpty() ? correlate : LogicalFilter.create(correlate, RexUtil.composeConjunction(b, above));
    }

    /** A function call with its arguments (over the one empty row or correlation variables) and column types. */
    private record Call(TableFunction function, List<RexNode> args, List<SqlType> columns) { }

    private static Call call(RelNode rel, CorrelationId id) {
        List<SqlType> columns = new ArrayList<>();
        for (var f : rel.getRowType().getFieldList()) columns.add(TypeMapping.fromRel(f.getType()));
        if (rel instanceof LogicalTableFunctionScan t && t.getInputs().isEmpty() && t.getCall() instanceof RexCall c) {
            Optional<TableFunction> f = TableFunction.named(c.getOperator().getName());
            if (f.isEmpty()) return null;
            return new Call(f.get(), c.getOperands(), columns);
        }
        if (rel instanceof Uncollect u) {
            TableFunction f = u.withOrdinality ? TableFunction.UNNEST_WITH_ORDINALITY : TableFunction.UNNEST;
            if (u.getInput() instanceof LogicalProject p && p.getInput() instanceof LogicalValues v
                    && v.getTuples().size() == 1) {
                return new Call(f, p.getProjects(), columns);
            }
            if (u.getInput() instanceof LogicalValues v && v.getTuples().size() == 1) {
                return new Call(f, List.copyOf(v.getTuples().get(0)), columns); // constants Calcite folded into the row
            }
        }
        return null;
    }

    /** Replaces {@code $corN.field} (the earlier FROM item's columns) by input references to those columns. */
    private static List<RexNode> decorrelate(List<RexNode> args, CorrelationId id) {
        RexShuttle shuttle = new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(id)) {
                    return new RexInputRef(access.getField().getIndex(), access.getType());
                }
                return super.visitFieldAccess(access);
            }
        };
        List<RexNode> out = new ArrayList<>();
        for (RexNode a : args) out.add(a.accept(shuttle));
        return out;
    }
}
