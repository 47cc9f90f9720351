package io.stillwater.engine.storage;

import static io.stillwater.engine.storage.WalTesting.replayAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stillwater.engine.storage.DamagedLogs.BuiltLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.constraints.IntRange;

/**
 * One damaged byte anywhere in a real five-segment log: either open refuses it, naming the
 * segment and the start of the damaged frame (offset 0 for a header), or, only when the
 * byte is in the final record of the newest segment, that record alone is cut off as a
 * torn write and every other record replays.
 */
class WalBitFlipPropertyTest {
    private static final long SEGMENT_BYTES = 400;
    private static Path base;
    private static BuiltLog pristine;
    private static int copies;

    private static synchronized BuiltLog pristine() throws IOException {
        if (pristine == null) {
            base = Files.createTempDirectory("wal-bitflip");
            pristine = DamagedLogs.build(base.resolve("pristine"), SEGMENT_BYTES, 5, 100);
        }
        return pristine;
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        if (base != null) DamagedLogs.deleteRecursively(base);
    }

    @Property(tries = 400)
    void aFlippedByteIsRefusedAtItsFrameUnlessItTearsOnlyTheFinalRecord(
            @ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int anyPosition,
            @ForAll @IntRange(min = 1, max = 255) int mask) throws IOException {
        BuiltLog log = DamagedLogs.copy(pristine(), base.resolve("copy" + copies++));
        try {
            // The position counts through the segments' bytes one after the other.
            long total = 0;
            for (Path s : log.segments()) total += Files.size(s);
            long position = anyPosition % total;
            int index = 0;
            while (position >= Files.size(log.segment(index))) position -= Files.size(log.segment(index++));
            Path file = log.segment(index);
            List<Long> starts = DamagedLogs.frameStarts(file);
            DamagedLogs.flip(file, position, mask);

            boolean newest = index == log.segments().size() - 1;
            long frame = position < WriteAheadLog.SEGMENT_HEADER ? 0 : DamagedLogs.frameHolding(starts, position);
            boolean finalRecord = newest && frame == starts.get(starts.size() - 1);
            if (finalRecord) {
                try (WriteAheadLog wal = WriteAheadLog.open(log.dir(), false, SEGMENT_BYTES)) {
                    assertThat(wal.recoveryReport().truncatedFile()).isEqualTo(file);
                    assertThat(wal.recoveryReport().truncatedAt()).isEqualTo(frame);
                    List<LogRecord> all = log.records();
                    assertThat(replayAll(wal)).as("everything but the torn final record").isEqualTo(all.subList(0, all.size() - 1));
                }
            } else {
                LogDamageException e = catchThrowableOfType(LogDamageException.class,
                        () -> WriteAheadLog.open(log.dir(), false, SEGMENT_BYTES).close());
                assertThat(e).as("byte %d of %s ^ %d is refused", position, file.getFileName(), mask).isNotNull();
                assertThat(e.damage().file()).isEqualTo(file);
                assertThat(e.damage().offset()).isEqualTo(frame);
                assertThat(e.damage().cutAt()).isEqualTo(file.getFileName() + ":" + frame);
                assertThat(e.getMessage()).contains(file.toString(), "byte offset " + frame);
            }
        } finally {
            DamagedLogs.deleteRecursively(log.dir());
        }
    }
}
