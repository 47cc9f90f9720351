package io.stillwater.engine.session;

import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a query, pulled in batches by whoever sends them (the wire layer), so a
 * large result reaches the client as it is produced instead of being copied whole
 * first.
 *
 * <p>Contract: {@link #next} returns the next rows in result order, at most {@code max}
 * of them, and an empty list once the result is exhausted (and every call after that).
 * It may throw {@link io.stillwater.engine.error.SqlException} at any batch: an
 * evaluation error, {@code max_result_size} (53200), a memory budget (53200), or 57014
 * when the statement is cancelled or times out while the stream is being read. After
 * an exception the stream is finished; the consumer still calls {@link #close}.
 *
 * <p>{@link #close} releases whatever the stream holds (snapshots, read holds, memory
 * reservations); it is idempotent and must be called whether or not the stream was
 * drained. Used by one thread at a time (the session's), like the session itself.
 */
public interface RowStream extends AutoCloseable {
    /** Up to {@code max} (&ge; 1) next rows; empty once exhausted. */
    List<Row> next(int max);

    @Override
    void close();

    /**
     * Whether {@link #next} is known to return no more rows (true only if it will return
     * empty). A hint for senders: the wire layer need not flush rows that only the
     * command's completion follows. Default: not known.
     */
    default boolean exhausted() { return false; }

    /** A stream over rows already in memory. */
    static RowStream of(List<Row> rows) {
        List<Row> all = List.copyOf(rows);
        return new RowStream() {
            private int position;

            @Override
            public List<Row> next(int max) {
                if (max < 1) throw new IllegalArgumentException("max must be at least 1: " + max);
                int from = position;
                position = (int) Math.min((long) from + max, all.size());
                return all.subList(from, position);
            }

            @Override
            public boolean exhausted() { return position == all.size(); }

            @Override
            public void close() { position = all.size(); }
        };
    }

    /** Reads the rest of the stream into a list, then closes it. */
    default List<Row> drain() {
        List<Row> out = new ArrayList<>();
        try {
            for (List<Row> batch = next(4096); !batch.isEmpty(); batch = next(4096)) out.addAll(batch);
        } finally {
            close();
        }
        return out;
    }
}
