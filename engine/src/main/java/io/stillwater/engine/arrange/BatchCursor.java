package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.NoSuchElementException;

/**
 * A cursor over one batch: array positions into its columns. {@link #key()} and {@link #val()}
 * materialize a packed row once per position and keep it, so repeated calls at one position
 * return the same object and allocate nothing.
 */
final class BatchCursor implements Cursor {
    private final Batch b;
    private int keyPos;
    private int valPos;
    private long positions;
    // The row last materialized and its position (-1: none).
    private Row keyRow;
    private int keyRowPos = -1;
    private Row valRow;
    private int valRowPos = -1;

    BatchCursor(Batch batch) {
        this.b = batch;
    }

    @Override public boolean keyValid() { return keyPos < b.keyCount; }

    @Override
    public Row key() {
        if (keyPos >= b.keyCount) throw new NoSuchElementException("cursor past the last key");
        if (keyRowPos != keyPos) {
            keyRow = b.keys.row(keyPos);
            keyRowPos = keyPos;
        }
        return keyRow;
    }

    @Override
    public void stepKey() {
        positions++;
        if (keyPos < b.keyCount) {
            keyPos++;
            valPos = b.valStart(keyPos);
        }
    }

    @Override
    public void seekKey(Row key) {
        positions++;
        int found = gallop(b.keys, keyPos, b.keyCount, key);
        if (found != keyPos) {
            keyPos = found;
            valPos = b.valStart(found);
        }
    }

    @Override
    public void rewindKeys() {
        keyPos = 0;
        valPos = 0;
    }

    @Override public boolean valValid() { return keyPos < b.keyCount && valPos < b.valStart(keyPos + 1); }

    @Override
    public Row val() {
        if (!valValid()) throw new NoSuchElementException("cursor past the last value");
        if (valRowPos != valPos) {
            valRow = b.vals.row(valPos);
            valRowPos = valPos;
        }
        return valRow;
    }

    @Override
    public void stepVal() {
        positions++;
        if (valValid()) valPos++;
    }

    @Override
    public void seekVal(Row val) {
        positions++;
        if (keyPos < b.keyCount) valPos = gallop(b.vals, valPos, b.valStart(keyPos + 1), val);
    }

    @Override
    public void rewindVals() {
        if (keyPos < b.keyCount) valPos = b.valStart(keyPos);
    }

    @Override
    public long diffAt(long t) {
        if (!valValid()) throw new NoSuchElementException("cursor past the last value");
        return b.diffAt(valPos, t);
    }

    @Override
    public void forEachTime(TimeDiffConsumer consumer) {
        if (!valValid()) throw new NoSuchElementException("cursor past the last value");
        int end = b.updStart(valPos + 1);
        for (int u = b.updStart(valPos); u < end; u++) consumer.accept(b.time(u), b.diff(u));
    }

    @Override public long positions() { return positions; }

    /** Sign of this cursor's key against {@code o}'s, both valid; no materializing. */
    int compareKey(BatchCursor o) { return RowColumn.compare(b.keys, keyPos, o.b.keys, o.keyPos); }

    /** Sign of this cursor's value against {@code o}'s, both valid; no materializing. */
    int compareVal(BatchCursor o) { return RowColumn.compare(b.vals, valPos, o.b.vals, o.valPos); }

    /**
     * First index in {@code [from, to)} whose row is {@code >= target}, or {@code to}.
     * Gallops forward from {@code from}, so seeks near the current position are cheap.
     */
    static int gallop(RowColumn rows, int from, int to, Row target) {
        if (from >= to || rows.compareTo(from, target) >= 0) return from;
        int lo = from; // rows[lo] < target
        int step = 1;
        int probe = lo + 1;
        while (probe < to && rows.compareTo(probe, target) < 0) {
            lo = probe;
            step <<= 1;
            probe = lo + step;
        }
        int hi = Math.min(probe, to); // rows[hi] >= target, or hi == to
        lo++;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (rows.compareTo(mid, target) < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
