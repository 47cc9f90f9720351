package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and reads checkpoint files ({@link CheckpointFile}). A file is valid only if
 * every frame's checksum matches, the end frame is last and counts the frames before
 * it, and its T and N agree with its name: anything else is damage, never a shorter
 * checkpoint.
 */
public final class CheckpointReader {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointReader.class);

    private CheckpointReader() {}

    /** A chunk of materialized view {@code viewId}'s rows at the checkpoint's time (its changes carry the view's id). */
    public record ViewContents(long viewId, LogRecord.TableWrite chunk) {}

    /** A validated checkpoint file: the state at {@code time}, replacing the log segments before {@code firstSegment}. */
    public record Checkpoint(Path file, long time, long firstSegment, long records) {
        /**
         * Feeds every record of the file to {@code sink}, in order: catalog records, then
         * the tables' rows as TableWrites at {@link #time}.
         *
         * @throws SqlException XX001 if the file no longer reads back as validated, 58030 on a read error
         */
        public void read(Consumer<LogRecord> sink) {
            read(sink, viewContents -> {});
        }

        /**
         * Like {@link #read(Consumer)}, and feeds the materialized views' stored contents
         * (format 2) to {@code views}, in chunks.
         */
        public void read(Consumer<LogRecord> sink, Consumer<ViewContents> views) {
            try (SegmentScanner scanner = new SegmentScanner(file, CheckpointFile.HEADER, Files.size(file))) {
                for (long i = 0; i < records; i++) {
                    SegmentScanner.Frame f = scanner.next();
                    byte section = f == null ? 0 : f.payload()[0];
                    if (section != CheckpointFile.RECORD && section != CheckpointFile.VIEW_CONTENTS) {
                        throw damaged(file, scanner.goodEnd(), "changed after it was validated");
                    }
                    try {
                        int skip = section == CheckpointFile.RECORD ? 1 : 9; // section byte [, view id]
                        LogRecord r = LogRecordCodec.decode(Arrays.copyOfRange(f.payload(), skip, f.payload().length));
                        if (section == CheckpointFile.RECORD) {
                            sink.accept(r);
                        } else if (r instanceof LogRecord.TableWrite tw) {
                            views.accept(new ViewContents(new BinaryReader(f.payload(), 1, 8).readLong(), tw));
                        } else {
                            throw damaged(file, f.offset(), "materialized view section holds " + r.getClass().getSimpleName());
                        }
                    } catch (CorruptDataException e) {
                        throw damaged(file, f.offset(), "undecodable record: " + e.getMessage());
                    }
                }
            } catch (IOException e) {
                throw new SqlException(SqlState.IO_ERROR, "could not read checkpoint file \"" + file + "\": " + e, null, null, e);
            }
        }
    }

    /**
     * The checkpoint restart starts from: the newest valid one. A damaged newest one is
     * passed over only for an older valid one whose first segment is still in {@code
     * dir} (the log from there on is complete: the damaged one's segment deletion never
     * began); otherwise startup is refused. Empty when {@code dir} holds no checkpoint.
     *
     * @throws SqlException XX001 naming the damaged file and the offset of the damage
     */
    public static Optional<Checkpoint> newest(Path dir) {
        List<Path> files;
        try {
            files = CheckpointFile.list(dir);
        } catch (IOException e) {
            throw new SqlException(SqlState.IO_ERROR, "could not list checkpoints in \"" + dir + "\": " + e, null, null, e);
        }
        SqlException firstDamage = null;
        for (Path file : files) {
            try {
                Checkpoint c = validate(file);
                if (firstDamage == null) return Optional.of(c);
                if (Files.exists(WriteAheadLog.segmentPath(dir, c.firstSegment()))) {
                    LOG.error("{}; starting from the older checkpoint {} and the log after it", firstDamage.getMessage(), file);
                    return Optional.of(c);
                }
                break; // its segments are gone: the log after it is incomplete
            } catch (SqlException e) {
                if (e.state() != SqlState.DATA_CORRUPTED) throw e;
                if (firstDamage == null) firstDamage = e;
            }
        }
        if (firstDamage != null) {
            throw new SqlException(SqlState.DATA_CORRUPTED, firstDamage.getMessage(), null,
                    "No older checkpoint with the log after it is present. Restore the data directory from a backup;"
                            + " starting without the checkpoint would lose data.");
        }
        return Optional.empty();
    }

    /**
     * Checks every frame of {@code file}.
     *
     * @throws SqlException XX001 naming the file and the byte offset of the damage
     */
    public static Checkpoint validate(Path file) {
        long firstSegment = CheckpointFile.firstSegmentOf(file);
        try {
            long size = Files.size(file);
            byte[] header = new byte[CheckpointFile.HEADER];
            try (InputStream in = Files.newInputStream(file)) {
                if (in.readNBytes(header, 0, header.length) != header.length) throw damaged(file, 0, "shorter than its header");
            }
            if (!Arrays.equals(header, 0, CheckpointFile.MAGIC.length, CheckpointFile.MAGIC, 0, CheckpointFile.MAGIC.length)) {
                throw damaged(file, 0, "not a checkpoint file header");
            }
            int version = ByteBuffer.wrap(header, CheckpointFile.MAGIC.length, 4).getInt();
            if (version < CheckpointFile.OLDEST_READABLE_VERSION || version > CheckpointFile.FORMAT_VERSION) {
                throw damaged(file, 8, "format version " + version + ", this version of Stillwater reads "
                        + CheckpointFile.OLDEST_READABLE_VERSION + " to " + CheckpointFile.FORMAT_VERSION);
            }
            long frames = 0;
            try (SegmentScanner scanner = new SegmentScanner(file, CheckpointFile.HEADER, size)) {
                for (SegmentScanner.Frame f = scanner.next(); f != null; f = scanner.next()) {
                    byte section = f.payload()[0];
                    if (section == CheckpointFile.END) {
                        BinaryReader r = new BinaryReader(f.payload(), 1, f.payload().length - 1);
                        long time = r.readLong();
                        long n = r.readLong();
                        long count = r.readLong();
                        if (count != frames || n != firstSegment || scanner.next() != null || scanner.goodEnd() != size) {
                            throw damaged(file, f.offset(), "end frame does not match the file (" + count + " frames of "
                                    + frames + ", segment " + n + ")");
                        }
                        return new Checkpoint(file, time, firstSegment, frames);
                    }
                    boolean known = section == CheckpointFile.RECORD || (section == CheckpointFile.VIEW_CONTENTS && version >= 2);
                    if (!known) throw damaged(file, f.offset(), "unknown section " + section);
                    frames++;
                }
                throw damaged(file, scanner.goodEnd(), scanner.stopReason() == RecoveryReport.Reason.CLEAN
                        ? "no end frame" : scanner.stopReason().toString());
            }
        } catch (IOException e) {
            throw new SqlException(SqlState.IO_ERROR, "could not read checkpoint file \"" + file + "\": " + e, null, null, e);
        }
    }

    static SqlException damaged(Path file, long offset, String why) {
        return new SqlException(SqlState.DATA_CORRUPTED,
                "checkpoint file \"" + file + "\" is damaged at byte offset " + offset + ": " + why);
    }
}
