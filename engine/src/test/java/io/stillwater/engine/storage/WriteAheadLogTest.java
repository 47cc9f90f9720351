package io.stillwater.engine.storage;

import static io.stillwater.engine.storage.WalTesting.await;
import static io.stillwater.engine.storage.WalTesting.replayAll;
import static io.stillwater.engine.storage.WalTesting.reopenAndReplay;
import static io.stillwater.engine.storage.WalTesting.write;
import static io.stillwater.engine.storage.WalTesting.writes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.LogRecord.TableWrite;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteAheadLogTest {
    @TempDir
    Path dir;

    @Test
    void appendedRecordsReplayInOrderAfterReopen() {
        List<LogRecord> records = new ArrayList<>(LogRecordCodecTest.samples());
        records.addAll(writes(20));
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true)) {
            assertThat(wal.recoveryReport().clean()).isTrue();
            assertThat(wal.recoveryReport().recordsRead()).isZero();
            assertThat(replayAll(wal)).isEmpty();
            for (LogRecord r : records) wal.append(r);
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true)) {
            assertThat(wal.recoveryReport().clean()).isTrue();
            assertThat(wal.recoveryReport().recordsRead()).isEqualTo(records.size());
            assertThat(wal.recoveryReport().bytesTruncated()).isZero();
            assertThat(replayAll(wal)).isEqualTo(records);
            assertThat(replayAll(wal)).as("replay can be repeated").isEqualTo(records);
            wal.append(write(1, 1));
            assertThat(replayAll(wal)).as("replay yields what was recovered at open").isEqualTo(records);
        }
        List<LogRecord> all = new ArrayList<>(records);
        all.add(write(1, 1));
        assertThat(reopenAndReplay(dir)).isEqualTo(all);
    }

    @Test
    void appendReturnsOnlyAfterTheFsyncThatCoversIt() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true)) {
            for (int i = 1; i <= 5; i++) {
                wal.append(write(0, i));
                // One thread, one record per commit: the append returned after its own fsync.
                assertThat(wal.syncCount()).isEqualTo(i);
                assertThat(wal.commitCount()).isEqualTo(i);
            }
        }
    }

    @Test
    void withoutFsyncNothingIsForced() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            for (int i = 0; i < 5; i++) wal.append(write(0, i));
            assertThat(wal.commitCount()).isEqualTo(5);
            assertThat(wal.syncCount()).isZero();
        }
        assertThat(reopenAndReplay(dir)).isEqualTo(writes(5));
    }

    @Test
    void concurrentAppendersShareOneFsync() throws Exception {
        int threads = 16;
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true)) {
            AtomicInteger returned = new AtomicInteger();
            List<Thread> appenders = new ArrayList<>();
            long syncsBefore = wal.syncCount();
            try (AutoCloseable hold = wal.holdCommits()) {
                for (int t = 0; t < threads; t++) {
                    int w = t;
                    appenders.add(Thread.ofPlatform().start(() -> {
                        wal.append(write(w, 0));
                        returned.incrementAndGet();
                    }));
                }
                await("all appenders queued", () -> wal.queuedRecords() == threads);
                assertThat(returned.get()).as("no append returns before its commit").isZero();
                assertThat(wal.syncCount()).isEqualTo(syncsBefore);
            }
            for (Thread t : appenders) t.join();
            assertThat(returned.get()).isEqualTo(threads);
            assertThat(wal.syncCount() - syncsBefore).as("one group commit, one fsync for all").isEqualTo(1);
            assertThat(wal.commitCount()).isEqualTo(1);
        }
        assertThat(reopenAndReplay(dir)).hasSize(threads);
    }

    @Test
    void manyConcurrentAppendersReplayExactlyOnceInAcknowledgementOrder() throws Exception {
        int threads = 8;
        int perThread = 150;
        AtomicLong ackClock = new AtomicLong();
        long[][] startedAfter = new long[threads][perThread];
        long[][] ackedAt = new long[threads][perThread];
        long syncs;
        long commits;
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true)) {
            CyclicBarrier start = new CyclicBarrier(threads);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> appenders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int w = t;
                appenders.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            startedAfter[w][i] = ackClock.get();
                            if (i % 3 == 0) wal.appendAsync(write(w, i)).join();
                            else wal.append(write(w, i));
                            ackedAt[w][i] = ackClock.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                }));
            }
            for (Thread t : appenders) t.join();
            assertThat(failure.get()).isNull();
            syncs = wal.syncCount();
            commits = wal.commitCount();
        }
        int total = threads * perThread;
        assertThat(syncs).isEqualTo(commits).isBetween(1L, (long) total);

        List<LogRecord> log = reopenAndReplay(dir);
        assertThat(log).hasSize(total);
        // Exactly once, and each writer's records in its own order.
        Set<Long> seen = new HashSet<>();
        int[] next = new int[threads];
        long[] position = new long[total + 1]; // position[ack] = log position of the record acknowledged ack-th
        for (int p = 0; p < log.size(); p++) {
            TableWrite r = (TableWrite) log.get(p);
            assertThat(seen.add(r.time())).as("record %s replayed once", r.time()).isTrue();
            int w = (int) (r.time() / 1_000_000);
            int i = (int) (r.time() % 1_000_000);
            assertThat(i).isEqualTo(next[w]++);
            position[(int) ackedAt[w][i]] = p;
        }
        // If A was acknowledged before B's append began, A precedes B in the log.
        long[] maxPositionAckedBy = new long[total + 1];
        maxPositionAckedBy[0] = -1;
        for (int k = 1; k <= total; k++) maxPositionAckedBy[k] = Math.max(maxPositionAckedBy[k - 1], position[k]);
        for (int w = 0; w < threads; w++) {
            for (int i = 0; i < perThread; i++) {
                long p = position[(int) ackedAt[w][i]];
                assertThat(maxPositionAckedBy[(int) startedAfter[w][i]])
                        .as("records acknowledged before writer %d's record %d began precede it", w, i)
                        .isLessThan(p);
            }
        }
    }

    @Test
    void anIoErrorFailsTheWriteAndPoisonsTheLog() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true)) {
            wal.append(write(0, 0));
            wal.failNextWrite(new IOException("No space left on device"));
            assertThatThrownBy(() -> wal.append(write(0, 1)))
                    .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.IO_ERROR))
                    .hasMessageContaining("could not write to write-ahead log file")
                    .hasMessageContaining("No space left on device");
            assertThatThrownBy(() -> wal.append(write(0, 2)))
                    .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.IO_ERROR))
                    .hasMessageContaining("stopped accepting writes");
            CompletableFuture<Void> later = wal.appendAsync(write(0, 3));
            assertThat(later).isCompletedExceptionally();
        }
        assertThat(reopenAndReplay(dir)).containsExactly(write(0, 0));
    }

    @Test
    void aRecordHoldingANonDatumIsRejectedWithoutHarmingTheLog() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            LogRecord bad = new TableWrite(1, List.of(new LogRecord.TableChange(1, Row.of(new Object()), 1)));
            assertThatThrownBy(() -> wal.appendAsync(bad)).isInstanceOf(IllegalArgumentException.class);
            wal.append(write(0, 0));
        }
        assertThat(reopenAndReplay(dir)).containsExactly(write(0, 0));
    }

    @Test
    void closeCommitsWhatIsQueuedAndLaterAppendsFail() throws Exception {
        WriteAheadLog wal = WriteAheadLog.open(dir, true);
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        AutoCloseable hold = wal.holdCommits();
        for (int i = 0; i < 3; i++) pending.add(wal.appendAsync(write(0, i)));
        assertThat(pending).noneMatch(CompletableFuture::isDone);
        wal.close();
        hold.close();
        for (CompletableFuture<Void> f : pending) assertThat(f).isCompletedWithValue(null);
        assertThatThrownBy(() -> wal.append(write(0, 9)))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.ADMIN_SHUTDOWN));
        wal.close(); // idempotent
        assertThat(reopenAndReplay(dir)).isEqualTo(writes(3));
    }

    @Test
    void aSecondOpenOfTheSameDirectoryIsRefused() {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            assertThatThrownBy(() -> WriteAheadLog.open(dir, false))
                    .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.IO_ERROR))
                    .hasMessageContaining("already in use");
            wal.append(write(0, 0));
        }
        assertThat(reopenAndReplay(dir)).containsExactly(write(0, 0));
    }

    @Test
    void blockingAppendFromTheCommitterThreadIsRefusedInsteadOfDeadlocking() throws Exception {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            CompletableFuture<Void> nested;
            try (AutoCloseable hold = wal.holdCommits()) {
                nested = wal.appendAsync(write(0, 0)).thenRun(() -> wal.append(write(0, 1)));
            }
            assertThatThrownBy(nested::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class);
        }
        assertThat(reopenAndReplay(dir)).containsExactly(write(0, 0));
    }

    @Test
    void segmentsRotateBySizeAndReplayInOrder() {
        List<LogRecord> records = writes(60);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true, 300)) {
            for (LogRecord r : records) wal.append(r);
        }
        try (WriteAheadLog wal = WriteAheadLog.open(dir, true, 300)) {
            assertThat(wal.recoveryReport().segments()).isGreaterThan(5);
            assertThat(wal.recoveryReport().clean()).isTrue();
            assertThat(replayAll(wal)).isEqualTo(records);
            wal.append(write(1, 0));
        }
        List<LogRecord> all = new ArrayList<>(records);
        all.add(write(1, 0));
        assertThat(reopenAndReplay(dir)).isEqualTo(all);
    }
}
