package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.plan.JoinKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;

/**
 * The one-shot hash join of a pipelined read ({@link JoinOperator}'s semantics, computed
 * in three phases instead of incrementally):
 * <ol>
 *   <li><b>build</b>: the whole build side goes into a hash table by join key (rows
 *       consolidated per key, reserved from the read's memory);</li>
 *   <li><b>probe</b>: the other side is pulled chunk by chunk; each probe row is matched
 *       against the complete build side, so its output (pairs, and its NULL-padded or
 *       SEMI/ANTI output) is final at once. A call emits at most about {@code chunkRows}
 *       rows and looks at no more than a few times that many pairs, resuming mid-row and
 *       mid-bucket on the next call: a cross join of 10,000 by 10,000 rows streams its
 *       100M rows without ever holding more than one chunk of them;</li>
 *   <li><b>unmatched build rows</b> (FULL joins): build rows no probe row matched, NULL-padded.</li>
 * </ol>
 * The build side is the right input, except for RIGHT joins (whose right rows' output
 * depends on the complete left side): plans are left-deep, so the right input is usually
 * a stored collection and the left one the running intermediate result, which streams
 * through instead of being held.
 *
 * <p>Inputs may carry retractions (negations under EXCEPT/INTERSECT): the build side is
 * consolidated per row, and each build row records the sum of the diffs of the probe rows
 * that matched it; since every collection's accumulated multiplicities are non-negative,
 * that sum is positive exactly when some probe row with a positive count matched.
 */
final class HashJoinStage extends Stage {
    private enum Phase { BUILD, PROBE, UNMATCHED, DONE }

    /** Per build row beyond the row itself: array slots, count, match sum, and its index entry in large buckets. */
    private static final long BUILD_ENTRY_BYTES = 40;

    private final JoinOperator op;
    private final JoinOperator.Shape shape;
    private final Stage left;
    private final Stage right;
    private final boolean buildLeft;
    private final int[] buildKeys;
    private final int[] probeKeys;
    /** Output rows of probe rows that depend on whether they matched (LEFT/FULL padding, SEMI, ANTI, RIGHT padding). */
    private final boolean probeStatus;
    /** FULL joins: build rows that no probe row matched are output, NULL-padded. */
    private final boolean buildStatus;
    private final boolean emitPairs;
    private final boolean evaluatePairs;
    private final Row leftNulls;
    private final Row rightNulls;

    private final HashMap<Row, BuildBucket> table = new HashMap<>();
    /** Build rows with a NULL key (they never match), kept for a FULL join's unmatched output. */
    private final Changes nullKeyBuild = new Changes(0);
    private Phase phase = Phase.BUILD;

    // probe position: the chunk, the row in it, and how far into that row's bucket
    private Changes chunk;
    private int row;
    private BuildBucket bucket;
    private int match;
    private boolean matched;
    private boolean rowStarted;

    // unmatched build rows
    private Iterator<BuildBucket> buckets;
    private int nullKeyPosition;

    HashJoinStage(Context cx, JoinOperator op, Stage left, Stage right) {
        super(cx);
        this.op = op;
        this.shape = op.shape();
        this.left = left;
        this.right = right;
        JoinKind kind = shape.kind();
        this.buildLeft = kind == JoinKind.RIGHT;
        this.buildKeys = buildLeft ? shape.leftKeys() : shape.rightKeys();
        this.probeKeys = buildLeft ? shape.rightKeys() : shape.leftKeys();
        this.probeStatus = kind != JoinKind.INNER;
        this.buildStatus = kind == JoinKind.FULL;
        this.emitPairs = kind != JoinKind.SEMI && kind != JoinKind.ANTI;
        this.evaluatePairs = emitPairs || shape.residual() != null;
        this.leftNulls = Row.wrap(new Object[shape.leftArity()]);
        this.rightNulls = Row.wrap(new Object[shape.rightArity()]);
    }

    @Override
    Changes next() {
        if (phase == Phase.BUILD) build();
        Changes out = new Changes(Math.min(cx.chunkRows(), 1024));
        Changes errs = new Changes(0);
        try {
            if (phase == Phase.PROBE) probe(out, errs);
            if (phase == Phase.UNMATCHED && out.size() < cx.chunkRows()) unmatched(out);
        } finally {
            cx.errors().add(errs);
        }
        return phase == Phase.DONE && out.isEmpty() ? null : out;
    }

    private void build() {
        Stage side = buildLeft ? left : right;
        for (Changes c = side.next(); c != null; c = side.next()) {
            cx.cancel().check();
            if (c.isEmpty()) continue;
            long rowBytes = HeapEstimate.chunk(c) / c.size();
            long added = 0;
            for (int i = 0; i < c.size(); i++) {
                op.tick(i);
                Row r = c.row(i);
                Row key = JoinOperator.keyOf(r, buildKeys);
                if (key == null) {
                    if (buildStatus) {
                        nullKeyBuild.add(r, c.diff(i));
                        added += rowBytes + HeapEstimate.ENTRY;
                    }
                    continue;
                }
                BuildBucket b = table.get(key);
                if (b == null) {
                    b = new BuildBucket();
                    table.put(key, b);
                    added += HeapEstimate.MAP_ENTRY + 64 + HeapEstimate.row(key);
                }
                if (b.update(r, c.diff(i))) added += rowBytes + BUILD_ENTRY_BYTES;
            }
            reserve(added);
        }
        side.close();
        phase = Phase.PROBE;
    }

