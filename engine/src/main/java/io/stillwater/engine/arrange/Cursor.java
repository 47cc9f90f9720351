package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;

/**
 * Navigates the updates of one or many batches as one sorted view: keys in storage order,
 * then the values of the current key in storage order, then the {@code (time, diff)}
 * updates of the current {@code (key, val)} (differential dataflow's {@code Cursor}).
 *
 * <p>Movement is forward only: {@link #seekKey} and {@link #seekVal} never go back (use
 * the rewind methods). {@link #key()} requires {@link #keyValid()}, {@link #val()} and the
 * accumulators require {@link #valValid()}. A cursor belongs to the thread that uses it;
 * the batches under it are immutable, so any number of cursors may read them concurrently.
 *
 * <p>Accumulations are raw: a cursor does not check a read time against a trace's
 * {@code since}/{@code upper}; {@link TraceSnapshot} does.
 */
public interface Cursor {
    boolean keyValid();

    Row key();

    /** Moves to the next key; its first value becomes current. */
    void stepKey();

    /** Moves forward to the first key {@code >= key} (no move if already there). */
    void seekKey(Row key);

    /** Back to the first key. */
    void rewindKeys();

    boolean valValid();

    Row val();

    /** Moves to the next value of the current key. */
    void stepVal();

    /** Moves forward to the first value {@code >= val} of the current key. */
    void seekVal(Row val);

    /** Back to the first value of the current key. */
    void rewindVals();

    /** Sum of the diffs of the current {@code (key, val)} at times {@code <= t}. */
    long diffAt(long t);

    /**
     * Every {@code (time, diff)} of the current {@code (key, val)}. Within one batch in time
     * order; across batches in no particular order, and a time may repeat.
     */
    void forEachTime(TimeDiffConsumer consumer);

    /**
     * Positions visited so far: one per key step, value step and seek. Walks spend fuel by
     * this count, so an expensive scan is bounded by the work it did, not the rows it kept.
     */
    long positions();

    @FunctionalInterface
    interface TimeDiffConsumer {
        void accept(long time, long diff);
    }
}
