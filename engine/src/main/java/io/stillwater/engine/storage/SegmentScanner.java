package io.stillwater.engine.storage;

import io.stillwater.engine.storage.RecoveryReport.Reason;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Reads the frames of one segment file in order, from just after the segment header up
 * to a limit, and stops at the first frame that is not intact. A frame is
 * {@code [int length][int crc32c(payload)][payload]}, big-endian.
 *
 * <p>A frame is intact only if its length is plausible, lies within the limit, and its
 * payload matches its checksum; anything else ends the scan with a {@link Reason}, so
 * garbage is never mistaken for a record. Single-threaded.
 */
final class SegmentScanner implements AutoCloseable {
    /** An intact frame's payload and the offset of its frame header in the file. */
    record Frame(long offset, byte[] payload) {}

    private final FileChannel channel;
    private final DataInputStream in;
    private final long limit;
    private long goodEnd; // offset just past the last intact frame
    private long streamPos; // offset of the next byte `in` returns
    private Reason stop; // null while intact frames keep coming, CLEAN at a clean end

    SegmentScanner(Path file, long start, long limit) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        channel.position(start);
        this.in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel), 1 << 16));
        this.limit = limit;
        this.goodEnd = start;
        this.streamPos = start;
    }

    /** The next intact frame, or null at the end (then {@link #stopReason} says why). */
    Frame next() throws IOException {
        if (stop != null) return null;
        long offset = goodEnd;
        byte[] payload = readFrame();
        if (payload == null) return null;
        goodEnd = streamPos;
        return new Frame(offset, payload);
    }

    /** Reads the frame at {@code streamPos}: its payload if intact, else null with {@code stop} set. */
    private byte[] readFrame() throws IOException {
        long remaining = limit - streamPos;
        if (remaining == 0) return end(Reason.CLEAN);
        if (remaining < WriteAheadLog.FRAME_HEADER) return end(Reason.PARTIAL_FRAME_HEADER);
        int length = in.readInt();
        int crc = in.readInt();
        streamPos += WriteAheadLog.FRAME_HEADER;
        // A zero-filled region (preallocated or never-written blocks after a crash) has
        // length 0 and the CRC of nothing (0): the minimum length rejects it.
        if (length < LogRecordCodec.MIN_PAYLOAD || length > WriteAheadLog.MAX_PAYLOAD) return end(Reason.INVALID_LENGTH);
        if (length > limit - streamPos) return end(Reason.LENGTH_BEYOND_EOF);
        byte[] payload = new byte[length];
        try {
            in.readFully(payload);
        } catch (EOFException e) {
            return end(Reason.LENGTH_BEYOND_EOF); // the file shrank under us
        }
        streamPos += length;
        if (crc32c(payload) != crc) return end(Reason.CHECKSUM_MISMATCH);
        return payload;
    }

    private byte[] end(Reason reason) {
        stop = reason;
        return null;
    }

    Reason stopReason() { return stop; }

    /** Offset just past the last intact frame: where the valid log ends in this file. */
    long goodEnd() { return goodEnd; }

    /**
     * After a {@link Reason#CHECKSUM_MISMATCH}: whether the frame following the damaged
     * one (located by the damaged frame's length, which may itself be wrong) is intact.
     * True means the damage is in the middle of the log, not a torn final write.
     */
    boolean intactFrameFollowsDamage() throws IOException {
        if (stop != Reason.CHECKSUM_MISMATCH) return false;
        stop = null;
        boolean intact = readFrame() != null;
        stop = Reason.CHECKSUM_MISMATCH;
        return intact;
    }

    static int crc32c(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload, 0, payload.length);
        return (int) crc.getValue();
    }

    @Override
    public void close() throws IOException { channel.close(); }
}
