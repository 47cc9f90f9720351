package io.stillwater.engine.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The 16-byte header every segment file starts with: {@code "STILLWAL"}, the format
 * version (int), and since version 2 the segment's own sequence number (int; the low 32
 * bits of the number in the file name). Version 1 wrote zeros there; such segments are
 * still read, without the sequence check.
 *
 * <p>Why the sequence number: a segment renamed, swapped with another or copied over
 * from another log keeps intact frames, so only the header can tell that it is not the
 * segment its name claims.
 */
final class SegmentHeader {
    static final int SIZE = 16;
    static final int VERSION_1 = 1;
    /** The version this code writes: version 1 plus the sequence number. */
    static final int CURRENT_VERSION = 2;
    private static final byte[] MAGIC = "STILLWAL".getBytes(StandardCharsets.US_ASCII);

    private SegmentHeader() {}

    /** The header of segment {@code sequence}, as written now. */
    static ByteBuffer encode(long sequence) {
        return ByteBuffer.allocate(SIZE).put(MAGIC).putInt(CURRENT_VERSION).putInt((int) sequence).flip();
    }

    /**
     * True when {@code partial} (shorter than a header, or all zeros) can be what a crash
     * left of segment {@code sequence}'s header: a prefix of it, or zeros.
     */
    static boolean tornHeaderOf(byte[] partial, long sequence) {
        if (allZero(partial)) return true;
        byte[] expected = encode(sequence).array();
        return partial.length < SIZE && Arrays.equals(partial, 0, partial.length, expected, 0, partial.length);
    }

    /** True for a header that is all zeros: a file the file system extended but whose header never reached the disk. */
    static boolean allZero(byte[] header) {
        for (byte b : header) if (b != 0) return false;
        return true;
    }

    /** The header's format version, or -1 when {@code header} is too short. */
    static int version(byte[] header) {
        return header.length < SIZE ? -1 : ByteBuffer.wrap(header, MAGIC.length, 4).getInt();
    }

    /**
     * What is wrong with the header of the segment named with {@code sequence}, or null
     * when it is a valid header of that segment.
     */
    static String problem(byte[] header, long sequence) {
        if (header.length < SIZE) return "the segment header is incomplete (" + header.length + " of " + SIZE + " bytes)";
        if (!Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return "the file is not a Stillwater write-ahead log segment (it does not start with STILLWAL)";
        }
        int version = version(header);
        if (version != VERSION_1 && version != CURRENT_VERSION) {
            return "the segment has format version " + version + "; this version of Stillwater reads versions "
                    + VERSION_1 + " and " + CURRENT_VERSION;
        }
        int recorded = ByteBuffer.wrap(header, MAGIC.length + 4, 4).getInt();
        if (version == VERSION_1 && recorded != 0) {
            return "the segment header has version 1 but non-zero reserved bytes (version 1 wrote zeros there)";
        }
        if (version == CURRENT_VERSION && recorded != (int) sequence) {
            return "the segment header says it is segment " + Integer.toUnsignedLong(recorded)
                    + " but the file name says " + sequence + " (a renamed, swapped or foreign segment)";
        }
        return null;
    }
}
