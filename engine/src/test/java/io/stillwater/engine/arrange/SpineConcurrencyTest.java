package io.stillwater.engine.arrange;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One writer inserts, merges and compacts as hard as it can (requesting since = upper at
 * every step) while a reader thread holds a time, snapshots and reads. Every read must
 * equal the model; the since must never pass the reader's hold.
 */
class SpineConcurrencyTest {
    private static final int STEPS = 2_000;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void readerSeesExactContentsWhileWriterMergesAndCompacts(long seed) throws Exception {
        Random rnd = new Random(seed);
        TraceModel model = new TraceModel();
        List<List<KeyValUpdate>> steps = new ArrayList<>();
        for (int s = 0; s < STEPS; s++) {
            List<KeyValUpdate> us = new ArrayList<>();
            int n = s % 7 == 3 ? 0 : 1 + rnd.nextInt(s % 100 == 0 ? 400 : 30);
            for (int i = 0; i < n; i++) {
                us.add(new KeyValUpdate(Row.of((long) rnd.nextInt(40)), Row.of((long) rnd.nextInt(4)), s,
                        rnd.nextBoolean() ? 1 : -1));
            }
            steps.add(us);
            model.addAll(us);
        }

        Spine spine = new Spine(0);
        AtomicBoolean writerDone = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        AtomicLong holdMoves = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();

        Thread reader = new Thread(() -> {
            try {
                ReadHold hold = null;
                long t = 0;
                TreeMap<TraceModel.KV, Long> expected = null;
                TraceSnapshot pinned = null; // a snapshot kept across later merges
                while (true) {
                    boolean last = writerDone.get();
                    TraceSnapshot s = spine.snapshot();
                    if (hold == null) {
                        if (s.upper() == 0) {
                            Thread.yield();
                            continue;
                        }
                        Optional<ReadHold> h = spine.tryAcquireHold(s.upper() - 1);
                        if (h.isEmpty()) {
                            if (last) throw new AssertionError("never got a hold");
                            continue; // compacted past it meanwhile: try a newer time
                        }
                        hold = h.get();
                        t = hold.time();
                        expected = model.at(t);
                        pinned = s;
                    }
                    assertThat(s.since()).as("since must not pass the hold").isLessThanOrEqualTo(t);
                    assertThat(spine.since()).isLessThanOrEqualTo(t);
                    if (t < s.upper()) {
                        assertThat(TraceModel.read(s, t)).as("read at %d of %s", t, s).isEqualTo(expected);
                        Row key = Row.of((long) (reads.get() % 40));
                        Map<Row, Long> got = new TreeMap<>();
                        s.lookup(key, t, (k, v, d) -> got.put(v, d));
                        Map<Row, Long> want = new TreeMap<>();
                        expected.forEach((kv, d) -> {
                            if (kv.key().equals(key)) want.put(kv.val(), d);
                        });
                        assertThat(got).isEqualTo(want);
                        reads.incrementAndGet();
                    }
                    if (reads.get() % 10 == 0 && pinned != null) {
                        // The snapshot from when the hold was taken still reads the same.
                        assertThat(TraceModel.read(pinned, t)).isEqualTo(expected);
                        if (s.upper() - 1 > t) {
                            hold.advanceTo(s.upper() - 1);
                            t = hold.time();
                            expected = model.at(t);
                            pinned = s;
                            holdMoves.incrementAndGet();
                        }
                    }
                    if (last) break;
                }
                hold.close();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "spine-reader");
        reader.start();

        for (int s = 0; s < STEPS && failure.get() == null; s++) {
            List<KeyValUpdate> us = steps.get(s);
            if (us.isEmpty()) spine.advanceUpper(s + 1);
            else spine.insert(us, s + 1);
            spine.setLogicalCompaction(s); // upper - 1: the latest time stays readable, only holds keep more
            if (s % 5 == 0) spine.exert(50);
            if (s % 200 == 199) {
                // Let the reader make progress between bursts (awaiting a condition, no sleep).
                long target = reads.get() + 2;
                while (reads.get() < target && reader.isAlive() && failure.get() == null) Thread.yield();
            }
        }
        writerDone.set(true);
        reader.join();

        if (failure.get() != null) throw new AssertionError("reader failed", failure.get());
        assertThat(reads.get()).isGreaterThanOrEqualTo(2L * (STEPS / 200));
        assertThat(holdMoves.get()).isPositive();
        // The release lets the since catch up with the request at the writer's next step.
        spine.exert(1);
        assertThat(spine.since()).isEqualTo(STEPS - 1);
    }
}
