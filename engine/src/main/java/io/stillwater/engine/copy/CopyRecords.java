package io.stillwater.engine.copy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CopyOptions;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Cuts the byte stream of COPY FROM into records, whatever the chunking of the CopyData
 * messages. A record ends at an end of line ({@code \n}, {@code \r\n} or {@code \r}) that
 * is not escaped: in text format a backslash takes the next byte with it (even a newline,
 * as in PostgreSQL); in CSV an end of line inside a quoted field belongs to the field. A
 * record that is exactly {@code \.} ends the data (what psql sends after inline data);
 * anything after it is ignored, as PostgreSQL does.
 *
 * <p>Holds only the bytes of the record not yet complete (plus the chunk being cut).
 * Owned by one COPY, on the session's thread.
 */
final class CopyRecords {
    /** One record without its end of line; {@code line} is the number of the line it starts on (1-based). */
    record Raw(byte[] bytes, long line) {}

    /** The table's name, for errors. */
    private final String table;
    private final boolean csv;
    private final byte quote;
    private final byte escape;
    private byte[] buf = new byte[8192];
    private int start;   // first byte of the record being assembled
    private int length;  // bytes in buf
    private long lines;  // lines consumed so far
    private boolean ended;

    CopyRecords(CopyOptions options, String table) {
        this.table = table;
        this.csv = options.csv();
        this.quote = (byte) options.quote();
        this.escape = (byte) options.escape();
    }

    /** Whether the end-of-data marker {@code \.} was seen. */
    boolean ended() { return ended; }

    /** The number of lines read so far (for errors at the end of the data). */
    long lines() { return lines; }

    /** Appends {@code data} and hands every record it completes to {@code out}, in order. */
    void feed(byte[] data, Consumer<Raw> out) {
        if (ended) return;
        append(data);
        cut(false, out);
    }

    /**
     * The data is complete: hands out the last record (one without a final end of line).
     *
     * @throws CopyError 22P04 {@code unterminated CSV quoted field} when a quote is still open
     */
    void finish(Consumer<Raw> out) {
        if (ended) return;
        cut(true, out);
    }

    private void append(byte[] data) {
        if (length + data.length > buf.length) {
            if (start > 0) { // drop what was handed out already
                System.arraycopy(buf, start, buf, 0, length - start);
                length -= start;
                start = 0;
            }
            if (length + data.length > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + data.length));
            }
        }
        System.arraycopy(data, 0, buf, length, data.length);
        length += data.length;
    }

    private void cut(boolean atEnd, Consumer<Raw> out) {
        while (!ended && start < length) {
            int newlines = 0;
            boolean inQuote = false;
            int i = start;
            int end = -1, eol = 0;
            while (i < length) {
                byte b = buf[i];
                if (csv) {
                    if (inQuote) {
                        if (b == escape && i + 1 < length && (buf[i + 1] == quote || buf[i + 1] == escape)
                                && (escape != quote || buf[i + 1] == quote)) {
                            i += 2;
                            continue;
                        }
                        if (b == escape && i + 1 >= length && !atEnd) break; // an escape pair or the closing quote?
                        if (b == quote) inQuote = false;
                        else if (b == '\n') newlines++;
                        i++;
                        continue;
                    }
                    if (b == quote) {
                        inQuote = true;
                        i++;
                        continue;
                    }
                } else if (b == '\\') {
                    if (i + 1 >= length && !atEnd) break;
                    if (i + 1 < length && buf[i + 1] == '\n') newlines++;
                    i += 2;
                    continue;
                }
                if (b == '\n') {
                    end = i;
                    eol = 1;
                    break;
                }
                if (b == '\r') {
                    if (i + 1 >= length && !atEnd) break; // \r\n or a lone \r: the next byte decides
                    end = i;
                    eol = i + 1 < length && buf[i + 1] == '\n' ? 2 : 1;
                    break;
                }
                i++;
            }
            if (end < 0) {
                if (!atEnd || i < length) return; // incomplete: wait for more data
                if (csv && inQuote) {
                    lines++;
                    String text = new String(buf, start, length - start, StandardCharsets.UTF_8);
                    start = length;
                    throw CopyLoader.lineError(table, new SqlException(SqlState.BAD_COPY_FILE_FORMAT,
                            "unterminated CSV quoted field"), lines, text);
                }
                end = length;
            }
            byte[] record = Arrays.copyOfRange(buf, start, Math.min(end, length));
            start = Math.min(end + eol, length);
            long line = ++lines; // PostgreSQL numbers a record by the line it starts on
            lines += newlines;
            if (record.length == 2 && record[0] == '\\' && record[1] == '.') {
                ended = true;
                return;
            }
            out.accept(new Raw(record, line));
        }
        if (start == length) {
            start = 0;
            length = 0;
        }
    }
}
