package io.stillwater.engine.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

/**
 * Rewrites an aggregate whose grouping keys are all constants into one without keys that
 * keeps its row only when its input has one, before decorrelation.
 *
 * <p>Subquery removal spells "the subquery has a row" as {@code GROUP BY true} over the
 * subquery ({@code EXISTS}, {@code IN}): one row when the input has rows, none when it is
 * empty. Calcite's {@code RelDecorrelator} drops constant grouping keys, and when that
 * leaves none it replaced the whole aggregate, input included, with a one-row VALUES, so
 * {@code NOT EXISTS (empty) OR x IN (correlated subquery)} was false for every row.
 * The same meaning, spelled {@code HAVING count(*) > 0} over an aggregate without keys,
 * decorrelates correctly:
 * <pre>
 *   Aggregate(group: c1..cn constant, calls)
 *   ==> Project(c1..cn, calls) over Filter(count(*) > 0) over Aggregate(group: none, calls, count(*))
 * </pre>
 * With all keys constant the input is one group, so every aggregate call has the same
 * value in both forms.
 */
final class ConstantKeyAggregates extends RelShuttleImpl {
    private final RelBuilder relBuilder;

    private ConstantKeyAggregates(RelBuilder relBuilder) { this.relBuilder = relBuilder; }

    static RelNode apply(RelNode rel, RelBuilder relBuilder) {
        return rel.accept(new ConstantKeyAggregates(relBuilder));
    }

    @Override
    public RelNode visit(LogicalAggregate aggregate) {
        LogicalAggregate a = (LogicalAggregate) super.visit(aggregate);
        List<RexLiteral> keys = constantKeys(a);
        if (keys == null) return a;
        List<AggregateCall> calls = new ArrayList<>(a.getAggCallList());
        relBuilder.push(a.getInput());
        List<RelBuilder.AggCall> builderCalls = new ArrayList<>();
        for (AggregateCall call : calls) builderCalls.add(relBuilder.aggregateCall(call));
        builderCalls.add(relBuilder.countStar("$rows"));
        relBuilder.aggregate(relBuilder.groupKey(), builderCalls);
        int rows = calls.size();
        relBuilder.filter(relBuilder.greaterThan(relBuilder.field(rows), relBuilder.literal(0)));
        List<RexNode> out = new ArrayList<>(keys);
        for (int i = 0; i < rows; i++) out.add(relBuilder.field(i));
        relBuilder.project(out, a.getRowType().getFieldNames(), true);
        RelNode rewritten = relBuilder.build();
        // Keep the exact row type (nullability of the keys) that the parents were typed against.
        return relBuilder.push(rewritten).convert(a.getRowType(), false).build();
    }

    /** The literal each grouping key projects, or null unless every key is one (and there is one). */
    private static List<RexLiteral> constantKeys(Aggregate a) {
        if (a.getGroupType() != Aggregate.Group.SIMPLE || a.getGroupCount() == 0
                || !(a.getInput() instanceof LogicalProject input)) {
            return null;
        }
        List<RexLiteral> keys = new ArrayList<>();
        for (int key : a.getGroupSet()) {
            if (!(input.getProjects().get(key) instanceof RexLiteral literal)) return null;
            keys.add(literal);
        }
        return keys;
    }
}
