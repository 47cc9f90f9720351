package io.stillwater.engine.table;

import io.stillwater.engine.arrange.Batch;
import io.stillwater.engine.arrange.KeyValUpdate;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.arrange.TraceSnapshot;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's current contents: an arrangement keyed by the whole row (bag semantics: the
 * diff is the row's multiplicity), fed by committed writes.
 *
 * <p>Threading: {@link #apply} and {@link #advanceUpper} are called only by the write
 * path while it holds the coordinator's apply lock (the spine has one writer). Reads
 * ({@link #read}, {@link #hold}) may come from any thread: they go through the spine's
 * published snapshot and never block writes.
 */
public final class Table {
    private final TableDef def;
    private final Spine spine;

    /** An empty table created at {@code createdAt}: readable (empty) from that time on. */
    public Table(TableDef def, long createdAt) {
        this.def = def;
        this.spine = new Spine(createdAt);
        spine.advanceUpper(createdAt + 1);
    }

    public TableDef def() { return def; }

    /** Applies {@code changes} at {@code time} and advances the upper past it. Writer only. */
    public void apply(long time, Changes changes) {
        prepare(time, changes).publish();
    }

    /**
     * Builds the batch of {@code changes} at {@code time} without changing the table (the
     * sorting and allocation of a write happen here), for {@link Prepared#publish} to
     * install. Nothing may be applied to this table in between. Writer only.
     */
    public Prepared prepare(long time, Changes changes) {
        List<KeyValUpdate> updates = new ArrayList<>(changes.size());
        for (int i = 0; i < changes.size(); i++) {
            updates.add(new KeyValUpdate(changes.row(i), Row.EMPTY, time, changes.diff(i)));
        }
        return new Prepared(this, time, Batch.of(updates, spine.upper(), time + 1));
    }

    /** A write's batch, built and not yet part of the table. */
    public record Prepared(Table table, long time, Batch batch) {
        /** Inserts the batch (paying its merge fuel) and advances the upper past {@code time}. Writer only. */
        public void publish() {
            table.spine.insert(batch);
            // Writes only ever read at the newest time, so history below it can consolidate.
            table.spine.setLogicalCompaction(time);
        }
    }

    /** Moves the upper to {@code upper} without data (an idle step). Writer only. */
    public void advanceUpper(long upper) {
        if (upper > spine.upper()) spine.advanceUpper(upper);
    }

    /** The times at which this table is complete: every {@code t < upper()} is final. */
    public long upper() { return spine.snapshot().upper(); }

    /** Prevents compaction past {@code t} until the hold is closed. Any thread. */
    public ReadHold hold(long t) { return spine.acquireHold(t); }

    /**
     * The table's snapshot for a read at {@code asOf}: its keys are the rows ({@link
     * TraceSnapshot#walk} reads them a chunk at a time). Any thread.
     *
     * @throws IllegalStateException unless the table is readable at {@code asOf}
     */
    public TraceSnapshot snapshotAt(long asOf) {
        TraceSnapshot snap = spine.snapshot();
        snap.checkReadableAt(asOf);
        return snap;
    }

    /** The table's rows at {@code asOf} (consolidated, positive diffs). Any thread. */
    public Changes read(long asOf) {
        TraceSnapshot snap = spine.snapshot();
        Changes out = new Changes((int) Math.min(1 << 20, Math.max(16, snap.updateCount())));
        snap.forEachAt(asOf, (key, val, diff) -> out.add(key, diff));
        return out;
    }
}
