package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.plan.QueryPlan;
import java.util.List;

/**
 * A SELECT's finishing, applied to a read's result outside the dataflow (as Materialize
 * does): expand multiplicities, sort by the top-level ORDER BY with PostgreSQL's NULL
 * placement, apply OFFSET and LIMIT, and drop the sort-only columns past the output
 * columns. Without ORDER BY the order is whatever the result had. This is the whole-result
 * form; {@link FinishedRows} applies the same finishing as rows are produced.
 */
public final class Finishing {
    private Finishing() {}

    public static List<Row> apply(QueryPlan plan, Changes result) {
        return new FinishedRows(plan, ChunkSource.slices(result, PipelinedRead.DEFAULT_CHUNK_ROWS),
                QueryMemory.unlimited(), Long.MAX_VALUE, Cancellation.NONE).drain();
    }
}
