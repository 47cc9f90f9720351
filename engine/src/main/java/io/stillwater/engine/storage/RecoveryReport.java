package io.stillwater.engine.storage;

import java.nio.file.Path;

/**
 * What {@link WriteAheadLog#open} found: how many intact records the log holds and, if
 * its final write was torn by a crash, where and why it was cut. (Any other damage makes
 * open fail with a {@link LogDamageException} instead.)
 *
 * @param recordsRead            intact records recovered (what {@link WriteAheadLog#replay} yields)
 * @param segments               segment files that remain in the log
 * @param bytesTruncated         bytes of the torn final write removed from {@code truncatedFile}
 * @param reason                 why the log ends where it does; {@link Reason#CLEAN} if nothing was cut
 * @param truncatedFile          the segment that was cut, null when clean
 * @param truncatedAt            byte offset in {@code truncatedFile} where the valid log ends, -1 when clean
 * @param savedTail              where the cut bytes were saved for inspection, null when clean
 */
public record RecoveryReport(
        long recordsRead,
        int segments,
        long bytesTruncated,
        Reason reason,
        Path truncatedFile,
        long truncatedAt,
        Path savedTail) {

    /** Why the valid log ends. Everything but CLEAN means bytes after the end were discarded. */
    public enum Reason {
        /** The log ends exactly after its last record. */
        CLEAN,
        /** Fewer bytes than a frame header (length + checksum) follow the last record. */
        PARTIAL_FRAME_HEADER,
        /** A frame's length is impossible (below the minimum record size or above the maximum). */
        INVALID_LENGTH,
        /** A frame's length runs past the end of the file. */
        LENGTH_BEYOND_EOF,
        /** A frame's payload does not match its CRC32C. */
        CHECKSUM_MISMATCH,
        /** A segment's file header is incomplete (a crash while creating the segment). */
        TORN_SEGMENT_HEADER
    }

    public boolean clean() { return reason == Reason.CLEAN; }

    /** One line for the server log. */
    public String describe() {
        if (clean()) return "write-ahead log recovered " + recordsRead + " records from " + segments + " segment(s)";
        return "write-ahead log recovered " + recordsRead + " records; " + reason + " at byte offset " + truncatedAt
                + " of " + truncatedFile + ": discarded " + bytesTruncated + " bytes of a torn final write"
                + (savedTail != null ? "; saved them to " + savedTail : "");
    }
}
