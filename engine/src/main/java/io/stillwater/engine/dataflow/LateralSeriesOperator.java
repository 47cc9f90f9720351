package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import java.util.Iterator;

/**
 * {@code FROM t, LATERAL generate_series(..t's columns..)}: each input row followed by
 * every value of its own series, with the input row's multiplicity. Stateless and linear:
 * a retraction of an input row retracts exactly the rows its series produced (the series
 * is a function of the row), so the same operator serves one-shot reads and maintained
 * views. With {@code outer} (LEFT JOIN LATERAL ... ON true) a row whose series is empty
 * is kept once, followed by NULL. An error evaluating a row's series (a zero step) is
 * data: it goes to the error collection with the row's multiplicity.
 */
final class LateralSeriesOperator extends Operator {
    /** Evaluates a row's series; its own one-shot state is unused here. */
    private final GenerateSeriesOperator series;
    private final boolean outer;

    LateralSeriesOperator(GenerateSeriesOperator series, boolean outer, Cancellation cancel) {
        super(cancel);
        this.series = series;
        this.outer = outer;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        Changes out = new Changes(in.size());
        int ticks = 0;
        for (int i = 0; i < in.size(); i++) {
            Row row = in.row(i);
            long diff = in.diff(i);
            try {
                Iterator<Object> values = series.valuesFor(row);
                if (outer && !values.hasNext()) out.add(row.concat(Row.of((Object) null)), diff);
                while (values.hasNext()) {
                    tick(ticks++);
                    out.add(row.concat(Row.wrap(new Object[] {values.next()})), diff);
                }
            } catch (SqlException e) {
                errors.add(errorRow(e), diff);
            }
        }
        return out;
    }
}
