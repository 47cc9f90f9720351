package io.stillwater.engine.storage;

import static io.stillwater.engine.storage.WalTesting.replayAll;
import static io.stillwater.engine.storage.WalTesting.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.DamagedLogs.BuiltLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage to a real multi-segment log: zeroed pages, truncation, deleted, swapped and
 * foreign segments, a missing or damaged control file; each is refused with the file and
 * offset (or, where a crash explains it, cut as a torn write); and the way out, {@link
 * LogCut}, which moves what it cuts aside.
 */
class WalDamageTest {
    private static final long SMALL = 400;
    private static final long PAGED = 16 << 10;

    @TempDir
    Path base;

    private int dirs;

    private BuiltLog small() throws IOException { return DamagedLogs.build(base.resolve("log" + dirs++), SMALL, 5, 100); }

    private static LogDamage refusal(BuiltLog log, long firstRequired) {
        LogDamageException e = catchThrowableOfType(LogDamageException.class,
                () -> WriteAheadLog.open(log.dir(), false, SMALL, firstRequired).close());
        assertThat(e).as("open is refused").isNotNull();
        assertThat(e.state()).isEqualTo(SqlState.DATA_CORRUPTED);
        return e.damage();
    }

    private static LogDamage refusal(BuiltLog log) { return refusal(log, 1); }

    private static List<LogRecord> openAndReplay(BuiltLog log, long firstRequired) {
        try (WriteAheadLog wal = WriteAheadLog.open(log.dir(), false, SMALL, firstRequired)) {
            return replayAll(wal);
        }
    }

    @Test
    void aZeroedPageIsRefusedUnlessOnlyATornTailFollowsIt() throws IOException {
        BuiltLog pristine = DamagedLogs.build(base.resolve("paged"), PAGED, 3, 12 << 10);
        // In an older segment.
        BuiltLog older = DamagedLogs.copy(pristine, base.resolve("older"));
        DamagedLogs.zero(older.segment(0), 4096, 4096);
        LogDamage d = refusal(older);
        assertThat(d.file()).isEqualTo(older.segment(0));
        assertThat(d.offset()).isEqualTo(DamagedLogs.frameHolding(DamagedLogs.frameStarts(pristine.segment(0)), 4096));
        // In the middle of the newest segment: intact records follow the hole.
        BuiltLog middle = DamagedLogs.copy(pristine, base.resolve("middle"));
        DamagedLogs.zero(middle.newest(), 4096, 4096);
        d = refusal(middle);
        assertThat(d.file()).isEqualTo(middle.newest());
        assertThat(d.offset()).isEqualTo(DamagedLogs.frameHolding(DamagedLogs.frameStarts(pristine.newest()), 4096));
        assertThat(d.problem()).contains("intact records follow");
        // The newest segment's last page: nothing intact after the hole, as an unsynced
        // batch whose last page never reached the disk leaves it; cut as a torn write.
        BuiltLog tail = DamagedLogs.copy(pristine, base.resolve("tail"));
        long size = Files.size(tail.newest());
        long page = (size - 1) / 4096 * 4096;
        DamagedLogs.zero(tail.newest(), page, (int) (size - page));
        List<Long> starts = DamagedLogs.frameStarts(pristine.newest());
        long cut = DamagedLogs.frameHolding(starts, page);
        int kept = DamagedLogs.recordsBefore(pristine, pristine.segments().size() - 1) + starts.indexOf(cut);
        try (WriteAheadLog wal = WriteAheadLog.open(tail.dir(), false, PAGED)) {
            assertThat(wal.recoveryReport().truncatedAt()).isEqualTo(cut);
            assertThat(replayAll(wal)).isEqualTo(pristine.records().subList(0, kept));
        }
    }

    @Test
    void aMiddleSegmentTruncatedInsideARecordIsRefused() throws IOException {
        BuiltLog log = small();
        long third = DamagedLogs.frameStarts(log.segment(2)).get(2);
        DamagedLogs.truncate(log.segment(2), third + 5);
        LogDamage d = refusal(log);
        assertThat(d.file()).isEqualTo(log.segment(2));
        assertThat(d.offset()).isEqualTo(third);
        assertThat(d.problem()).contains("not the newest");
    }

    @Test
    void aDeletedFirstSegmentIsRefusedUnlessTheCallerNoLongerNeedsIt() throws IOException {
        BuiltLog log = small();
        int inFirst = DamagedLogs.frameStarts(log.segment(0)).size();
        Files.delete(log.segment(0));
        LogDamage d = refusal(log);
        assertThat(d.file()).isEqualTo(log.segment(0));
        assertThat(d.problem()).contains("missing");
        assertThat(d.cutAt()).as("no cut brings back what is before the log").isNull();
        assertThat(d.wayOut()).contains("backup");
        // After a checkpoint the caller needs segments from 2 on only.
        assertThat(openAndReplay(log, 2)).isEqualTo(log.records().subList(inFirst, log.records().size()));
        assertThat(refusal(log, 1).file()).isEqualTo(log.segment(0));
    }

