package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.Evaluator;
import java.util.List;

/**
 * The fused map/filter/project operator: a chain of consecutive {@code Filter} and
 * {@code Project} plan nodes applied row by row, with no state. Linear, so it is its own
 * incremental version: each input change maps to at most one output change (or one
 * error) with the same diff.
 */
final class MapFilterProject extends Operator {
    /** One link of the chain, applied bottom-up. */
    sealed interface Stage permits FilterStage, MapStage, ColumnStage {}

    /** Keeps rows for which every predicate is TRUE. */
    record FilterStage(Evaluator[] predicates) implements Stage {}

    /** Replaces the row by the values of {@code exprs}. */
    record MapStage(Evaluator[] exprs) implements Stage {}

    /** Replaces the row by some of its columns (a projection that cannot fail). */
    record ColumnStage(int[] columns) implements Stage {}

    private final Stage[] stages;

    MapFilterProject(List<Stage> stages, Cancellation cancel) {
        super(cancel);
        this.stages = stages.toArray(Stage[]::new);
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        int n = in.size();
        Changes out = new Changes(n);
        for (int i = 0; i < n; i++) {
            tick(i);
            long diff = in.diff(i);
            try {
                Row r = apply(in.row(i));
                if (r != null) out.add(r, diff);
            } catch (SqlException e) {
                errors.add(errorRow(e), diff);
            }
        }
        return out;
    }

    /** The row after the whole chain, or null when a filter drops it. Package-private for {@link FusedMfp}. */
    Row apply(Row row) {
        for (Stage s : stages) {
            switch (s) {
                case FilterStage f -> {
                    for (Evaluator p : f.predicates) {
                        if (!Boolean.TRUE.equals(p.eval(row))) return null;
                    }
                }
                case MapStage m -> {
                    Evaluator[] ex = m.exprs;
                    Object[] vals = new Object[ex.length];
                    for (int j = 0; j < ex.length; j++) vals[j] = ex[j].eval(row);
                    row = Row.wrap(vals);
                }
                case ColumnStage c -> row = row.project(c.columns);
            }
        }
        return row;
    }
}
