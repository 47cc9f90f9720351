package io.stillwater.engine.storage;

import static io.stillwater.engine.storage.WalTesting.firstSegment;
import static io.stillwater.engine.storage.WalTesting.frameSize;
import static io.stillwater.engine.storage.WalTesting.replayAll;
import static io.stillwater.engine.storage.WalTesting.reopenAndReplay;
import static io.stillwater.engine.storage.WalTesting.write;
import static io.stillwater.engine.storage.WalTesting.writes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.RecoveryReport.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recovery from damaged logs: torn tails, flipped bits, garbage, mid-log corruption, foreign files. */
class WalRecoveryTest {
    @TempDir
    Path base;

    private int dirs;

    /** A new log directory holding {@code records}, written and closed cleanly. */
    private Path logWith(List<LogRecord> records) {
        Path dir = base.resolve("log" + dirs++);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            for (LogRecord r : records) wal.append(r);
        }
        return dir;
    }

    /** A copy of {@code source}'s segment files in a new directory. */
    private Path copyOf(Path source) throws IOException {
        Path dir = Files.createDirectory(base.resolve("copy" + dirs++));
        try (Stream<Path> files = Files.list(source)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".log")
                    || f.getFileName().toString().equals("wal.control")).toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0xFF));
            ch.write(b.flip(), offset);
        }
    }

    private static void appendBytes(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.APPEND);
    }

    /** After damage that cost the last record: the earlier ones replay, a new append follows them. */
    private static void assertRecoversPrefixAndAcceptsAppends(Path dir, List<LogRecord> prefix) {
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            assertThat(replayAll(wal)).isEqualTo(prefix);
            assertThat(wal.recoveryReport().recordsRead()).isEqualTo(prefix.size());
            wal.append(write(7, 7));
        }
        List<LogRecord> expected = new ArrayList<>(prefix);
        expected.add(write(7, 7));
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            assertThat(wal.recoveryReport().clean()).as("the log is clean after recovery and a new append").isTrue();
            assertThat(replayAll(wal)).isEqualTo(expected);
        }
    }

    @Test
    void aTailTornAtAnyByteOfTheLastRecordIsCutOff() throws IOException {
        List<LogRecord> records = writes(3);
        Path pristine = logWith(records);
        long size = Files.size(firstSegment(pristine));
        long lastStart = size - frameSize(records.get(2));
        assertThat(lastStart).isEqualTo(WriteAheadLog.SEGMENT_HEADER + frameSize(records.get(0)) + frameSize(records.get(1)));
        for (long cut = lastStart; cut < size; cut++) {
            Path dir = copyOf(pristine);
            truncate(firstSegment(dir), cut);
            try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
                RecoveryReport report = wal.recoveryReport();
                assertThat(report.bytesTruncated()).as("cut at %d", cut).isEqualTo(cut - lastStart);
                if (cut == lastStart) {
                    assertThat(report.clean()).isTrue(); // a cut exactly between frames is a shorter, valid log
                } else {
                    assertThat(report.reason()).as("cut at %d", cut)
                            .isEqualTo(cut - lastStart < WriteAheadLog.FRAME_HEADER ? Reason.PARTIAL_FRAME_HEADER : Reason.LENGTH_BEYOND_EOF);
                    assertThat(report.truncatedAt()).isEqualTo(lastStart);
                    assertThat(report.truncatedFile()).isEqualTo(firstSegment(dir));
                    assertThat(report.savedTail()).exists().hasSize(cut - lastStart);
                }
                assertThat(Files.size(firstSegment(dir))).isEqualTo(lastStart);
            }
            assertRecoversPrefixAndAcceptsAppends(dir, records.subList(0, 2));
        }
    }

    @Test
    void aFlippedByteAnywhereInTheLastRecordIsDetected() throws IOException {
        List<LogRecord> records = writes(3);
        Path pristine = logWith(records);
        long size = Files.size(firstSegment(pristine));
        long lastStart = size - frameSize(records.get(2));
        for (long at = lastStart; at < size; at++) {
            Path dir = copyOf(pristine);
            flip(firstSegment(dir), at);
            try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
                RecoveryReport report = wal.recoveryReport();
                assertThat(report.clean()).as("flip at %d", at).isFalse();
                if (at >= lastStart + 4) assertThat(report.reason()).isEqualTo(Reason.CHECKSUM_MISMATCH); // crc or payload
                assertThat(report.bytesTruncated()).isEqualTo(size - lastStart);
            }
            assertRecoversPrefixAndAcceptsAppends(dir, records.subList(0, 2));
        }
    }

    @Test
    void garbageAfterTheLastRecordIsDropped() throws IOException {
        List<LogRecord> records = writes(4);
        Path pristine = logWith(records);
        Random random = new Random(42);
        List<byte[]> garbages = new ArrayList<>();
        garbages.add(new byte[4096]); // zeros: what a crash can leave in allocated-but-unwritten blocks
        garbages.add(new byte[] {0, 0, 0, 2, 0, 0, 0, 0, 3, 1}); // plausible length, wrong checksum
        for (int n : new int[] {1, 7, 8, 9, 100, 5000}) {
            byte[] g = new byte[n];
            random.nextBytes(g);
            garbages.add(g);
        }
        for (byte[] garbage : garbages) {
            Path dir = copyOf(pristine);
            long size = Files.size(firstSegment(dir));
            appendBytes(firstSegment(dir), garbage);
            try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
                RecoveryReport report = wal.recoveryReport();
                assertThat(report.clean()).isFalse();
                assertThat(report.truncatedAt()).isEqualTo(size);
                assertThat(report.bytesTruncated()).isEqualTo(garbage.length);
                assertThat(Files.readAllBytes(report.savedTail())).isEqualTo(garbage);
            }
            assertRecoversPrefixAndAcceptsAppends(dir, records);
        }
    }

    @Test
    void corruptionInTheMiddleIsRefusedAndNothingIsCut() throws IOException {
        List<LogRecord> records = writes(5);
        Path dir = logWith(records);
        long secondStart = WriteAheadLog.SEGMENT_HEADER + frameSize(records.get(0));
        flip(firstSegment(dir), secondStart + WriteAheadLog.FRAME_HEADER + 3);
        long size = Files.size(firstSegment(dir));
        assertThatThrownBy(() -> WriteAheadLog.open(dir, false))
                .isInstanceOfSatisfying(LogDamageException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.DATA_CORRUPTED);
                    assertThat(e.damage().file()).isEqualTo(firstSegment(dir));
                    assertThat(e.damage().offset()).isEqualTo(secondStart);
                    assertThat(e.damage().problem()).contains("CRC32C", "intact records follow");
                    assertThat(e.hint()).contains("--recover-truncate-at=" + firstSegment(dir).getFileName() + ":" + secondStart);
                });
        assertThat(Files.size(firstSegment(dir))).as("nothing was cut").isEqualTo(size);
    }

    @Test
    void corruptionInAnEarlierSegmentIsRefused() throws IOException {
        Path dir = base.resolve("segmented");
        List<LogRecord> records = writes(30);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false, 300)) {
            for (LogRecord r : records) wal.append(r);
        }
        Path second = WriteAheadLog.segmentPath(dir, 2);
        flip(second, WriteAheadLog.SEGMENT_HEADER + WriteAheadLog.FRAME_HEADER); // first payload byte of segment 2
        assertThatThrownBy(() -> WriteAheadLog.open(dir, false, 300))
                .isInstanceOfSatisfying(LogDamageException.class, e -> {
                    assertThat(e.damage().file()).isEqualTo(second);
                    assertThat(e.damage().offset()).isEqualTo(WriteAheadLog.SEGMENT_HEADER);
                    assertThat(e.damage().problem()).contains("not the newest");
                });
        assertThat(WriteAheadLog.segmentPath(dir, 3)).exists();
    }

    @Test
    void aTornTailInTheNewestSegmentIsCutOff() throws IOException {
        Path dir = base.resolve("segmented");
        List<LogRecord> records = writes(30);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false, 300)) {
            for (LogRecord r : records) wal.append(r);
        }
        // The newest segment may hold only its header (rotation right after the last commit):
        // tear the last record wherever it is.
        long seq = 1;
        while (Files.exists(WriteAheadLog.segmentPath(dir, seq + 1))) seq++;
        Path holder = WriteAheadLog.segmentPath(dir, seq);
        List<LogRecord> all = new ArrayList<>(records);
        if (Files.size(holder) == WriteAheadLog.SEGMENT_HEADER) { // a torn write can only be in the newest segment
            try (WriteAheadLog wal = WriteAheadLog.open(dir, false, 300)) {
                wal.append(write(3, 3));
            }
            all.add(write(3, 3));
        }
        truncate(holder, Files.size(holder) - 3);
        assertRecoversPrefixAndAcceptsAppends(dir, all.subList(0, all.size() - 1));
    }

    @Test
    void aSegmentWithATornHeaderIsRecreated() throws IOException {
        List<LogRecord> records = writes(3);
        Path dir = logWith(records);
        Path next = WriteAheadLog.segmentPath(dir, 2);
        Files.write(next, new byte[] {'S', 'T', 'I', 'L', 'L'}); // crash while creating segment 2
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            RecoveryReport report = wal.recoveryReport();
            assertThat(report.reason()).isEqualTo(Reason.TORN_SEGMENT_HEADER);
            assertThat(report.bytesTruncated()).isEqualTo(5);
            assertThat(report.segments()).isEqualTo(2);
            assertThat(replayAll(wal)).isEqualTo(records);
            wal.append(write(7, 7));
        }
        assertThat(Files.size(next)).isEqualTo(WriteAheadLog.SEGMENT_HEADER + frameSize(write(7, 7)));
        List<LogRecord> expected = new ArrayList<>(records);
        expected.add(write(7, 7));
        assertThat(reopenAndReplay(dir)).isEqualTo(expected);
    }

    @Test
    void aZeroFilledNewestSegmentIsATornHeader() throws IOException {
        List<LogRecord> records = writes(3);
        Path dir = logWith(records);
        Path next = WriteAheadLog.segmentPath(dir, 2);
        Files.write(next, new byte[4096]); // the file system extended the file but never wrote the header
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            assertThat(wal.recoveryReport().reason()).isEqualTo(Reason.TORN_SEGMENT_HEADER);
            assertThat(wal.recoveryReport().bytesTruncated()).isEqualTo(4096);
        }
        assertRecoversPrefixAndAcceptsAppends(dir, records);
    }

    @Test
    void aChecksummedRecordOfAnUnknownTypeIsRefusedAndNothingIsCut() throws IOException {
        Path dir = logWith(writes(2));
        byte[] payload = {42, 1, 0, 0};
        ByteBuffer frame = ByteBuffer.allocate(8 + payload.length).putInt(payload.length).putInt(SegmentScanner.crc32c(payload)).put(payload);
        appendBytes(firstSegment(dir), frame.array());
        long size = Files.size(firstSegment(dir));
        assertThatThrownBy(() -> WriteAheadLog.open(dir, false))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.DATA_CORRUPTED))
                .hasMessageContaining("unknown record type 42");
        assertThat(Files.size(firstSegment(dir))).isEqualTo(size);
    }

    @Test
    void foreignFilesAndGapsAreRefused() throws IOException {
        Path notOurs = Files.createDirectory(base.resolve("foreign"));
        byte[] bytes = "this is not a write-ahead log at all".getBytes();
        Files.write(firstSegment(notOurs), bytes);
        assertThatThrownBy(() -> WriteAheadLog.open(notOurs, false))
                .isInstanceOfSatisfying(LogDamageException.class, e -> assertThat(e.damage().offset()).isZero())
                .hasMessageContaining("not a Stillwater write-ahead log");
        assertThat(Files.readAllBytes(firstSegment(notOurs))).isEqualTo(bytes);

        Path gap = logWith(writes(1));
        Files.copy(firstSegment(gap), WriteAheadLog.segmentPath(gap, 3));
        assertThatThrownBy(() -> WriteAheadLog.open(gap, false))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.DATA_CORRUPTED))
                .hasMessageContaining("a gap in the segment sequence");
        // The lock was released despite the failure.
        Files.delete(WriteAheadLog.segmentPath(gap, 3));
        assertThat(reopenAndReplay(gap)).isEqualTo(writes(1));
    }

    @Test
    void theSavedTailHoldsExactlyTheCutBytes() throws IOException {
        List<LogRecord> records = writes(2);
        Path dir = logWith(records);
        byte[] whole = Files.readAllBytes(firstSegment(dir));
        long cut = whole.length - 5;
        truncate(firstSegment(dir), cut);
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false)) {
            long start = whole.length - frameSize(records.get(1));
            assertThat(Files.readAllBytes(wal.recoveryReport().savedTail()))
                    .isEqualTo(Arrays.copyOfRange(whole, (int) start, (int) cut));
        }
    }
}