    @Test
    void aDeletedMiddleSegmentIsAGap() throws IOException {
        BuiltLog log = small();
        Files.delete(log.segment(2));
        LogDamage d = refusal(log);
        assertThat(d.file()).isEqualTo(log.segment(3));
        assertThat(d.offset()).isZero();
        assertThat(d.problem()).contains("segment(s) 3 to 3 are missing");
        assertThat(d.cutAt()).isEqualTo(log.segment(3).getFileName() + ":0");
    }

    @Test
    void aDeletedNewestSegmentIsNoticedThroughTheControlFile() throws IOException {
        BuiltLog log = small();
        Files.delete(log.newest());
        LogDamage d = refusal(log);
        assertThat(d.file()).isEqualTo(log.newest());
        assertThat(d.problem()).contains("newest segment is missing");
        Path previous = log.segment(log.segments().size() - 2);
        assertThat(d.cutAt()).isEqualTo(previous.getFileName() + ":" + Files.size(previous));
        // The way out keeps every record still present.
        LogCut.CutReport cut = LogCut.cut(log.dir(), LogCut.CutPoint.parse(d.cutAt()), false);
        assertThat(cut.bytesMoved()).isZero();
        int kept = DamagedLogs.recordsBefore(log, log.segments().size() - 1);
        assertThat(openAndReplay(log, 1)).isEqualTo(log.records().subList(0, kept));
    }

    @Test
    void swappedSegmentsAreRefusedByTheirHeaders() throws IOException {
        BuiltLog log = small();
        Path parked = log.dir().resolve("parked");
        Files.move(log.segment(1), parked);
        Files.move(log.segment(2), log.segment(1));
        Files.move(parked, log.segment(2));
        LogDamage d = refusal(log);
        assertThat(d.file()).isEqualTo(log.segment(1));
        assertThat(d.offset()).isZero();
        assertThat(d.problem()).contains("says it is segment 3", "file name says 2");
    }

    @Test
    void aForeignFileNamedLikeTheNextSegmentIsRefused() throws IOException {
        BuiltLog log = small();
        Path next = WriteAheadLog.segmentPath(log.dir(), log.segments().size() + 1);
        Files.writeString(next, "not a segment, but named like one");
        assertThat(refusal(log).problem()).contains("not a Stillwater write-ahead log segment");
        Files.writeString(next, "hello"); // short, but not what a torn header write leaves
        assertThat(refusal(log).problem()).contains("header is incomplete");
        // A prefix of the header it should have is a crash while rotating: recreated.
        Files.write(next, Arrays.copyOf(SegmentHeader.encode(log.segments().size() + 1).array(), 11));
        assertThat(openAndReplay(log, 1)).isEqualTo(log.records());
    }

    @Test
    void theControlFileMustBePresentAndIntactOnceSegmentsAreVersion2() throws IOException {
        BuiltLog log = small();
        Path control = log.dir().resolve(WalControl.FILE);
        byte[] original = Files.readAllBytes(control);
        DamagedLogs.flip(control, 17, 0x10);
        LogDamage d = refusal(log);
        assertThat(d.file()).isEqualTo(control);
        assertThat(d.problem()).contains("checksum");
        Files.delete(control);
        d = refusal(log);
        assertThat(d.problem()).contains("control file is missing");
        assertThat(d.cutAt()).isEqualTo(log.newest().getFileName() + ":" + Files.size(log.newest()));
        Files.write(control, original);
        assertThat(openAndReplay(log, 1)).isEqualTo(log.records());
    }

    @Test
    void aVersion1LogWithoutControlFileStillOpensAndGetsOne() throws IOException {
        BuiltLog log = small();
        for (Path s : log.segments()) writeVersion1Header(s, 0);
        Files.delete(log.dir().resolve(WalControl.FILE));
        assertThat(openAndReplay(log, 1)).isEqualTo(log.records());
        assertThat(log.dir().resolve(WalControl.FILE)).exists();
        assertThat(WalControl.read(log.dir()).getAsLong()).isEqualTo(log.segments().size());
        writeVersion1Header(log.segment(1), 7); // version 1 always wrote zeros after the version
        assertThat(refusal(log).problem()).contains("non-zero reserved bytes");
    }

