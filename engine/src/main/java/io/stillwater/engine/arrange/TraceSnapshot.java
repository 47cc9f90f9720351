package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;

/**
 * An immutable view of a spine at one moment: its batches (oldest first), its {@code upper}
 * and {@code since}. Published by the spine's writer after every change and taken by
 * readers without locks. Batches never change, so a snapshot reads correctly for as long
 * as anyone holds it, however far the spine has merged since; the garbage collector frees
 * superseded batches after the last snapshot using them is dropped.
 *
 * <p>A read at {@code t} is valid when {@code since <= t < upper}: times below since may
 * have been compacted, times at or beyond upper are not final. The read methods throw
 * {@link IllegalStateException} otherwise: callers (peeks) check {@link #isReadableAt}
 * first, after taking a {@link ReadHold} and waiting for the upper.
 */
public final class TraceSnapshot {
    private final Batch[] batches;
    private final long upper;
    private final long since;

    TraceSnapshot(Batch[] batches, long upper, long since) {
        this.batches = batches;
        this.upper = upper;
        this.since = since;
    }

    /** The batches, oldest first, none empty. */
    public List<Batch> batches() { return Collections.unmodifiableList(Arrays.asList(batches)); }

    /** All updates at times {@code < upper} are in this snapshot. */
    public long upper() { return upper; }

    /** The snapshot reads exactly at times {@code >= since}. */
    public long since() { return since; }

    /** Number of updates over all batches (not the number of rows at some time). */
    public long updateCount() {
        long n = 0;
        for (Batch b : batches) n += b.size();
        return n;
    }

    public boolean isReadableAt(long t) { return since <= t && t < upper; }

    /** @throws IllegalStateException unless {@code since <= t < upper} */
    public void checkReadableAt(long t) {
        if (t < since) {
            throw new IllegalStateException("read at " + t + " is before the trace's since " + since);
        }
        if (t >= upper) {
            throw new IllegalStateException("read at " + t + " is not before the trace's upper " + upper);
        }
    }

    /** A merged cursor over all batches of this snapshot. */
    public Cursor cursor() {
        BatchCursor[] cs = new BatchCursor[batches.length];
        for (int i = 0; i < batches.length; i++) cs[i] = new BatchCursor(batches[i]);
        return cs.length == 1 ? cs[0] : new CursorList(cs);
    }

    /** Visits every {@code (key, val)} whose accumulated diff at {@code t} is non-zero, in storage order. */
    public void forEachAt(long t, Visitor visitor) {
        checkReadableAt(t);
        Cursor c = cursor();
        while (c.keyValid()) {
            while (c.valValid()) {
                long d = c.diffAt(t);
                // key() only here: a packed key is materialized (once) only if a value is visited.
                if (d != 0) visitor.accept(c.key(), c.val(), d);
                c.stepVal();
            }
            c.stepKey();
        }
    }

    /**
     * {@link #forEachAt} in slices: a walk of the contents at {@code t} that stops after a
     * bounded number of visits and resumes where it stopped, so a reader can consume the rows
     * a chunk at a time (packed rows are materialized per chunk and die young, instead of the
     * whole collection being copied out at once).
     */
    public Walk walk(long t) {
        checkReadableAt(t);
        return new Walk(cursor(), t);
    }

    /** A resumable {@link #forEachAt}; owned by one thread at a time. */
    public static final class Walk {
        private final Cursor cursor;
        private final long time;
        private boolean done;

        private Walk(Cursor cursor, long time) {
            this.cursor = cursor;
            this.time = time;
        }

        /**
         * Visits the next entries (non-zero accumulated diff at the walk's time, storage order)
         * until {@code maxVisits} were visited or as many positions were stepped over; returns
         * whether the walk is complete (every later call visits nothing and returns true).
         */
        public boolean advance(int maxVisits, Visitor visitor) {
            if (done) return true;
            Cursor c = cursor;
            long stop = c.positions() + Math.max(1, maxVisits);
            int visits = 0;
            while (c.keyValid()) {
                while (c.valValid()) {
                    long d = c.diffAt(time);
                    if (d != 0) {
                        visitor.accept(c.key(), c.val(), d);
                        visits++;
                    }
                    c.stepVal();
                    if (visits >= maxVisits || c.positions() >= stop) return false;
                }
                c.stepKey();
            }
            done = true;
            return true;
        }
    }

    /** The contents at {@code t} as rows made by {@code combine(key, val)}, each with its multiplicity. */
    public Changes rowsAt(long t, BiFunction<Row, Row, Row> combine) {
        Changes out = new Changes();
        forEachAt(t, (k, v, d) -> out.add(combine.apply(k, v), d));
        return out;
    }

    /**
     * Visits the values of {@code key} whose accumulated diff at {@code t} is non-zero, in
     * value order: one binary search per batch, {@code O(batches * log n)} plus the values
     * found. No cursor is built: with one batch (a compacted index) the values are visited
     * straight from it; with several, each batch's values of the key are gathered and
     * consolidated (a value's diffs summed over batches, as a merged cursor would).
     */
    public void lookup(Row key, long t, Visitor visitor) {
        checkReadableAt(t);
        if (batches.length == 1) {
            Batch b = batches[0];
            int k = b.findKey(key);
            if (k < 0) return;
            Row found = b.keys.rowEqualTo(k, key);
            for (int v = b.valStart(k); v < b.valStart(k + 1); v++) {
                long d = b.diffAt(v, t);
                if (d != 0) visitor.accept(found, b.vals.row(v), d);
            }
            return;
        }
        Row found = null;
        List<Entry> gathered = null;
        for (Batch b : batches) {
            int k = b.findKey(key);
            if (k < 0) continue;
            if (found == null) found = b.keys.rowEqualTo(k, key);
            for (int v = b.valStart(k); v < b.valStart(k + 1); v++) {
                long d = b.diffAt(v, t);
                if (d == 0) continue;
                if (gathered == null) gathered = new ArrayList<>();
                gathered.add(new Entry(found, b.vals.row(v), d));
            }
        }
        if (gathered == null) return;
        gathered.sort((x, y) -> RowOrder.compare(x.val(), y.val()));
        int i = 0;
        while (i < gathered.size()) {
            Row val = gathered.get(i).val();
            long sum = 0;
            for (; i < gathered.size() && RowOrder.compare(gathered.get(i).val(), val) == 0; i++) {
                sum += gathered.get(i).diff();
            }
            if (sum != 0) visitor.accept(found, val, sum);
        }
    }

    /** Values of {@code key} at {@code t} with their multiplicities. */
    public List<Entry> lookup(Row key, long t) {
        List<Entry> out = new ArrayList<>();
        lookup(key, t, (k, v, d) -> out.add(new Entry(k, v, d)));
        return out;
    }

    /** A {@code (key, val)} and its accumulated diff at some time. */
    public record Entry(Row key, Row val, long diff) {}

    @FunctionalInterface
    public interface Visitor {
        void accept(Row key, Row val, long diff);
    }

    @Override
    public String toString() {
        return "TraceSnapshot[batches=" + batches.length + ", upper=" + upper + ", since=" + since + "]";
    }
}
