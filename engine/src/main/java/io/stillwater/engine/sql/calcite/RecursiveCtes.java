package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.schema.impl.ListTransientTable;

/**
 * {@code WITH RECURSIVE} in {@link RelToPlan}: Calcite converts a recursive CTE to a
 * {@link RepeatUnion} (seed, iterative term) whose iterative term scans a transient
 * table standing for the rows of the previous iteration. Each such table becomes a
 * negative id (no stored collection has one) that the step's {@code Get} reads and the
 * {@link PlanNode.Recursive} feeds. One instance per statement.
 */
final class RecursiveCtes {
    private final Map<String, Long> ids = new HashMap<>();

    /** Whether {@code scan} reads a recursive CTE's working table. */
    static boolean isWorkingTable(TableScan scan) {
        return scan.getTable().unwrap(ListTransientTable.class) != null;
    }

    PlanNode workingTable(TableScan scan) {
        String name = name(scan.getTable());
        Long id = ids.get(name);
        if (id == null) throw new SqlException(SqlState.INTERNAL_ERROR, "recursive reference to \"" + name + "\" outside its query");
        return new PlanNode.Get(id, name, types(scan));
    }

    PlanNode translate(RepeatUnion r, Function<RelNode, PlanNode> translate) {
        String name = name(r.getTransientTable());
        long id = -1 - ids.size();
        ids.put(name, id);
        PlanNode base = translate.apply(r.getSeedRel());
        PlanNode step = translate.apply(r.getIterativeRel());
        List<SqlType> types = types(r);
        if (!base.types().equals(types)) base = cast(base, types);
        if (!step.types().equals(types)) step = cast(step, types);
        return new PlanNode.Recursive(base, step, id, r.all, types);
    }

    private static PlanNode cast(PlanNode in, List<SqlType> types) {
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            var col = new Expr.Column(i, in.types().get(i));
            exprs.add(in.types().get(i).equals(types.get(i)) ? col : new Expr.Cast(col, types.get(i)));
        }
        return new PlanNode.Project(in, exprs);
    }

    private static String name(RelOptTable table) {
        List<String> names = table.getQualifiedName();
        return names.get(names.size() - 1);
    }

    private static List<SqlType> types(RelNode rel) {
        List<SqlType> out = new ArrayList<>();
        for (var f : rel.getRowType().getFieldList()) out.add(TypeMapping.fromRel(f.getType()));
        return out;
    }
}
