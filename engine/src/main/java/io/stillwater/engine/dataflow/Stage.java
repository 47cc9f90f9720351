package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.memory.QueryMemory;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One node of a {@link PipelinedRead}: produces its output collection chunk by chunk
 * when its consumer pulls ({@link #next}), pulling its own inputs as it needs them.
 * Every call does a bounded amount of work (about {@link Context#chunkRows} rows in or
 * out), so a read can be cancelled between any two calls and memory in flight is a few
 * chunks per stage. What a stage keeps across calls (hash tables, operator state, queued
 * chunks) is reserved from the read's {@link QueryMemory} and released by {@link #close}.
 *
 * <p>Owned by the read's thread, like the read.
 */
abstract class Stage {
    /** What the stages of one read share. */
    record Context(int chunkRows, Cancellation cancel, QueryMemory memory, ErrorCollection errors) {
        /** An operator step over one chunk, its errors moved to the read's error collection. */
        Changes step(Operator op, Changes... inputs) {
            Changes errs = new Changes(0);
            Changes out = op.step(inputs, errs);
            errors.add(errs);
            return out;
        }
    }

    final Context cx;
    private long reserved;

    Stage(Context cx) { this.cx = cx; }

    /** The next output chunk (possibly empty), or null once the output is complete. */
    abstract Changes next();

    /** Releases this stage's reservations and closes its inputs. Idempotent. */
    void close() { release(reserved); }

    final void reserve(long bytes) {
        if (bytes <= 0) return;
        cx.memory().reserve(bytes);
        reserved += bytes;
    }

    final void release(long bytes) {
        long b = Math.min(bytes, reserved);
        if (b <= 0) return;
        cx.memory().release(b);
        reserved -= b;
    }

    /** Makes this stage's reservation exactly {@code bytes} (a stateful operator's state as it grows). */
    final void holdExactly(long bytes) {
        if (bytes > reserved) reserve(bytes - reserved);
        else release(reserved - bytes);
    }

    // ------------------------------------------------------------------ stages

    /** A cursor over an input collection. */
    static final class Scan extends Stage {
        private final ChunkSource source;

        Scan(Context cx, ChunkSource source) {
            super(cx);
            this.source = source;
        }

        @Override
        Changes next() { return source.next(); }

        @Override
        void close() {
            source.close();
            super.close();
        }
    }

    /** A linear operator without state (map/filter/project, negate): chunk in, chunk out. */
    static final class Linear extends Stage {
        private final Operator op;
        private final Stage input;

        Linear(Context cx, Operator op, Stage input) {
            super(cx);
            this.op = op;
            this.input = input;
        }

        @Override
        Changes next() {
            Changes in = input.next();
            return in == null ? null : cx.step(op, in);
        }

        @Override
        void close() {
            input.close();
            super.close();
        }
    }

    /** UNION ALL: its inputs' chunks, one input after the other. */
    static final class Concat extends Stage {
        private final Stage[] inputs;
        private int current;

        Concat(Context cx, Stage[] inputs) {
            super(cx);
            this.inputs = inputs;
        }

        @Override
        Changes next() {
            while (current < inputs.length) {
                Changes c = inputs[current].next();
                if (c != null) return c;
                inputs[current++].close(); // done: let its buffers go
            }
            return null;
        }

        @Override
        void close() {
            for (Stage s : inputs) s.close();
            super.close();
        }
    }

    /** A constant collection (VALUES): the operator's single step, in chunks. */
    static final class Once extends Stage {
        private final Operator op;
        private ChunkSource rows;

        Once(Context cx, Operator op) {
            super(cx);
            this.op = op;
        }

        @Override
        Changes next() {
            if (rows == null) rows = ChunkSource.slices(cx.step(op), cx.chunkRows());
            return rows.next();
        }
    }

    /** generate_series, produced chunk by chunk (a series of a billion rows is never held). */
    static final class Series extends Stage {
        private final GenerateSeriesOperator op;

        Series(Context cx, GenerateSeriesOperator op) {
            super(cx);
            this.op = op;
        }

        @Override
        Changes next() {
            Changes errs = new Changes(0);
            Changes out = op.nextChunk(cx.chunkRows(), errs);
            cx.errors().add(errs);
            return out;
        }
    }

    /**
     * A stateful operator (reduce, distinct, threshold, top-k): absorbs its whole input on
     * the first pull (holding its state's estimated size), then emits its output in chunks.
     */
    static final class Absorb extends Stage {
        private Absorbing op;
        private final Stage input;
        private boolean absorbed;

        Absorb(Context cx, Absorbing op, Stage input) {
            super(cx);
            this.op = op;
            this.input = input;
        }

        @Override
        Changes next() {
            if (op == null) return null;
            Changes errs = new Changes(0);
            if (!absorbed) {
                for (Changes c = input.next(); c != null; c = input.next()) {
                    cx.cancel().check();
                    op.absorb(c, errs);
                    cx.errors().add(errs);
                    errs = new Changes(0);
                    holdExactly(op.stateBytes());
                }
                absorbed = true;
                input.close();
            }
            Changes out = op.emit(cx.chunkRows(), errs);
            cx.errors().add(errs);
            if (out == null) {
                op = null; // emitted everything: the state can go
                holdExactly(0);
            }
            return out;
        }

        @Override
        void close() {
            op = null;
            input.close();
            super.close();
        }
    }

    /**
     * A node read by several consumers: each {@link Branch} gets every chunk; a chunk one
     * branch pulled first waits (reserved) in the others' queues until they pull it.
     */
    static final class Tee {
        private final Context cx;
        private final Stage input;
        private final ArrayDeque<Changes>[] queues;
        private final boolean[] closed;
        private boolean done;
        private long queuedBytes;

        @SuppressWarnings("unchecked")
        Tee(Context cx, Stage input, int branches) {
            this.cx = cx;
            this.input = input;
            this.queues = new ArrayDeque[branches];
            for (int i = 0; i < branches; i++) queues[i] = new ArrayDeque<>();
            this.closed = new boolean[branches];
        }

        Stage branch(int i) { return new Branch(cx, this, i); }

        private Changes next(int branch) {
            Changes queued = queues[branch].poll();
            if (queued != null) {
                long b = HeapEstimate.chunk(queued);
                queuedBytes -= b;
                cx.memory().release(b);
                return queued;
            }
            if (done) return null;
            Changes c = input.next();
            if (c == null) {
                done = true;
                return null;
            }
            if (!c.isEmpty()) {
                long b = HeapEstimate.chunk(c);
                for (int i = 0; i < queues.length; i++) {
                    if (i == branch || closed[i]) continue;
                    cx.memory().reserve(b);
                    queuedBytes += b;
                    queues[i].add(c);
                }
            }
            return c;
        }

        private void close(int branch) {
            if (closed[branch]) return;
            closed[branch] = true;
            for (Changes c : queues[branch]) {
                long b = HeapEstimate.chunk(c);
                queuedBytes -= b;
                cx.memory().release(b);
            }
            queues[branch].clear();
            for (boolean c : closed) if (!c) return;
            input.close();
        }

        private static final class Branch extends Stage {
            private final Tee tee;
            private final int index;

            Branch(Context cx, Tee tee, int index) {
                super(cx);
                this.tee = tee;
                this.index = index;
            }

            @Override
            Changes next() { return tee.next(index); }

            @Override
            void close() { tee.close(index); }
        }
    }

    /**
     * Consolidates an output that may carry retractions (EXCEPT/INTERSECT lower onto
     * negation) before it leaves the read: absorbs all of it, then emits the rows whose
     * accumulated count is positive. A negative count is an internal error.
     */
    static final class Consolidate extends Stage {
        private final Stage input;
        private Map<Row, long[]> counts;
        private Iterator<Map.Entry<Row, long[]>> emitting;

        Consolidate(Context cx, Stage input) {
            super(cx);
            this.input = input;
        }

        @Override
        Changes next() {
            if (emitting == null) {
                counts = new LinkedHashMap<>();
                for (Changes c = input.next(); c != null; c = input.next()) {
                    cx.cancel().check();
                    long rowBytes = c.isEmpty() ? 0 : HeapEstimate.chunk(c) / c.size();
                    for (int i = 0; i < c.size(); i++) {
                        long[] n = counts.get(c.row(i));
                        if (n == null) {
                            counts.put(c.row(i), new long[] {c.diff(i)});
                            reserve(HeapEstimate.MAP_ENTRY + rowBytes);
                        } else {
                            n[0] += c.diff(i);
                        }
                    }
                }
                input.close();
                emitting = counts.entrySet().iterator();
            }
            if (!emitting.hasNext()) {
                counts = null;
                holdExactly(0);
                return null;
            }
            Changes out = new Changes();
            while (emitting.hasNext() && out.size() < cx.chunkRows()) {
                var e = emitting.next();
                long d = e.getValue()[0];
                if (d < 0) {
                    throw new SqlException(SqlState.INTERNAL_ERROR,
                            "internal error: a one-shot read produced a negative multiplicity for row " + e.getKey());
                }
                out.add(e.getKey(), d);
            }
            return out;
        }

        @Override
        void close() {
            counts = null;
            input.close();
            super.close();
        }
    }

    /**
     * A join of a chunked probe input with an arrangement fixed at the read time (an
     * index): each probe row looks its key up; a call stops after about {@link
     * Context#chunkRows} output rows or arranged rows looked at (a key's matches are
     * visited in one go).
     */
    static final class Lookup extends Stage {
        private final LookupJoinOperator op;
        private final Stage probe;
        private Changes chunk;
        private int position;

        Lookup(Context cx, LookupJoinOperator op, Stage probe) {
            super(cx);
            this.op = op;
            this.probe = probe;
        }

        @Override
        Changes next() {
            Changes out = new Changes();
            Changes errs = new Changes(0);
            long work = 0;
            try {
                while (out.size() < cx.chunkRows() && work < 4L * cx.chunkRows()) {
                    if (chunk == null || position == chunk.size()) {
                        if (chunk != null) holdExactly(0);
                        chunk = probe.next();
                        position = 0;
                        if (chunk == null) return out.isEmpty() ? null : out;
                        holdExactly(HeapEstimate.chunk(chunk));
                        continue;
                    }
                    op.tick((int) work);
                    work += 1 + op.probe(chunk.row(position), chunk.diff(position), out, errs);
                    position++;
                }
                return out;
            } finally {
                cx.errors().add(errs);
            }
        }

        @Override
        void close() {
            chunk = null;
            probe.close();
            super.close();
        }
    }
}
