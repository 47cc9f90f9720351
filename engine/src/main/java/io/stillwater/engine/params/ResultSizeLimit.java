package io.stillwater.engine.params;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * Enforces {@code max_result_size} on a query's result rows.
 *
 * <p>Sizes are an estimate of a packed row, in the spirit of Materialize's {@code
 * Row::byte_len}, not of Java heap use: per row 8 bytes (its count), per datum one tag
 * byte plus the value's natural width (booleans 1, smallint 2, integer/real/date 4,
 * bigint/double/time/timestamps 8, interval 16, numeric its unscaled digits' bytes plus
 * 4, text its UTF-8 length, bytea its length). NULL is the tag byte alone.
 *
 * <p>A read counts its result as it produces it ({@link Tally}) and fails the moment the
 * total passes the limit, before the rest of the result exists. It bounds what is sent to
 * the client; the memory a read may use is bounded separately ({@code max_query_memory}).
 */
public final class ResultSizeLimit {
    private ResultSizeLimit() {}

    /** Per-row overhead: the row's count, as in Materialize. */
    static final int ROW_OVERHEAD = 8;

    /**
     * Throws if {@code rows} are larger than {@code maxBytes} in total.
     *
     * @throws SqlException 53200 {@code result exceeds max size of 1.0 GiB}
     */
    public static void check(List<Row> rows, long maxBytes) {
        Tally tally = new Tally(maxBytes);
        for (Row r : rows) tally.add(r, 1);
    }

    /** Materialize's error for a result past {@code maxBytes}: 53200 {@code result exceeds max size of 1.0 GiB}. */
    public static SqlException exceeded(long maxBytes) {
        return new SqlException(SqlState.OUT_OF_MEMORY,
                "result exceeds max size of " + ParamType.ByteSizeType.human(maxBytes), null,
                "Add a LIMIT or a WHERE clause, or raise max_result_size (ALTER SYSTEM, as mz_system).");
    }

    /**
     * A result's size so far, counted as rows are produced: {@link #add} fails the moment
     * the total passes the limit. One thread at a time (the read's).
     */
    public static final class Tally {
        private final long maxBytes;
        private long total;

        /** A tally against {@code maxBytes} ({@code Long.MAX_VALUE}: unlimited). */
        public Tally(long maxBytes) { this.maxBytes = maxBytes; }

        /**
         * Counts {@code copies} copies of {@code row}.
         *
         * @throws SqlException 53200 once the result is larger than the limit
         */
        public void add(Row row, long copies) {
            if (maxBytes == Long.MAX_VALUE) return;
            long size = estimate(row);
            total = copies > 0 && size > (Long.MAX_VALUE - total) / copies ? Long.MAX_VALUE : total + size * copies;
            if (total > maxBytes) throw exceeded(maxBytes);
        }

        /** Bytes counted so far. */
        public long total() { return total; }
    }

    /** The estimated packed size of one result row, in bytes. */
    public static long estimate(Row row) {
        long size = ROW_OVERHEAD;
        for (int i = 0; i < row.arity(); i++) size += 1 + datumSize(row.get(i));
        return size;
    }

    private static long datumSize(Object v) {
        return switch (v) {
            case null -> 0;
            case Boolean b -> 1;
            case Short s -> 2;
            case Integer n -> 4;
            case Float f -> 4;
            case Long n -> 8;
            case Double d -> 8;
            case BigDecimal d -> d.unscaledValue().bitLength() / 8 + 1 + 4;
            case String s -> utf8Length(s);
            case ByteString b -> b.length();
            case byte[] b -> b.length;
            case LocalDate d -> 4;
            case Interval iv -> 16;
            default -> 8; // times and timestamps
        };
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) n += 1;
            else if (c < 0x800) n += 2;
            else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else n += 3;
        }
        return n;
    }
}
