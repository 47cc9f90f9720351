package io.stillwater.engine.sql.planner;

import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.parse.Token;
import io.stillwater.engine.sql.parse.TokenKind;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link FastPathPlanner}'s INSERT: {@code INSERT INTO [public.]table [(cols)] VALUES
 * (...), ...} whose values are plain literals and NULLs, or one row of parameters only.
 *
 * <p>The plan is the Calcite path's: the VALUES rows as a {@code Constant} typed by the
 * literals themselves (not by the target columns), or a {@code Project} of the parameters
 * over one dummy row. The writer then applies the assignment casts, defaults and NOT NULL
 * checks to either plan alike, so their errors (22P02, 22003, 23502...) are the same.
 *
 * <p>Literals go only where the writer's cast decides alone: numbers into number columns,
 * strings into {@code text} and {@code varchar} columns.
 *
 * <p>What Calcite types by unifying rows is only taken when the rule is plain: in a
 * column of several rows, all integers ({@code integer}, or {@code bigint} if one needs
 * it), all strings ({@code text}) or NULLs; decimals and integers beyond {@code bigint}
 * only in a single row (Calcite rescales a multi-row DECIMAL column); a column of NULLs
 * only into an {@code integer}, {@code bigint} or {@code text} column (it takes the
 * column's type).
 */
final class FastPathInsert {
    private FastPathInsert() {}

    /** After {@code INSERT}: the statement, or null to leave it to Calcite. */
    static Statement insert(TokenCursor c, List<SqlType> hints, CatalogView catalog) {
        if (!c.acceptWord("into")) return null;
        FastPathPlanner.Relation rel = FastPathPlanner.Relation.resolve(c, catalog, true);
        if (rel == null) return null;
        TableDef def = rel.def();
        int[] targets = targetColumns(c, def);
        if (targets == null || !c.acceptWord("values")) return null;
        List<List<Token>> rows = new ArrayList<>();
        do {
            if (!c.acceptSymbol("(")) return null;
            List<Token> row = new ArrayList<>(targets.length);
            do {
                row.add(c.next());
            } while (c.acceptSymbol(","));
            if (!c.acceptSymbol(")") || row.size() != targets.length) return null;
            rows.add(row);
        } while (c.acceptSymbol(","));
        if (!c.atEnd()) return null;
        QueryPlan source = rows.get(0).get(0).kind() == TokenKind.PARAMETER
                ? parameterRow(rows, targets, def, hints)
                : literalRows(rows, targets, def, hints);
        if (source == null) return null;
        // Not recorded as a reference, as on the Calcite path: the INSERT privilege is checked on
        // the statement's table; references are the relations a statement reads.
        List<SqlType> paramTypes = source.body() instanceof PlanNode.Project ? source.columnTypes() : List.of();
        return new Statement.Insert(def, targets, source, paramTypes);
    }

    /** {@code (a, b)}: their positions, distinct; no list: every column in order; null if unsure. */
    private static int[] targetColumns(TokenCursor c, TableDef def) {
        if (!c.acceptSymbol("(")) {
            int[] all = new int[def.columns().size()];
            for (int i = 0; i < all.length; i++) all[i] = i;
            return all;
        }
        List<Integer> cols = new ArrayList<>();
        do {
            int col = FastPathPlanner.columnIndex(def, c.acceptIdentifier());
            if (col < 0 || cols.contains(col)) return null; // unknown or repeated: Calcite words the error
            cols.add(col);
        } while (c.acceptSymbol(","));
        if (!c.acceptSymbol(")")) return null;
        return cols.stream().mapToInt(Integer::intValue).toArray();
    }

    /** {@code VALUES ($1, $2)}: one row, parameters only, typed by their target columns. */
    private static QueryPlan parameterRow(List<List<Token>> rows, int[] targets, TableDef def, List<SqlType> hints) {
        if (rows.size() != 1) return null;
        FastPathPlanner.Parameters params = new FastPathPlanner.Parameters();
        List<Expr> exprs = new ArrayList<>(targets.length);
        for (int i = 0; i < targets.length; i++) {
            Token t = rows.get(0).get(i);
            if (t.kind() != TokenKind.PARAMETER) return null;
            Expr.Param p = params.add(t, FastLiteral.parameterFor(def.columns().get(targets[i]).type()));
            if (p == null) return null;
            exprs.add(p);
        }
        List<SqlType> paramTypes = params.types(hints);
        if (paramTypes == null) return null;
        List<SqlType> columnTypes = new ArrayList<>(exprs.size());
        for (Expr e : exprs) columnTypes.add(((Expr.Param) e).type());
        PlanNode dummy = new PlanNode.Constant(List.of(Row.of(0)), List.of(SqlType.INTEGER));
        return new QueryPlan(new PlanNode.Project(dummy, exprs), List.of(), -1, 0, valuesNames(targets.length),
                columnTypes);
    }

    /** Literal and NULL rows as a Constant, each column typed as Calcite unifies it; null if unsure. */
    private static QueryPlan literalRows(List<List<Token>> rows, int[] targets, TableDef def, List<SqlType> hints) {
        if (!hints.isEmpty()) return null;
        int width = targets.length;
        Object[][] values = new Object[rows.size()][width];
        List<SqlType> types = new ArrayList<>(width);
        for (int col = 0; col < width; col++) {
            SqlType type = null;
            for (int r = 0; r < rows.size(); r++) {
                Token t = rows.get(r).get(col);
                if (t.isWord("null")) continue;
                Expr.Literal lit = FastLiteral.standalone(t);
                if (lit == null || !assignable(lit.type(), def.columns().get(targets[col]).type())) return null;
                type = unify(type, lit.type(), rows.size());
                if (type == null) return null;
                values[r][col] = lit.value();
            }
            if (type == null) {
                ColumnDef target = def.columns().get(targets[col]);
                type = FastLiteral.parameterFor(target.type());
                if (type == null || !type.equals(target.type())) return null;
            }
            if (type.equals(SqlType.BIGINT)) {
                for (Object[] row : values) if (row[col] != null) row[col] = ((Number) row[col]).longValue();
            }
            types.add(type);
        }
        List<Row> constant = new ArrayList<>(rows.size());
        for (Object[] row : values) constant.add(Row.wrap(row));
        return new QueryPlan(new PlanNode.Constant(constant, types), List.of(), -1, 0, valuesNames(width), types);
    }

    /**
     * Whether the writer's assignment cast is the whole story for this literal: numbers
     * into number columns, strings into text columns. A string into any other column is
     * an untyped literal to Calcite (read as the column's type: {@code 'a'} into a smallint
     * is 22P02), and a number into a date is Calcite's own error: both are left to it.
     */
    private static boolean assignable(SqlType literal, SqlType column) {
        return switch (column.kind()) {
            case SMALLINT, INTEGER, BIGINT, NUMERIC, REAL, DOUBLE -> !literal.equals(SqlType.TEXT);
            case TEXT, VARCHAR -> literal.equals(SqlType.TEXT);
            default -> false;
        };
    }

    /** The common type of a VALUES column so far and one more literal's, or null if the fast path is unsure. */
    private static SqlType unify(SqlType sofar, SqlType next, int rowCount) {
        boolean integral = next.equals(SqlType.INTEGER) || next.equals(SqlType.BIGINT);
        if (rowCount > 1 && !integral && !next.equals(SqlType.TEXT)) return null; // multi-row decimals: Calcite rescales
        if (sofar == null || sofar.equals(next)) return next;
        boolean sofarIntegral = sofar.equals(SqlType.INTEGER) || sofar.equals(SqlType.BIGINT);
        return integral && sofarIntegral ? SqlType.BIGINT : null;
    }

    private static List<String> valuesNames(int width) {
        List<String> names = new ArrayList<>(width);
        for (int i = 1; i <= width; i++) names.add("column" + i);
        return names;
    }
}
