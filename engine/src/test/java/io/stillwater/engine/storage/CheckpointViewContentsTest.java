package io.stillwater.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.CheckpointReader.Checkpoint;
import io.stillwater.engine.storage.CheckpointReader.ViewContents;
import io.stillwater.engine.types.SqlType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The materialized-view section of checkpoint files (format 2): written contents read
 * back per view (an empty view as one empty chunk), damage inside a view frame is
 * refused like damage anywhere else, and a format 1 file is still read while a format 1
 * file claiming a view section is damage.
 */
class CheckpointViewContentsTest {
    @TempDir
    Path dir;

    private static final LogRecord TABLE = new LogRecord.CreateTable(20, "t",
            List.of(new LogRecord.Column("k", SqlType.INTEGER, false, null)));

    private Path write(boolean withViews) {
        try (CheckpointWriter w = CheckpointWriter.begin(dir, 3, 1000, false)) {
            w.add(TABLE);
            w.add(new LogRecord.TableWrite(1000, List.of(new LogRecord.TableChange(20, Row.of(1), 1))));
            if (withViews) {
                w.addViewContents(21, new LogRecord.TableWrite(1000, List.of(
                        new LogRecord.TableChange(21, Row.of(1, "one"), 2), new LogRecord.TableChange(21, Row.of(2, "two"), 1))));
                w.addViewContents(21, new LogRecord.TableWrite(1000, List.of(new LogRecord.TableChange(21, Row.of(3, "x"), 1))));
                w.addViewContents(22, new LogRecord.TableWrite(1000, List.of())); // an empty view
            }
            w.finishTemp();
            return w.publish();
        }
    }

    private static List<Object> readAll(Checkpoint c) {
        List<Object> out = new ArrayList<>();
        c.read(out::add, out::add);
        return out;
    }

    @Test
    void viewContentsReadBackByViewAfterTheOtherRecords() {
        Checkpoint c = CheckpointReader.validate(write(true));
        assertThat(c.time()).isEqualTo(1000);
        List<Object> all = readAll(c);
        assertThat(all).hasSize(5);
        assertThat(all.get(0)).isEqualTo(TABLE);
        ViewContents first = (ViewContents) all.get(2);
        assertThat(first.viewId()).isEqualTo(21);
        assertThat(first.chunk().changes()).extracting(LogRecord.TableChange::row).containsExactly(Row.of(1, "one"), Row.of(2, "two"));
        assertThat(((ViewContents) all.get(4)).viewId()).isEqualTo(22);
        assertThat(((ViewContents) all.get(4)).chunk().changes()).isEmpty();
        // A reader that does not ask for views gets the same records without them.
        List<LogRecord> records = new ArrayList<>();
        c.read(records::add);
        assertThat(records).hasSize(2);
    }

    @Test
    void aFlippedBitInAViewFrameIsRefusedNamingTheFileAndOffset() throws IOException {
        Path file = write(true);
        long size = Files.size(file);
        // The end frame is 8 + 25 bytes; the byte before it lies in the last view frame.
        flip(file, size - 33 - 2);
        assertThatThrownBy(() -> CheckpointReader.validate(file)).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.DATA_CORRUPTED);
            assertThat(e.getMessage()).contains(file.toString()).contains("byte offset");
        });
        assertThatThrownBy(() -> CheckpointReader.newest(dir)).isInstanceOf(SqlException.class)
                .hasMessageContaining(file.toString());
    }

    @Test
    void aFormatOneFileIsStillReadButMayHoldNoViewSection() throws IOException {
        Path old = write(false);
        setVersion(old, 1);
        assertThat(readAll(CheckpointReader.validate(old))).hasSize(2);
        Files.delete(old);
        Path claiming = write(true);
        setVersion(claiming, 1);
        assertThatThrownBy(() -> CheckpointReader.validate(claiming)).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.getMessage()).contains("unknown section 2"));
        setVersion(claiming, 3);
        assertThatThrownBy(() -> CheckpointReader.validate(claiming)).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.getMessage()).contains("format version 3"));
    }

    private static void flip(Path file, long offset) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
            ch.write(b, offset);
        }
    }

    private static void setVersion(Path file, int version) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(4).putInt(0, version), 8);
        }
    }
}
