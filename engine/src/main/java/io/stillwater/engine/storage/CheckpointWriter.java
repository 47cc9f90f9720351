package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes one checkpoint file ({@link CheckpointFile}): {@link #add} the records, then
 * {@link #finishTemp} (end frame, fsync) and {@link #publish} (rename, directory fsync).
 * Until published the file has a temporary name, which restart ignores and deletes;
 * {@link #close} before publishing deletes it. One thread.
 */
public final class CheckpointWriter implements AutoCloseable {
    private final Path dir;
    private final Path temp;
    private final Path target;
    private final long time;
    private final long firstSegment;
    private final boolean fsync;
    private final FileChannel channel;
    private final DataOutputStream out;
    private long frames;
    private long bytes = CheckpointFile.HEADER;
    private boolean finished;
    private boolean published;

    private CheckpointWriter(Path dir, long firstSegment, long time, boolean fsync) throws IOException {
        this.dir = dir;
        this.target = CheckpointFile.path(dir, firstSegment);
        this.temp = target.resolveSibling(target.getFileName() + CheckpointFile.TEMP_SUFFIX);
        this.time = time;
        this.firstSegment = firstSegment;
        this.fsync = fsync;
        this.channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        this.out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16));
        out.write(CheckpointFile.MAGIC);
        out.writeInt(CheckpointFile.FORMAT_VERSION);
        out.writeInt(0);
    }

    /**
     * Starts the checkpoint of the state at {@code time} that replaces the log segments
     * before {@code firstSegment}.
     *
     * @throws SqlException 58030 on an I/O error
     */
    public static CheckpointWriter begin(Path dir, long firstSegment, long time, boolean fsync) {
        try {
            return new CheckpointWriter(dir, firstSegment, time, fsync);
        } catch (IOException e) {
            throw ioError(dir, e);
        }
    }

    /** Adds one record (a catalog record, or a table's rows as a TableWrite at the checkpoint's time). */
    public void add(LogRecord record) {
        byte[] body = LogRecordCodec.encode(record);
        byte[] payload = new byte[body.length + 1];
        payload[0] = CheckpointFile.RECORD;
        System.arraycopy(body, 0, payload, 1, body.length);
        frame(payload);
    }

    /**
     * Adds a chunk of materialized view {@code viewId}'s contents at the checkpoint's
     * time ({@code chunk}'s changes carry the view's id as their table id). A view
     * without rows is one empty chunk, so restart knows its (empty) contents too.
     */
    public void addViewContents(long viewId, LogRecord.TableWrite chunk) {
        byte[] body = LogRecordCodec.encode(chunk);
        byte[] payload = new BinaryWriter(body.length + 16).writeByte(CheckpointFile.VIEW_CONTENTS).writeLong(viewId)
                .writeBytes(body, 0, body.length).toByteArray();
        frame(payload);
    }

    private void frame(byte[] payload) {
        if (payload.length > WriteAheadLog.MAX_PAYLOAD) throw new IllegalArgumentException("checkpoint frame too large");
        try {
            out.writeInt(payload.length);
            out.writeInt(SegmentScanner.crc32c(payload));
            out.write(payload);
        } catch (IOException e) {
            throw ioError(dir, e);
        }
        frames++;
        bytes += WriteAheadLog.FRAME_HEADER + payload.length;
    }

    /** Writes the end frame and makes the temporary file durable (not yet under its final name). */
    public void finishTemp() {
        BinaryWriter end = new BinaryWriter(32).writeByte(CheckpointFile.END).writeLong(time).writeLong(firstSegment)
                .writeLong(frames);
        frame(end.toByteArray());
        try {
            out.flush();
            if (fsync) channel.force(true);
            out.close();
        } catch (IOException e) {
            throw ioError(dir, e);
        }
        finished = true;
    }

    /** Renames the finished file to its final name and syncs the directory: from now on restart uses it. */
    public Path publish() {
        if (!finished) throw new IllegalStateException("finishTemp first");
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            if (fsync) {
                try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                    d.force(true);
                }
            }
        } catch (IOException e) {
            throw ioError(dir, e);
        }
        published = true;
        return target;
    }

    /** Bytes written so far, the end frame included once finished. */
    public long bytes() { return bytes; }

    /** The temporary file (tests). */
    public Path tempFile() { return temp; }

    /** Deletes the temporary file unless published. */
    @Override
    public void close() {
        if (published) return;
        try {
            out.close();
        } catch (IOException ignored) {
            // closing after a failure: the file is deleted below anyway
        }
        try {
            Files.deleteIfExists(temp);
        } catch (IOException ignored) {
            // a leftover temp file is deleted at the next start
        }
    }

    private static SqlException ioError(Path dir, IOException e) {
        return new SqlException(SqlState.IO_ERROR, "could not write checkpoint in \"" + dir + "\": " + e, null, null, e);
    }
}
