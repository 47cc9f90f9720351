package io.stillwater.engine.params;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.ByteString;
import java.math.BigDecimal;
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
 * <p>The check runs after the rows are produced (they are in memory by then); it bounds
 * what is sent to the client, not the memory the read used.
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
        long total = 0;
        for (Row r : rows) {
            total += estimate(r);
            if (total > maxBytes) {
                throw new SqlException(SqlState.OUT_OF_MEMORY,
                        "result exceeds max size of " + ParamType.ByteSizeType.human(maxBytes), null,
                        "Add a LIMIT or a WHERE clause, or raise max_result_size (ALTER SYSTEM, as mz_system).");
            }
        }
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
            case java.time.LocalDate d -> 4;
            case io.stillwater.engine.types.Interval iv -> 16;
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
