package io.stillwater.engine.coord;

import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.table.Table;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The read side of the coordinator, as reads (peeks) see it: the strict serializable read
 * timestamp, and read holds on tables placed at a chosen time ({@link #beginRead}). The
 * choice of timestamp and the holds are made under the write pipeline's apply lock, so
 * compaction (which follows applied writes) cannot pass the chosen time before the holds
 * are in place. Any thread; each {@link ReadContext} belongs to the thread that began it.
 */
public final class ReadTimestamps {
    private final WritePipeline pipeline;
    private final AppliedState state;
    private final SystemRelationRows builtins;

    ReadTimestamps(WritePipeline pipeline, AppliedState state, SystemRelationRows builtins) {
        this.pipeline = pipeline;
        this.state = state;
        this.builtins = builtins;
    }

    /** Whether {@code id} is a table now (reads of writes read tables from their own snapshots). */
    public boolean isTable(long id) { return state.isTable(id); }

    /** The strict serializable read timestamp: at or after every acknowledged write. */
    public long readTimestamp() { return pipeline.oracle().readTimestamp(); }

    /**
     * Chooses a read timestamp ({@code fixedTime}, or the current strict serializable
     * one when negative) and places read holds at it on {@code tableIds}, atomically
     * with respect to compaction. Close the returned {@link ReadContext} to release.
     *
     * @throws SqlException 42P01 when a table was dropped meanwhile
     */
    public ReadContext beginRead(Collection<Long> tableIds, long fixedTime) {
        if (!holdsAny(tableIds)) {
            // No table to hold (a read of indexes, or of built-in relations only): the time
            // needs no atomicity with compaction, and the oracle is safe from any thread,
            // so reads of indexes never queue on the apply lock that every session shares.
            // The exports' own frontiers and snapshots keep the read correct at this time.
            return new ReadContext(builtins, fixedTime >= 0 ? fixedTime : pipeline.oracle().readTimestamp(),
                    Map.of(), Map.of());
        }
        synchronized (pipeline.applyLock()) {
            long asOf = fixedTime >= 0 ? fixedTime : pipeline.oracle().readTimestamp();
            Map<Long, ReadHold> holds = new LinkedHashMap<>();
            Map<Long, Table> snapshotTables = new HashMap<>();
            for (long id : tableIds) {
                if (SystemRelations.isSystem(id)) continue; // computed when read, see ReadContext.read
                Table t = state.table(id).orElse(null);
                if (t == null) {
                    holds.values().forEach(ReadHold::close);
                    throw new SqlException(SqlState.UNDEFINED_TABLE,
                            "relation with id " + id + " was dropped while the statement was planned");
                }
                holds.put(id, t.hold(asOf));
                snapshotTables.put(id, t);
            }
            return new ReadContext(builtins, asOf, snapshotTables, holds);
        }
    }

    /** Whether any of {@code tableIds} is a stored table (built-in relations need no hold). */
    private static boolean holdsAny(Collection<Long> tableIds) {
        for (long id : tableIds) {
            if (!SystemRelations.isSystem(id)) return true;
        }
        return false;
    }
}
