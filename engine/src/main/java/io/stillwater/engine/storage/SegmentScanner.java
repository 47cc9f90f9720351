package io.stillwater.engine.storage;

import io.stillwater.engine.storage.RecoveryReport.Reason;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
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
     * The bytes of {@code file} from {@code from} to its end (at most 2 GiB), mapped
     * read-only, for the frame searches below; positions in it are relative to {@code from}.
     */
    static ByteBuffer map(Path file, long from) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = Math.max(0, Math.min(ch.size() - from, Integer.MAX_VALUE));
            return ch.map(FileChannel.MapMode.READ_ONLY, from, length);
        }
    }

    /** The payload length of the intact frame starting at {@code pos} of {@code bytes}, or -1 if none starts there. */
    static int intactFrameAt(ByteBuffer bytes, int pos) {
        if (bytes.limit() - pos < WriteAheadLog.FRAME_HEADER) return -1;
        int length = bytes.getInt(pos);
        if (length < LogRecordCodec.MIN_PAYLOAD || length > WriteAheadLog.MAX_PAYLOAD) return -1;
        if (length > bytes.limit() - pos - WriteAheadLog.FRAME_HEADER) return -1;
        CRC32C crc = new CRC32C();
        crc.update(bytes.slice(pos + WriteAheadLog.FRAME_HEADER, length));
        return (int) crc.getValue() == bytes.getInt(pos + 4) ? length : -1;
    }

    /**
     * The first position at or after {@code from} where an intact frame starts, trying
     * every byte offset (damage can shift frames anywhere), or -1. A random match needs
     * a plausible length and a matching 32-bit checksum; implausible lengths, which is
     * what zeros and most garbage decode to, cost one read each.
     */
    static int nextIntactFrame(ByteBuffer bytes, int from) {
        for (int pos = from; pos <= bytes.limit() - WriteAheadLog.FRAME_HEADER; pos++) {
            if (intactFrameAt(bytes, pos) >= 0) return pos;
        }
        return -1;
    }

    /**
     * How many intact frames {@code bytes} holds from {@code from} on: follows frames from
     * one to the next and, after damage, searches for the next intact one.
     */
    static long countIntactFrames(ByteBuffer bytes, int from) {
        long count = 0;
        int pos = nextIntactFrame(bytes, from);
        while (pos >= 0) {
            count++;
            int next = pos + WriteAheadLog.FRAME_HEADER + intactFrameAt(bytes, pos);
            pos = intactFrameAt(bytes, next) >= 0 ? next : nextIntactFrame(bytes, next);
        }
        return count;
    }

    static int crc32c(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload, 0, payload.length);
        return (int) crc.getValue();
    }

    @Override
    public void close() throws IOException { channel.close(); }
}
