package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.types.Casts;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * Table writes as sessions make them: turns the rows an INSERT, UPDATE or DELETE produced
 * into table changes (assignment casts to the column types, defaults for columns not
 * given, NOT NULL checked, an UPDATE as a retraction of the old row plus the new one) and
 * commits them through the {@link WritePipeline} (admission, group commit, applied before
 * the call returns). Stateless apart from the pipeline; any session thread.
 */
public final class TableWriter {
    private final WritePipeline pipeline;
    /** When a table last changed ({@code Long.MAX_VALUE}: it no longer exists); read under the write lock. */
    private final LongUnaryOperator lastWritten;

    TableWriter(WritePipeline pipeline, LongUnaryOperator lastWritten) {
        this.pipeline = pipeline;
        this.lastWritten = lastWritten;
    }

    /**
     * Makes {@code changes} durable and visible at one new timestamp, atomically, after
     * write backpressure admits them (within {@code limit}); returns that timestamp.
     *
     * @throws SqlException 57014 when {@code limit} cancels the wait (nothing was written);
     *                      XX000 once the pipeline stopped
     */
    public long commit(List<TableChange> changes, AdmissionLimit limit) { return pipeline.commit(changes, limit); }

    /**
     * A transaction's COMMIT under optimistic validation: holding the write lock after
     * every earlier write has been applied (so no write can slip in between the check
     * and the append), checks that none of {@code readTables} changed after {@code
     * snapshot} (the time the transaction read them at) and commits {@code changes} at
     * one new timestamp. The transaction then behaves as if it had run entirely at its
     * commit time: serializable.
     *
     * @throws SqlException 40001 when a table changed or was dropped since {@code
     *                      snapshot} (nothing was written; the client retries the
     *                      transaction); as {@link #commit} otherwise
     */
    public long commitIfUnchanged(List<TableChange> changes, Collection<Long> readTables, long snapshot,
                                  AdmissionLimit limit) {
        return pipeline.serialized(limit, () -> {
            for (long id : readTables) {
                if (lastWritten.applyAsLong(id) > snapshot) {
                    throw new SqlException(SqlState.SERIALIZATION_FAILURE,
                            "could not serialize access due to concurrent update",
                            "A table this transaction read or wrote was changed by another transaction after"
                                    + " this one read it; nothing was written.",
                            "Retry the transaction.");
                }
            }
            return pipeline.commit(changes, limit);
        });
    }

    /**
     * Runs a read-modify-write (UPDATE, DELETE, INSERT ... SELECT) with no other write
     * between its read and its commit; see {@link WritePipeline#serialized}.
     */
    public <T> T serialized(AdmissionLimit limit, Supplier<T> work) { return pipeline.serialized(limit, work); }

    /**
     * The changes of an INSERT into {@code ins.table()} of {@code sourceRows} (the rows of
     * its VALUES or SELECT): each source column cast by assignment to its target column's
     * type, the others take their default.
     *
     * @throws SqlException 23502 for a NULL in a NOT NULL column; the casts' errors (22xxx)
     */
    public static List<TableChange> insertions(Statement.Insert ins, List<Row> sourceRows) {
        TableDef table = ins.table();
        List<ColumnDef> cols = table.columns();
        List<SqlType> sourceTypes = ins.source().columnTypes();
        int[] target = ins.targetColumns();
        int[] sourceOf = new int[cols.size()];
        Arrays.fill(sourceOf, -1);
        for (int i = 0; i < target.length; i++) sourceOf[target[i]] = i;
        List<TableChange> out = new ArrayList<>(sourceRows.size());
        for (Row src : sourceRows) {
            Object[] values = new Object[cols.size()];
            for (int j = 0; j < cols.size(); j++) {
                ColumnDef col = cols.get(j);
                int s = sourceOf[j];
                values[j] = s >= 0 ? Casts.assign(src.get(s), sourceTypes.get(s), col.type()) : col.defaultValue();
            }
            Row row = Row.wrap(values);
            checkNotNull(table, row);
            out.add(new TableChange(table.id(), row, 1));
        }
        return out;
    }

    /**
     * The changes of an UPDATE of {@code upd.table()}: every match (the old row's columns,
     * then one value per SET column, of {@code matchTypes}) becomes a retraction of the
     * old row and an insertion of the new one, the SET values cast by assignment.
     *
     * @throws SqlException 23502 for a NULL in a NOT NULL column; the casts' errors (22xxx)
     */
    public static List<TableChange> updates(Statement.Update upd, List<SqlType> matchTypes, List<Row> matches) {
        TableDef table = upd.table();
        int arity = table.columns().size();
        int[] set = upd.setColumns();
        List<TableChange> changes = new ArrayList<>(matches.size() * 2);
        for (Row m : matches) {
            Object[] old = new Object[arity];
            for (int j = 0; j < arity; j++) old[j] = m.get(j);
            Object[] now = old.clone();
            for (int i = 0; i < set.length; i++) {
                SqlType from = matchTypes.get(arity + i);
                now[set[i]] = Casts.assign(m.get(arity + i), from, table.columns().get(set[i]).type());
            }
            Row newRow = Row.wrap(now);
            checkNotNull(table, newRow);
            changes.add(new TableChange(table.id(), Row.wrap(old), -1));
            changes.add(new TableChange(table.id(), newRow, 1));
        }
        return changes;
    }

    /** The changes of a DELETE from {@code table} of {@code matches}: one retraction each. */
    public static List<TableChange> deletions(TableDef table, List<Row> matches) {
        List<TableChange> changes = new ArrayList<>(matches.size());
        for (Row m : matches) changes.add(new TableChange(table.id(), m, -1));
        return changes;
    }

    private static void checkNotNull(TableDef table, Row row) {
        for (int j = 0; j < table.columns().size(); j++) {
            ColumnDef col = table.columns().get(j);
            if (col.notNull() && row.get(j) == null) {
                throw new SqlException(SqlState.NOT_NULL_VIOLATION,
                        "null value in column \"" + col.name() + "\" of relation \"" + table.name()
                                + "\" violates not-null constraint",
                        "Failing row contains " + describeRow(table, row) + ".", null);
            }
        }
    }

    /** A row as PostgreSQL prints it in constraint errors: {@code (1, abc, null)}. */
    private static String describeRow(TableDef table, Row row) {
        StringBuilder b = new StringBuilder("(");
        for (int j = 0; j < row.arity(); j++) {
            if (j > 0) b.append(", ");
            Object v = row.get(j);
            b.append(v == null ? "null" : DatumText.format(table.columns().get(j).type(), v));
        }
        return b.append(')').toString();
    }
}