    /** Matches probe rows until the chunk is full or the call has done its share of work. */
    private void probe(Changes out, Changes errs) {
        Stage side = buildLeft ? right : left;
        long work = 0;
        long maxWork = 4L * cx.chunkRows();
        while (out.size() < cx.chunkRows() && work < maxWork) {
            if (chunk == null || row == chunk.size()) {
                if (chunk != null) holdProbeChunk(null);
                Changes c = side.next();
                if (c == null) {
                    side.close();
                    phase = buildStatus ? Phase.UNMATCHED : Phase.DONE;
                    return;
                }
                holdProbeChunk(c);
                continue;
            }
            Row p = chunk.row(row);
            long d = chunk.diff(row);
            if (!rowStarted) {
                rowStarted = true;
                Row key = JoinOperator.keyOf(p, probeKeys);
                bucket = key == null ? null : table.get(key);
                match = 0;
                matched = false;
                if (!evaluatePairs) matched = bucket != null && bucket.size > 0; // consolidated: stored counts are positive
            }
            if (evaluatePairs && bucket != null) {
                while (match < bucket.size && out.size() < cx.chunkRows() && work < maxWork) {
                    op.tick((int) work++);
                    Row b = bucket.rows[match];
                    long count = bucket.counts[match];
                    Row joined = buildLeft ? b.concat(p) : p.concat(b);
                    if (passes(joined, d * count, errs)) {
                        matched = true;
                        if (emitPairs) out.add(joined, d * count);
                        if (buildStatus) bucket.probeSums[match] += d;
                    }
                    match++;
                }
                if (match < bucket.size) return; // resume mid-bucket on the next call
            }
            if (probeStatus) status(p, d, out);
            rowStarted = false;
            row++;
            work++;
        }
    }

    /** The residual over a joined pair; an error goes to the error collection with the pair's diff and is no match. */
    private boolean passes(Row joined, long diff, Changes errs) {
        if (shape.residual() == null) return true;
        try {
            return Boolean.TRUE.equals(shape.residual().eval(joined));
        } catch (SqlException e) {
            errs.add(Operator.errorRow(e), diff);
            return false;
        }
    }

    /** The probe row's output that depends on whether it matched. */
    private void status(Row p, long d, Changes out) {
        switch (shape.kind()) {
            case LEFT, FULL -> { if (!matched) out.add(p.concat(rightNulls), d); }
            case RIGHT -> { if (!matched) out.add(leftNulls.concat(p), d); }
            case SEMI -> { if (matched) out.add(p, d); }
            case ANTI -> { if (!matched) out.add(p, d); }
            default -> {}
        }
    }

    /** FULL joins: the build (right) rows no probe row matched, NULL-padded; then those with a NULL key. */
    private void unmatched(Changes out) {
        if (buckets == null) {
            buckets = table.values().iterator();
            bucket = null;
        }
        int ticks = 0;
        while (out.size() < cx.chunkRows()) {
            if (bucket == null || match == bucket.size) {
                if (!buckets.hasNext()) break;
                bucket = buckets.next();
                match = 0;
                continue;
            }
            op.tick(ticks++);
            if (bucket.probeSums[match] == 0) out.add(leftNulls.concat(bucket.rows[match]), bucket.counts[match]);
            match++;
        }
        while (out.size() < cx.chunkRows() && nullKeyPosition < nullKeyBuild.size()) {
            out.add(leftNulls.concat(nullKeyBuild.row(nullKeyPosition)), nullKeyBuild.diff(nullKeyPosition));
            nullKeyPosition++;
        }
        if (!buckets.hasNext() && (bucket == null || match == bucket.size) && nullKeyPosition == nullKeyBuild.size()) {
            phase = Phase.DONE;
        }
    }

    /** Holds (reserves) the probe chunk being matched; null lets the previous one go. */
    private long probeChunkBytes;

    private void holdProbeChunk(Changes c) {
        release(probeChunkBytes);
        probeChunkBytes = 0;
        chunk = c;
        row = 0;
        rowStarted = false;
        if (c != null) {
            probeChunkBytes = HeapEstimate.chunk(c);
            reserve(probeChunkBytes);
        }
    }

    @Override
    void close() {
        table.clear();
        chunk = null;
        left.close();
        right.close();
        super.close();
    }

    /**
     * The build rows of one key, consolidated (a row's count is the sum of its diffs; rows
     * at zero are dropped), with a hash index once it grows (a cross join's single key
     * holds a whole side). {@code probeSums} is the FULL join's match bookkeeping.
     */
    private static final class BuildBucket {
        private static final int INDEX_FROM = 16;

        Row[] rows = new Row[2];
        long[] counts = new long[2];
        long[] probeSums = new long[2];
        int size;
        private HashMap<Row, Integer> index;

        /** Adds {@code diff} to {@code r}'s count; true when a new entry was created. */
        boolean update(Row r, long diff) {
            if (diff == 0) return false;
            int at = find(r);
            if (at >= 0) {
                counts[at] += diff;
                if (counts[at] == 0) remove(at);
                return false;
            }
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
                counts = Arrays.copyOf(counts, size * 2);
                probeSums = Arrays.copyOf(probeSums, size * 2);
            }
            rows[size] = r;
            counts[size] = diff;
            if (index != null) index.put(r, size);
            size++;
            if (index == null && size >= INDEX_FROM) {
                index = HashMap.newHashMap(INDEX_FROM * 2);
                for (int i = 0; i < size; i++) index.put(rows[i], i);
            }
            return true;
        }

        private int find(Row r) {
            if (index != null) {
                Integer i = index.get(r);
                return i == null ? -1 : i;
            }
            for (int i = 0; i < size; i++) if (rows[i].equals(r)) return i;
            return -1;
        }

        private void remove(int at) {
            int last = size - 1;
            if (index != null) index.remove(rows[at]);
            if (at != last) {
                rows[at] = rows[last];
                counts[at] = counts[last];
                probeSums[at] = probeSums[last];
                if (index != null) index.put(rows[at], at);
            }
            rows[last] = null;
            size--;
        }
    }
}
