package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.params.ResultSizeLimit;
import io.stillwater.engine.plan.QueryPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A SELECT's finishing applied to its result as the result is produced, pulled in
 * batches ({@link #next}). Expands multiplicities, applies the top-level ORDER BY (with
 * PostgreSQL's NULL placement), OFFSET and LIMIT, and drops sort-only columns, holding
 * only what it must:
 * <ul>
 *   <li>without ORDER BY: nothing. Rows pass through as the read produces them, and once
 *       LIMIT rows are out the read is closed without computing the rest;</li>
 *   <li>ORDER BY with LIMIT: the first {@code offset + limit} rows in a bounded heap (top-k),
 *       fed as rows are produced;</li>
 *   <li>ORDER BY without LIMIT: every row (a sort needs them all), sorted once the read ends.</li>
 * </ul>
 * Held rows are reserved from the read's {@link QueryMemory}. {@code max_result_size} is
 * counted on the rows the client gets, as they are produced: a result held for sorting is
 * counted as it is buffered, so an oversized result fails before it is complete.
 *
 * <p>Ties of the ORDER BY keep the order the read produced them in (a stable sort), as
 * {@link Finishing#apply} always did. One thread at a time; {@link #close} closes the read.
 */
public final class FinishedRows implements AutoCloseable {
    /** An entry of the sort buffer or top-k heap: a row, its multiplicity and its arrival order. */
    private record Held(Row row, long count, long seq) {}

    /** An entry of the sort buffer beyond the row: the record and its slot. */
    private static final long HELD_BYTES = 40;

    private final ChunkSource result;
    private final QueryMemory memory;
    private final ResultSizeLimit.Tally tally;
    private final Cancellation cancel;
    private final int width;
    private final boolean ordered;
    private final long need;
    private final Comparator<Held> order;
    private int[] keep;

    private long skip;
    private long remaining;
    /** Rows waiting to go out: a chunk of the read (unordered) or the sorted buffer (ordered). */
    private List<Held> pending = List.of();
    private int position;
    private long copiesLeft;
    private boolean resultDone;
    private boolean countedWhenHeld;
    private long heldBytes;

    /**
     * @param result         the read's rows (a bag in chunks); closed by this
     * @param memory         the read's account, for rows held for sorting
     * @param maxResultBytes {@code max_result_size} ({@code Long.MAX_VALUE}: not checked)
     */
    public FinishedRows(QueryPlan plan, ChunkSource result, QueryMemory memory, long maxResultBytes, Cancellation cancel) {
        this.result = result;
        this.memory = memory;
        this.tally = new ResultSizeLimit.Tally(maxResultBytes);
        this.cancel = cancel;
        this.width = plan.columnNames().size();
        this.ordered = !plan.order().isEmpty();
        this.skip = Math.max(plan.offset(), 0);
        this.remaining = plan.limit() < 0 ? Long.MAX_VALUE : plan.limit();
        this.need = remaining > Long.MAX_VALUE - skip ? Long.MAX_VALUE : skip + remaining;
        Comparator<Row> rows = RowOrder.byKeys(plan.order());
        this.order = (a, b) -> {
            int c = rows.compare(a.row, b.row);
            return c != 0 ? c : Long.compare(a.seq, b.seq);
        };
    }

    /** Up to {@code max} next rows; empty once the result is complete. */
    public List<Row> next(int max) {
        if (max < 1) throw new IllegalArgumentException("max must be at least 1: " + max);
        if (ordered && !resultDone) sortAll();
        // Grown as rows come: a point read's one row must not cost a zeroed 1024-slot array.
        List<Row> out = new ArrayList<>(Math.min(max, 16));
        while (out.size() < max && remaining > 0) {
            if (copiesLeft == 0) {
                if (position == pending.size() && !refill()) break;
                Held h = pending.get(position++);
                long take = h.count;
                long s = Math.min(skip, take);
                skip -= s;
                copiesLeft = Math.min(take - s, remaining);
                if (copiesLeft == 0) continue;
                if (!countedWhenHeld) tally.add(h.row, copiesLeft);
                current = project(h.row);
            }
            long n = Math.min(copiesLeft, max - out.size());
            for (long i = 0; i < n; i++) out.add(current);
            copiesLeft -= n;
            remaining -= n;
        }
        // Everything is out: release the read now, not only when the consumer closes.
        if (remaining == 0 || (resultDone && copiesLeft == 0 && position == pending.size())) finish();
        return out;
    }

    private Row current;

    /** Unordered: the next chunk of the read as pending rows. False once the read is complete. */
    private boolean refill() {
        if (ordered || resultDone) return false;
        while (true) {
            Changes c = result.next();
            if (c == null) {
                resultDone = true;
                return false;
            }
            if (c.isEmpty()) continue;
            List<Held> rows = new ArrayList<>(c.size());
            for (int i = 0; i < c.size(); i++) if (c.diff(i) > 0) rows.add(new Held(c.row(i), c.diff(i), 0));
            pending = rows;
            position = 0;
            if (!rows.isEmpty()) return true;
        }
    }

    /**
     * Ordered: reads the whole result into a top-k heap (with LIMIT) or a sort buffer
     * (without), then sorts what it kept.
     */
    private void sortAll() {
        boolean topK = need != Long.MAX_VALUE;
        // Without LIMIT every held row (but the OFFSET's) goes to the client: count it now.
        countedWhenHeld = !topK;
        PriorityQueue<Held> heap = topK ? new PriorityQueue<>(order.reversed()) : null;
        List<Held> all = topK ? null : new ArrayList<>();
        long heapUnits = 0;
        long seq = 0;
        if (need > 0) {
            for (Changes c = result.next(); c != null; c = result.next()) {
                cancel.check();
                if (c.isEmpty()) continue;
                long rowBytes = HeapEstimate.chunk(c) / c.size() + HELD_BYTES;
                long added = 0;
                for (int i = 0; i < c.size(); i++) {
                    long d = c.diff(i);
                    if (d <= 0) continue;
                    Held h = new Held(c.row(i), d, seq++);
                    if (!topK) {
                        tally.add(h.row, d);
                        all.add(h);
                        added += rowBytes;
                        continue;
                    }
                    if (heapUnits >= need && order.compare(h, heap.peek()) >= 0) continue;
                    heap.add(h);
                    heapUnits += d;
                    added += rowBytes;
                    while (heapUnits - heap.peek().count >= need) {
                        heapUnits -= heap.poll().count;
                        added -= rowBytes;
                    }
                }
                hold(added);
            }
        }
        resultDone = true;
        result.close();
        List<Held> kept = topK ? new ArrayList<>(heap) : all;
        // A sort of a million rows takes a while: its comparisons poll cancellation too.
        int[] comparisons = {0};
        kept.sort((a, b) -> {
            if ((++comparisons[0] & 0xFFFF) == 0) cancel.check();
            return order.compare(a, b);
        });
        pending = kept;
        position = 0;
    }

    private void hold(long bytes) {
        if (bytes > 0) {
            memory.reserve(bytes);
            heldBytes += bytes;
        } else if (bytes < 0) {
            long b = Math.min(-bytes, heldBytes);
            memory.release(b);
            heldBytes -= b;
        }
    }

    private Row project(Row r) {
        if (r.arity() <= width) return r;
        if (keep == null) {
            keep = new int[width];
            for (int k = 0; k < width; k++) keep[k] = k;
        }
        return r.project(keep);
    }

    /** Everything is out (or LIMIT reached): stop the read and let held rows go. */
    private void finish() {
        remaining = 0;
        pending = List.of();
        position = 0;
        result.close();
        hold(-heldBytes);
    }

    /** Closes the read (without computing the rest) and releases held rows. Idempotent. */
    @Override
    public void close() { finish(); }

    /** Every row, for callers that need the whole result (the reads of writes, tests). */
    public List<Row> drain() {
        List<Row> out = new ArrayList<>();
        try (this) {
            for (List<Row> b = next(4096); !b.isEmpty(); b = next(4096)) out.addAll(b);
        }
        return out;
    }
}
