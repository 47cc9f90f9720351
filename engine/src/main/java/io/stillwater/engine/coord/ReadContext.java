package io.stillwater.engine.coord;

import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.arrange.TraceSnapshot;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.table.Table;
import java.util.Map;

/**
 * A read in progress ({@link ReadTimestamps#beginRead}): its timestamp, the tables it
 * reads and the holds that keep them readable there until {@link #close()}. Owned by
 * the thread that began the read.
 */
public final class ReadContext implements AutoCloseable {
    private final SystemRelationRows builtins;
    private final long asOf;
    private final Map<Long, Table> tables;
    private final Map<Long, ReadHold> holds;

    ReadContext(SystemRelationRows builtins, long asOf, Map<Long, Table> tables, Map<Long, ReadHold> holds) {
        this.builtins = builtins;
        this.asOf = asOf;
        this.tables = tables;
        this.holds = holds;
    }

    public long asOf() { return asOf; }

    /** The contents of table {@code id} at {@code time} (at or after {@link #asOf()}). */
    public Changes read(long id, long time) {
        // Built-in relations are always complete: their rows are computed now.
        if (SystemRelations.isSystem(id)) return builtins.rows(id);
        Table t = tables.get(id);
        if (t == null) throw new IllegalStateException("table " + id + " not part of this read");
        return t.read(time);
    }

    /**
     * The snapshot of table {@code id} for a read at {@code time} (its keys are the rows, as
     * {@link #read} returns them), or null for a built-in relation (computed, not stored).
     */
    public TraceSnapshot snapshot(long id, long time) {
        if (SystemRelations.isSystem(id)) return null;
        Table t = tables.get(id);
        if (t == null) throw new IllegalStateException("table " + id + " not part of this read");
        return t.snapshotAt(time);
    }

    @Override
    public void close() { holds.values().forEach(ReadHold::close); }
}
