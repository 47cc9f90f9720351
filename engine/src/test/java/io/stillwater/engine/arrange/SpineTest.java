package io.stillwater.engine.arrange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.data.RowDiff;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpineTest {
    private static KeyValUpdate upd(long key, long val, long time, long diff) {
        return new KeyValUpdate(Row.of(key), Row.of(val), time, diff);
    }

    private static int log2Ceil(long n) { return n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1); }

    @Test
    void batchIsSortedConsolidatedAndColumnar() {
        Batch b = Batch.of(List.of(
                upd(2, 1, 5, 1), upd(1, 1, 6, 1), upd(1, 1, 5, 2), upd(2, 1, 5, -1),
                upd(1, 0, 7, 1), upd(1, 1, 5, 1), upd(3, 3, 9, 0)), 5, 10);
        assertThat(b.updates()).containsExactly(upd(1, 0, 7, 1), upd(1, 1, 5, 3), upd(1, 1, 6, 1));
        assertThat(b.size()).isEqualTo(3);
        assertThat(b.keyCount()).isEqualTo(1);
        assertThat(b.lower()).isEqualTo(5);
        assertThat(b.upper()).isEqualTo(10);
        assertThat(b.since()).isEqualTo(5);
    }

    @Test
    void batcherKeepsUpdatesAtOrBeyondUpperForTheNextSeal() {
        Batcher batcher = new Batcher();
        batcher.add(upd(1, 1, 3, 1)).add(upd(1, 1, 12, 1)).add(upd(2, 2, 4, 1));
        Batch first = batcher.seal(0, 10);
        assertThat(first.updates()).containsExactly(upd(1, 1, 3, 1), upd(2, 2, 4, 1));
        assertThat(batcher.pending()).isEqualTo(1);
        Batch second = batcher.seal(10, 20);
        assertThat(second.updates()).containsExactly(upd(1, 1, 12, 1));
        assertThat(batcher.pending()).isZero();
        batcher.add(upd(1, 1, 5, 1));
        assertThatThrownBy(() -> batcher.seal(20, 30)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void insertRequiresContiguousBatchesAndReadsOutsideTheFrontiersFail() {
        Spine spine = new Spine(0);
        spine.insert(List.of(upd(1, 1, 0, 1)), 5);
        assertThatThrownBy(() -> spine.insert(Batch.of(List.of(upd(1, 1, 7, 1)), 6, 8)))
                .isInstanceOf(IllegalArgumentException.class);
        spine.advanceUpper(8);
        spine.insert(Batch.of(List.of(upd(1, 1, 9, 1)), 8, 10));
        TraceSnapshot s = spine.snapshot();
        assertThat(s.lookup(Row.of(1L), 8)).containsExactly(new TraceSnapshot.Entry(Row.of(1L), Row.of(1L), 1));
        assertThat(s.lookup(Row.of(1L), 9)).containsExactly(new TraceSnapshot.Entry(Row.of(1L), Row.of(1L), 2));
        assertThatThrownBy(() -> s.lookup(Row.of(1L), 10)).isInstanceOf(IllegalStateException.class);
        spine.setLogicalCompaction(9);
        assertThatThrownBy(() -> spine.snapshot().forEachAt(8, (k, v, d) -> {})).isInstanceOf(IllegalStateException.class);
        assertThat(spine.snapshot().rowsAt(9, Row::concat).asList()).containsExactly(new RowDiff(Row.of(1L, 1L), 2));
    }

    @Test
    void rowsAtCombinesKeyAndValueAndSkipsCancelledRows() {
        Spine spine = new Spine(0);
        spine.insert(List.of(upd(1, 10, 0, 2), upd(2, 20, 0, 1), upd(3, 30, 1, 1)), 2);
        spine.insert(List.of(upd(2, 20, 2, -1)), 3);
        Changes c = spine.snapshot().rowsAt(2, (k, v) -> v);
        assertThat(c.asList()).containsExactly(new RowDiff(Row.of(10L), 2), new RowDiff(Row.of(30L), 1));
    }

    @Test
    void batchCountStaysLogarithmicWhileInserting() {
        Spine spine = new Spine(0);
        Random rnd = new Random(7);
        long total = 0;
        int maxBatches = 0;
        for (int step = 0; step < 1_500; step++) {
            int n = 1 + rnd.nextInt(step % 50 == 0 ? 2_000 : 200);
            List<KeyValUpdate> us = new ArrayList<>(n);
            for (int i = 0; i < n; i++) us.add(upd(rnd.nextInt(1 << 20), i, step, 1)); // distinct (key, val)
            spine.insert(us, step + 1);
            total += n;
            int batches = spine.snapshot().batches().size();
            maxBatches = Math.max(maxBatches, batches);
            // Two batches per level at most, and levels grow with log2 of what was inserted.
            assertThat(spine.levelCount()).as("levels after %d updates", total).isLessThanOrEqualTo(log2Ceil(total) + 2);
            assertThat(batches).as("batches after %d updates: %s", total, spine).isLessThanOrEqualTo(2 * (log2Ceil(total) + 2));
        }
        assertThat(spine.snapshot().updateCount()).isEqualTo(total);
        assertThat(maxBatches).isGreaterThan(2); // the merging really was incremental
    }

    @Test
    void millionRowsInBatchesOfAThousandDoLinearithmicMergeWork() {
        Spine spine = new Spine(0);
        int batches = 1_000;
        int perBatch = 1_000;
        for (int b = 0; b < batches; b++) {
            Batcher batcher = new Batcher(perBatch);
            for (int i = 0; i < perBatch; i++) {
                long id = (long) i * batches + b; // interleaved keys: every merge really merges
                batcher.add(Row.of(id), Row.of(id * 2), b, 1);
            }
            spine.insert(batcher.seal(b, b + 1));
        }
        long n = (long) batches * perBatch;
        // Geometric merging touches each update about once per level above its batch's.
        assertThat(spine.fuelSpent()).as("merge work").isLessThanOrEqualTo(2 * n * (log2Ceil(batches) + 2));
        TraceSnapshot s = spine.snapshot();
        assertThat(s.updateCount()).isEqualTo(n);
        assertThat(s.batches().size()).isLessThanOrEqualTo(2 * (log2Ceil(n) + 2));
        assertThat(s.lookup(Row.of(123_456L), batches - 1))
                .containsExactly(new TraceSnapshot.Entry(Row.of(123_456L), Row.of(246_912L), 1));
        assertThat(s.lookup(Row.of(123_456L), 455)).isEmpty(); // written in batch 456
        long[] count = {0};
        s.forEachAt(batches - 1, (k, v, d) -> count[0] += d);
        assertThat(count[0]).isEqualTo(n);
    }

    @Test
    void exertMergesIdleSpineDownToOneBatchAndCompacts() {
        Spine spine = new Spine(0);
        for (int t = 0; t < 100; t++) {
            // The same key and value every time: +1 then -1, so history cancels out.
            spine.insert(List.of(upd(1, 1, t, t % 2 == 0 ? 1 : -1), upd(2, t, t, 1)), t + 1);
        }
        spine.setLogicalCompaction(99);
        int calls = 0;
        while (!spine.isReduced() && calls < 10_000) {
            spine.exert(64);
            calls++;
        }
        assertThat(spine.isReduced()).as("reduced after %d exert calls: %s", calls, spine).isTrue();
        TraceSnapshot s = spine.snapshot();
        assertThat(s.batches()).hasSize(1);
        // All times advanced to 99 (the compaction frontier clamped into the batch), so the
        // cancelling key 1 disappeared and key 2 kept its 100 values.
        Batch only = s.batches().get(0);
        assertThat(only.size()).isEqualTo(100);
        assertThat(only.updates()).allSatisfy(u -> assertThat(u.time()).isEqualTo(99));
        assertThat(s.lookup(Row.of(1L), 99)).isEmpty();
        assertThat(s.lookup(Row.of(2L), 99)).hasSize(100);
    }

    @Test
    void holdKeepsSinceFromPassingItAndReleaseLetsItAdvance() {
        Spine spine = new Spine(0);
        for (int t = 0; t < 20; t++) spine.insert(List.of(upd(t % 3, 0, t, 1)), t + 1);
        ReadHold hold = spine.acquireHold(5);
        spine.setLogicalCompaction(15);
        assertThat(spine.since()).isEqualTo(5);
        assertThat(spine.snapshot().since()).isEqualTo(5);
        for (int i = 0; i < 200; i++) spine.exert(16);
        // Still exact at the held time.
        assertThat(spine.snapshot().lookup(Row.of(0L), 5)).containsExactly(new TraceSnapshot.Entry(Row.of(0L), Row.of(0L), 2));

        assertThat(spine.tryAcquireHold(4)).isEmpty();
        assertThatThrownBy(() -> spine.acquireHold(4)).isInstanceOf(IllegalStateException.class);
        ReadHold second = spine.acquireHold(10);

        hold.advanceTo(8);
        spine.exert(1);
        assertThat(spine.since()).isEqualTo(8);
        hold.close();
        hold.close(); // idempotent
        spine.exert(1);
        assertThat(spine.since()).isEqualTo(10);
        second.close();
        assertThat(spine.since()).as("the writer applies the release at its next step").isEqualTo(10);
        spine.advanceUpper(21);
        assertThat(spine.since()).isEqualTo(15);
        assertThat(spine.snapshot().since()).isEqualTo(15);

        ReadHold atSince = spine.acquireHoldAtSince();
        assertThat(atSince.time()).isEqualTo(15);
        spine.setLogicalCompaction(20);
        assertThat(spine.since()).isEqualTo(15);
        atSince.close();
    }

    @Test
    void oldSnapshotStaysReadableWhileMergesAndCompactionContinue() {
        Spine spine = new Spine(0);
        for (int t = 0; t < 64; t++) spine.insert(List.of(upd(1, t % 4, t, 1)), t + 1);
        TraceSnapshot old = spine.snapshot();
        List<Batch> oldBatches = old.batches();
        for (int t = 64; t < 128; t++) spine.insert(List.of(upd(1, t % 4, t, -1)), t + 1);
        spine.setLogicalCompaction(127);
        for (int i = 0; i < 1_000 && !spine.isReduced(); i++) spine.exert(32);
        assertThat(spine.snapshot().batches()).isNotEqualTo(oldBatches);
        assertThat(old.batches()).isEqualTo(oldBatches);
        for (long t = old.since(); t < old.upper(); t++) {
            long total = 0;
            for (TraceSnapshot.Entry e : old.lookup(Row.of(1L), t)) total += e.diff();
            assertThat(total).isEqualTo(t + 1);
        }
        assertThat(spine.snapshot().lookup(Row.of(1L), 127)).isEmpty();
    }

    @Test
    void cursorWalksMergedBatchesAndCountsPositions() {
        Spine spine = new Spine(0);
        spine.insert(List.of(upd(1, 1, 0, 1), upd(3, 1, 0, 1)), 1);
        spine.insert(List.of(upd(2, 1, 1, 1), upd(3, 1, 1, 1), upd(3, 2, 1, 1)), 2);
        Cursor c = spine.snapshot().cursor();
        List<String> seen = new ArrayList<>();
        while (c.keyValid()) {
            while (c.valValid()) {
                seen.add(c.key().get(0) + "/" + c.val().get(0) + "=" + c.diffAt(1) + "@0:" + c.diffAt(0));
                c.stepVal();
            }
            c.stepKey();
        }
        assertThat(seen).containsExactly("1/1=1@0:1", "2/1=1@0:0", "3/1=2@0:1", "3/2=1@0:0");
        assertThat(c.positions()).isEqualTo(4 + 3);
        c.rewindKeys();
        c.seekKey(Row.of(2L));
        assertThat(c.key()).isEqualTo(Row.of(2L));
        c.seekKey(Row.of(1L)); // never backwards
        assertThat(c.key()).isEqualTo(Row.of(2L));
        c.seekKey(Row.of(3L));
        c.seekVal(Row.of(2L));
        assertThat(c.val()).isEqualTo(Row.of(2L));
        long[] sum = {0};
        c.forEachTime((t, d) -> sum[0] += d);
        assertThat(sum[0]).isEqualTo(1);
        c.seekKey(Row.of(4L));
        assertThat(c.keyValid()).isFalse();
    }

    @Test
    void readableAtCompletesOnceTheUpperPassesTheTime() throws Exception {
        Spine spine = new Spine(0);
        spine.insert(List.of(upd(1, 1, 0, 1)), 3);
        assertThat(spine.readableAt(2)).isCompleted();
        var at5 = spine.readableAt(5);
        var at7 = spine.readableAt(7);
        assertThat(at5).isNotDone();
        spine.advanceUpper(5);
        assertThat(at5).isNotDone(); // upper 5 is not beyond 5
        spine.insert(List.of(upd(1, 1, 5, 1)), 6);
        assertThat(at5).isCompleted();
        assertThat(at5.get().upper()).isEqualTo(6);
        assertThat(at5.get().lookup(Row.of(1L), 5)).containsExactly(new TraceSnapshot.Entry(Row.of(1L), Row.of(1L), 2));
        assertThat(at7).isNotDone();
        spine.exert(10);
        assertThat(at7).isNotDone();
        spine.advanceUpper(100);
        assertThat(at7.get().upper()).isEqualTo(100);
    }
}
