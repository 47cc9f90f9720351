package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.NoSuchElementException;

/**
 * A merged cursor over several batch cursors (differential dataflow's {@code CursorList}):
 * the current key is the least key among the cursors, the current value the least value
 * among the cursors at that key, and accumulations sum over the cursors at that value.
 * With {@code b} batches a move costs {@code O(b)} comparisons; spines keep {@code b} at
 * {@code O(log n)}.
 */
final class CursorList implements Cursor {
    private final BatchCursor[] cursors;
    private final int[] minKeys; // indexes of cursors at the current key
    private int minKeyCount;
    private final int[] minVals; // indexes (among all cursors) at the current value
    private int minValCount;
    private long positions;

    CursorList(BatchCursor[] cursors) {
        this.cursors = cursors;
        this.minKeys = new int[cursors.length];
        this.minVals = new int[cursors.length];
        findMinKey();
    }

    // Batch cursors compare their positions directly (primitive columns without boxing); the
    // current key and value are those of the first cursor at the minimum, materialized only
    // when asked for.
    private void findMinKey() {
        int n = 0;
        for (int i = 0; i < cursors.length; i++) {
            BatchCursor c = cursors[i];
            if (!c.keyValid()) continue;
            int cmp = n == 0 ? -1 : c.compareKey(cursors[minKeys[0]]);
            if (cmp < 0) {
                minKeys[0] = i;
                n = 1;
            } else if (cmp == 0) {
                minKeys[n++] = i;
            }
        }
        minKeyCount = n;
        findMinVal();
    }

    private void findMinVal() {
        int n = 0;
        for (int j = 0; j < minKeyCount; j++) {
            int i = minKeys[j];
            BatchCursor c = cursors[i];
            if (!c.valValid()) continue;
            int cmp = n == 0 ? -1 : c.compareVal(cursors[minVals[0]]);
            if (cmp < 0) {
                minVals[0] = i;
                n = 1;
            } else if (cmp == 0) {
                minVals[n++] = i;
            }
        }
        minValCount = n;
    }

    @Override public boolean keyValid() { return minKeyCount > 0; }

    @Override
    public Row key() {
        if (minKeyCount == 0) throw new NoSuchElementException("cursor past the last key");
        return cursors[minKeys[0]].key();
    }

    @Override
    public void stepKey() {
        positions++;
        for (int j = 0; j < minKeyCount; j++) cursors[minKeys[j]].stepKey();
        findMinKey();
    }

    @Override
    public void seekKey(Row key) {
        positions++;
        for (BatchCursor c : cursors) c.seekKey(key);
        findMinKey();
    }

    @Override
    public void rewindKeys() {
        for (BatchCursor c : cursors) c.rewindKeys();
        findMinKey();
    }

    @Override public boolean valValid() { return minValCount > 0; }

    @Override
    public Row val() {
        if (minValCount == 0) throw new NoSuchElementException("cursor past the last value");
        return cursors[minVals[0]].val();
    }

    @Override
    public void stepVal() {
        positions++;
        for (int j = 0; j < minValCount; j++) cursors[minVals[j]].stepVal();
        findMinVal();
    }

    @Override
    public void seekVal(Row val) {
        positions++;
        for (int j = 0; j < minKeyCount; j++) cursors[minKeys[j]].seekVal(val);
        findMinVal();
    }

    @Override
    public void rewindVals() {
        for (int j = 0; j < minKeyCount; j++) cursors[minKeys[j]].rewindVals();
        findMinVal();
    }

    @Override
    public long diffAt(long t) {
        if (minValCount == 0) throw new NoSuchElementException("cursor past the last value");
        long sum = 0;
        for (int j = 0; j < minValCount; j++) sum += cursors[minVals[j]].diffAt(t);
        return sum;
    }

    @Override
    public void forEachTime(TimeDiffConsumer consumer) {
        if (minValCount == 0) throw new NoSuchElementException("cursor past the last value");
        for (int j = 0; j < minValCount; j++) cursors[minVals[j]].forEachTime(consumer);
    }

    @Override public long positions() { return positions; }
}
