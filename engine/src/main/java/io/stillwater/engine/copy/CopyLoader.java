package io.stillwater.engine.copy;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.CopyOptions;
import io.stillwater.engine.sql.CopyOptions.Header;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.types.Casts;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The rows of one {@code COPY t FROM STDIN}, read from the client's bytes as they arrive
 * ({@link #accept}, any chunking) and collected into table changes for one atomic write
 * ({@link #finish}). Each value is read as a string literal assigned to its column would
 * be (the column type's input function, typmods applied: char(n) padded, varchar(n)
 * checked); columns not copied take their defaults; NOT NULL is checked per row.
 *
 * <p>Errors are PostgreSQL's, with a CONTEXT naming the line ({@link CopyError}): 22P04
 * for missing or extra fields, a bad header, an unterminated CSV quote; the type's own
 * error (22P02, 22003, 22007, 22001, ...) for a value, naming the column; 23502 for a
 * NULL in a NOT NULL column; 22021 for bytes that are not UTF-8.
 *
 * <p>Memory: every row is reserved through {@code reserve} (the statement's {@code
 * max_query_memory} budget) before it is kept, so a COPY larger than the budget fails
 * with 53200 and writes nothing. Owned by one COPY, on the session's thread.
 */
public final class CopyLoader {
    /** A row's estimated heap cost besides its values' text: the row, its change and the list entry. */
    private static final long ROW_OVERHEAD = 96;

    private final TableDef table;
    private final int[] columns;
    private final CopyOptions options;
    private final ZoneId zone;
    private final LongConsumer reserve;
    private final CopyRecords records;
    private final CopyFields fields;
    private final List<String> copiedNames = new ArrayList<>();
    private final List<TableChange> changes = new ArrayList<>();
    private boolean headerPending;

    /**
     * @param columns the table's columns in the data's order (indexes into {@code table.columns()})
     * @param zone    the session's time zone, for timestamptz values without an offset
     * @param reserve reserves bytes of the statement's memory budget; throws 53200 past it
     */
    public CopyLoader(Statement.CopyFrom copy, ZoneId zone, LongConsumer reserve) {
        this.table = copy.table();
        this.columns = copy.columns().clone();
        this.options = copy.options();
        this.zone = zone;
        this.reserve = reserve;
        for (int c : columns) copiedNames.add(table.columns().get(c).name());
        this.records = new CopyRecords(options, table.name());
        this.fields = new CopyFields(options, copiedNames);
        this.headerPending = options.header() != Header.NONE;
    }

    /** Reads the rows that {@code data} completes. */
    public void accept(byte[] data) {
        records.feed(data, this::record);
    }

    /** The data is complete: reads the last row and returns every change, one insertion per row. */
    public List<TableChange> finish() {
        records.finish(this::record);
        return changes;
    }

    /** Rows read so far. */
    public int rows() { return changes.size(); }

    private void record(CopyRecords.Raw raw) {
        List<String> values;
        try {
            values = fields.split(raw.bytes());
        } catch (SqlException e) {
            throw lineError(table.name(), e, raw.line(), text(raw));
        }
        if (headerPending) {
            headerPending = false;
            if (options.header() == Header.MATCH) matchHeader(values, raw);
            return;
        }
        if (values.size() > columns.length) {
            throw lineError(table.name(), new SqlException(SqlState.BAD_COPY_FILE_FORMAT, "extra data after last expected column"),
                    raw.line(), text(raw));
        }
        List<ColumnDef> cols = table.columns();
        Object[] row = new Object[cols.size()];
        boolean[] given = new boolean[cols.size()];
        // As PostgreSQL: columns are read in order, so a bad value before a missing one is reported first.
        for (int k = 0; k < columns.length; k++) {
            if (k >= values.size()) {
                throw lineError(table.name(), new SqlException(SqlState.BAD_COPY_FILE_FORMAT,
                        "missing data for column \"" + copiedNames.get(k) + "\""), raw.line(), text(raw));
            }
            int j = columns[k];
            given[j] = true;
            String v = values.get(k);
            if (v == null) continue;
            try {
                row[j] = Casts.assign(v, SqlType.UNKNOWN, cols.get(j).type(), zone);
            } catch (SqlException e) {
                throw new CopyError(e, "COPY " + table.name() + ", line " + raw.line() + ", column "
                        + cols.get(j).name() + ": \"" + CopyError.display(v) + "\"");
            }
        }
        for (int j = 0; j < cols.size(); j++) {
            if (!given[j]) row[j] = cols.get(j).defaultValue();
            if (row[j] == null && cols.get(j).notNull()) {
                throw lineError(table.name(), new SqlException(SqlState.NOT_NULL_VIOLATION,
                        "null value in column \"" + cols.get(j).name() + "\" of relation \"" + table.name()
                                + "\" violates not-null constraint",
                        "Failing row contains " + describe(row) + ".", null), raw.line(), text(raw));
            }
        }
        reserve.accept(ROW_OVERHEAD + 2L * raw.bytes().length);
        changes.add(new TableChange(table.id(), Row.wrap(row), 1));
    }

    private void matchHeader(List<String> names, CopyRecords.Raw raw) {
        if (names.size() != columns.length) {
            throw lineError(table.name(), new SqlException(SqlState.BAD_COPY_FILE_FORMAT, "wrong number of fields in header line: got "
                    + names.size() + ", expected " + columns.length), raw.line(), text(raw));
        }
        for (int k = 0; k < names.size(); k++) {
            String got = names.get(k);
            if (got == null) {
                throw lineError(table.name(), new SqlException(SqlState.BAD_COPY_FILE_FORMAT, "column name mismatch in header line field "
                        + (k + 1) + ": got null value (\"" + options.nullString() + "\"), expected \""
                        + copiedNames.get(k) + "\""), raw.line(), text(raw));
            }
            if (!got.equals(copiedNames.get(k))) {
                throw lineError(table.name(), new SqlException(SqlState.BAD_COPY_FILE_FORMAT, "column name mismatch in header line field "
                        + (k + 1) + ": got \"" + got + "\", expected \"" + copiedNames.get(k) + "\""),
                        raw.line(), text(raw));
            }
        }
    }

    private String describe(Object[] row) {
        StringBuilder b = new StringBuilder("(");
        for (int j = 0; j < row.length; j++) {
            if (j > 0) b.append(", ");
            b.append(row[j] == null ? "null" : DatumText.format(table.columns().get(j).type(), row[j], zone));
        }
        return b.append(')').toString();
    }

    private static String text(CopyRecords.Raw raw) { return new String(raw.bytes(), StandardCharsets.UTF_8); }

    /** {@code error} with the CONTEXT of a whole line: {@code COPY t, line 3: "..."}. */
    static CopyError lineError(String table, SqlException error, long line, String lineText) {
        return new CopyError(error, "COPY " + table + ", line " + line + ": \"" + CopyError.display(lineText) + "\"");
    }
}
