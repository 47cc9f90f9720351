package io.stillwater.engine.dataflow;

import java.util.List;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.TableFunction;

/**
 * A set-returning function applied to each input row ({@code PlanNode.FlatMap}): each
 * input change becomes the input row followed by each of the function's rows, with the
 * input's diff. Linear and stateless, so a retraction retracts exactly the rows its
 * insertion produced (the function is deterministic) and maintained views need no state.
 * An error evaluating the arguments or the function is data: it goes to the errors with
 * the row's diff, and that row produces nothing.
 */
final class FlatMapOperator extends Operator {
    private final TableFunction function;
    private final List<Evaluator> args;
    /** With {@code outer}, a row for which the function returns nothing keeps one row of NULLs. */
    private final boolean outer;
    private final int columns;

    FlatMapOperator(TableFunction function, List<Evaluator> args, int columns, boolean outer, Cancellation cancel) {
        super(cancel);
        this.function = function;
        this.args = List.copyOf(args);
        this.columns = columns;
        this.outer = outer;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        Changes out = new Changes(in.size());
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row row = in.row(i);
            long diff = in.diff(i);
            List<Object[]> produced;
            try {
                Object[] values = new Object[args.size()];
                for (int a = 0; a < values.length; a++) values[a] = args.get(a).eval(row);
                produced = function.rows(values);
            } catch (SqlException e) {
                errors.add(errorRow(e), diff);
                continue;
            }
            if (produced.isEmpty() && outer) produced = List.<Object[]>of(new Object[columns]);
            for (Object[] r : produced) out.add(row.concat(Row.wrap(r)), diff);
        }
        return out;
    }
}
