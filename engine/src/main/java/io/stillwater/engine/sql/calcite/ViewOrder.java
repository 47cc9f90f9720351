package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * A view's {@code ORDER BY} as the order of a query that reads the view without its own:
 * {@code CREATE VIEW v AS SELECT ... ORDER BY a; SELECT * FROM v} returns rows in
 * {@code a} order in PostgreSQL (the view's sort is the plan's top node), and users rely
 * on it. Calcite keeps the view's sort as a {@code LogicalSort} under the outer query's
 * projection; when that projection keeps the sort columns, the sort moves above it and
 * becomes the query's ORDER BY (a sort column the projection drops is kept as a trailing
 * column that is not output). A LIMIT of the outer query without ORDER BY then takes the
 * first rows in that order, as PostgreSQL does. Any other shape (a join, an aggregate, a
 * filter above the view) leaves the order unspecified, as it is in PostgreSQL.
 */
final class ViewOrder {
    private ViewOrder() {}

    static RelNode liftToTop(RelNode rel) {
        if (rel instanceof LogicalSort top && top.getCollation().getFieldCollations().isEmpty()) {
            RelNode lifted = lift(top.getInput());
            if (lifted instanceof LogicalSort s) {
                return LogicalSort.create(s.getInput(), s.getCollation(), top.offset, top.fetch);
            }
            return rel;
        }
        if (rel instanceof LogicalSort) return rel;
        RelNode lifted = lift(rel);
        return lifted == null ? rel : lifted;
    }

    /** {@code Project(Sort(x))} as {@code Sort(Project(x))}, or null when the shape does not allow it. */
    private static RelNode lift(RelNode rel) {
        if (rel instanceof LogicalSort s && s.fetch == null && s.offset == null && !s.getCollation().getFieldCollations().isEmpty()) {
            return s;
        }
        if (!(rel instanceof LogicalProject p)) return null;
        RelNode below = lift(p.getInput());
        if (!(below instanceof LogicalSort s)) return null;
        List<RelFieldCollation> mapped = new ArrayList<>();
        List<RexNode> projects = new ArrayList<>(p.getProjects());
        List<String> names = new ArrayList<>(p.getRowType().getFieldNames());
        for (RelFieldCollation fc : s.getCollation().getFieldCollations()) {
            int at = -1;
            for (int j = 0; j < projects.size() && at < 0; j++) {
                if (projects.get(j) instanceof RexInputRef r && r.getIndex() == fc.getFieldIndex()) at = j;
            }
            if (at < 0) {
                // A sort column the query does not select: carried as an extra trailing
                // column (the plan's output is its leading columns).
                at = projects.size();
                projects.add(RexInputRef.of(fc.getFieldIndex(), s.getInput().getRowType()));
                names.add("?sort" + at);
            }
            mapped.add(fc.withFieldIndex(at));
        }
        RelDataType rowType = RexUtil.createStructType(p.getCluster().getTypeFactory(), projects, names, null);
        RelNode project = p.copy(p.getTraitSet(), s.getInput(), projects, rowType);
        return LogicalSort.create(project, RelCollations.of(mapped), null, null);
    }
}
