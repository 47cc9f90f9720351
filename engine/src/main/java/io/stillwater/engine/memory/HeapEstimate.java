package io.stillwater.engine.memory;

import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import java.math.BigDecimal;

/**
 * Estimated Java heap bytes of rows, for memory budgets: object headers, the values array,
 * and each boxed datum (compressed references, 8-byte alignment ignored). Conservative
 * for rows that share datums with stored data (a join's build side over a table holds the
 * table's own row objects); that is the safe direction.
 *
 * <p>Per-row estimates cost a type switch per datum, so chunks are estimated from a sample
 * of their rows ({@link #chunk}): the hot loops of a 100M-row join never estimate per row.
 */
public final class HeapEstimate {
    private HeapEstimate() {}

    /** A Row object (header, array reference, cached hash) and its values array header. */
    static final long ROW_BASE = 16 + 16;
    /** Per entry of a Changes, an ArrayList slot or a hash table entry: references and a count. */
    public static final long ENTRY = 16;
    /** A hash map node with its table slot (what keyed operator state pays per key). */
    public static final long MAP_ENTRY = 48;
    /** Rows sampled per chunk. */
    private static final int SAMPLE = 8;

    /** The estimated heap bytes of {@code row} and the datums it references. */
    public static long row(Row row) {
        long size = ROW_BASE + 4L * row.arity();
        for (int i = 0; i < row.arity(); i++) size += datum(row.get(i));
        return size;
    }

    /**
     * The estimated heap bytes of {@code rows} held as they are (rows, datums and one
     * {@link #ENTRY} each), from a sample of at most eight rows spread over the chunk.
     */
    public static long chunk(Changes rows) {
        int n = rows.size();
        if (n == 0) return 0;
        int samples = Math.min(n, SAMPLE);
        long sampled = 0;
        for (int s = 0; s < samples; s++) sampled += row(rows.row((int) ((long) s * n / samples)));
        return sampled * n / samples + ENTRY * n;
    }

    /** The estimated heap bytes of one datum (0 for NULL and shared constants such as booleans). */
    public static long datum(Object v) {
        return switch (v) {
            case null -> 0;
            case Boolean b -> 0;
            case Integer i -> 16;
            case Long l -> 16;
            case Short s -> 16;
            case Double d -> 16;
            case Float f -> 16;
            case String s -> 24 + 16 + s.length();
            case BigDecimal d -> 40 + 40 + d.unscaledValue().bitLength() / 8;
            case byte[] b -> 16 + b.length;
            case ByteString b -> 16 + 16 + b.length();
            default -> 32; // dates, times, timestamps, intervals, errors
        };
    }
}
