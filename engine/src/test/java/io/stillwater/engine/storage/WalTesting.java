package io.stillwater.engine.storage;

import static org.assertj.core.api.Assertions.fail;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.LogRecord.TableWrite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Shared helpers for the write-ahead log tests. */
final class WalTesting {
    private WalTesting() {}

    /** A distinct, recognisable table write: writer {@code w}'s {@code i}-th record. */
    static TableWrite write(int w, int i) {
        return new TableWrite(w * 1_000_000L + i, List.of(new TableChange(w, Row.of(w, i, "writer " + w + " row " + i), 1)));
    }

    static List<LogRecord> writes(int n) {
        List<LogRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(write(0, i));
        return out;
    }

    static List<LogRecord> replayAll(WriteAheadLog wal) {
        List<LogRecord> out = new ArrayList<>();
        wal.replay(out::add);
        return out;
    }

    /** Reopens the log in {@code dir} and returns everything it replays. */
    static List<LogRecord> reopenAndReplay(Path dir) {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            return replayAll(wal);
        }
    }

    /** Size of {@code record}'s frame on disk. */
    static int frameSize(LogRecord record) {
        return WriteAheadLog.FRAME_HEADER + LogRecordCodec.encode(record).length;
    }

    static Path firstSegment(Path dir) { return WriteAheadLog.segmentPath(dir, 1); }

    /** Waits (without a timing assertion: the deadline only turns a hang into a failure) until {@code condition} holds. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail("gave up waiting for: " + what);
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