    private static void writeVersion1Header(Path segment, int reserved) throws IOException {
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(8).putInt(1).putInt(reserved).flip(), 8);
        }
    }

    // ---------------------------------------------------------------- the way out

    @Test
    void cuttingAtTheDamageMovesTheRestAsideAndCountsTheLostRecords() throws IOException {
        BuiltLog log = small();
        Path damaged = log.segment(2);
        List<Long> starts = DamagedLogs.frameStarts(damaged);
        long at = starts.get(1);
        byte[] before = Files.readAllBytes(damaged);
        DamagedLogs.flip(damaged, at + WriteAheadLog.FRAME_HEADER + 2, 0x01);
        byte[] tail = Arrays.copyOfRange(Files.readAllBytes(damaged), (int) at, before.length);
        LogDamage d = refusal(log);
        assertThat(d.cutAt()).isEqualTo(damaged.getFileName() + ":" + at);

        LogCut.CutReport cut = LogCut.cut(log.dir(), LogCut.CutPoint.parse(d.cutAt()), false);
        int kept = DamagedLogs.recordsBefore(log, 2) + 1;
        // The damaged record is not intact; every later one is, and is lost.
        assertThat(cut.intactRecordsDiscarded()).isEqualTo(log.records().size() - kept - 1);
        assertThat(cut.segmentsMoved()).isEqualTo(log.segments().size() - 3);
        assertThat(cut.recoveredDir().getParent()).isEqualTo(log.dir());
        assertThat(cut.recoveredDir().getFileName().toString()).startsWith("recovered-");
        assertThat(Files.readAllBytes(cut.recoveredDir().resolve(damaged.getFileName() + ".from-" + at))).isEqualTo(tail);
        for (Path later : log.segments().subList(3, log.segments().size())) {
            assertThat(cut.recoveredDir().resolve(later.getFileName())).exists();
            assertThat(later).doesNotExist();
        }
        assertThat(Files.readString(cut.recoveredDir().resolve("README.txt")))
                .contains("--recover-truncate-at=" + d.cutAt(), cut.intactRecordsDiscarded() + " intact record(s)");
        assertThat(cut.describe()).contains(cut.intactRecordsDiscarded() + " intact record(s)");

        try (WriteAheadLog wal = WriteAheadLog.open(log.dir(), false, SMALL)) {
            assertThat(wal.recoveryReport().clean()).isTrue();
            assertThat(replayAll(wal)).isEqualTo(log.records().subList(0, kept));
            wal.append(write(9, 9));
        }
        List<LogRecord> expected = new ArrayList<>(log.records().subList(0, kept));
        expected.add(write(9, 9));
        assertThat(openAndReplay(log, 1)).isEqualTo(expected);
    }

    @Test
    void aCutInsideARecordOrPastTheDamageIsRefusedAndChangesNothing() throws IOException {
        BuiltLog log = small();
        Path seg = log.segment(1);
        List<Long> starts = DamagedLogs.frameStarts(seg);
        DamagedLogs.flip(seg, starts.get(1) + WriteAheadLog.FRAME_HEADER, 0x40);
        byte[] damaged = Files.readAllBytes(seg);
        for (long offset : new long[] {starts.get(0) + 3, starts.get(2)}) {
            assertThatThrownBy(() -> LogCut.cut(log.dir(), new LogCut.CutPoint(seg.getFileName().toString(), offset), false))
                    .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE))
                    .hasMessageContaining("byte offset " + offset);
        }
        assertThatThrownBy(() -> LogCut.cut(log.dir(), LogCut.CutPoint.parse("wal-00000000000000000099.log:16"), false))
                .hasMessageContaining("there is no segment");
        assertThatThrownBy(() -> LogCut.CutPoint.parse("wal-1.log:16")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LogCut.CutPoint.parse(seg.getFileName() + ":x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readAllBytes(seg)).isEqualTo(damaged);
        assertThat(DamagedLogs.find(log.dir(), n -> n.startsWith("recovered-"))).isEmpty();
        assertThat(refusal(log).offset()).isEqualTo(starts.get(1));
    }

    @Test
    void aLogThatOpensAsItIsIsNeverCut() throws IOException {
        BuiltLog log = small();
        byte[] second = Files.readAllBytes(log.segment(1));
        assertThatThrownBy(() -> LogCut.cut(log.dir(), new LogCut.CutPoint(log.segment(1).getFileName().toString(),
                WriteAheadLog.SEGMENT_HEADER), false))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE))
                .hasMessageContaining("not damaged");
        assertThat(Files.readAllBytes(log.segment(1))).isEqualTo(second);
        assertThat(DamagedLogs.find(log.dir(), n -> n.startsWith("recovered-"))).isEmpty();
        assertThat(openAndReplay(log, 1)).isEqualTo(log.records());
    }

    @Test
    void cuttingASwappedSegmentAtOffsetZeroMovesItWhole() throws IOException {
        BuiltLog log = small();
        Path parked = log.dir().resolve("parked");
        Files.move(log.segment(3), parked);
        Files.move(log.segment(4), log.segment(3));
        Files.move(parked, log.segment(4));
        LogDamage d = refusal(log);
        LogCut.CutReport cut = LogCut.cut(log.dir(), LogCut.CutPoint.parse(d.cutAt()), false);
        assertThat(cut.segmentsMoved()).isEqualTo(log.segments().size() - 3);
        assertThat(openAndReplay(log, 1)).isEqualTo(log.records().subList(0, DamagedLogs.recordsBefore(log, 3)));
        assertThat(WalControl.read(log.dir()).getAsLong()).isEqualTo(3);
    }
}
