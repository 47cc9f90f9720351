package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.RecoveryReport.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks a log directory at open: every segment that must be there is there, in sequence,
 * with its own header, and every frame is intact except possibly a torn final write.
 *
 * <p>The one damage a crash can cause, and so the one that is accepted, is a torn
 * final write: bytes after the last intact record of the NEWEST segment that hold no
 * intact frame (an incomplete or checksum-failing last record, zeros, garbage), or a
 * newest segment whose header never reached the disk (a crash while rotating). The
 * caller cuts those off. Everything else is refused with a {@link LogDamageException}
 * naming the file and byte offset: damage followed by intact frames, damage in any
 * segment but the newest (a segment is complete and synced before the next one is
 * created), a bad segment header (magic, version, or a sequence number that does not
 * match the file name), a gap in the sequence, a missing oldest segment (older than the
 * caller's first required segment), and a missing newest segment (detected with
 * {@link WalControl}).
 *
 * <p>Known limit: a non-final segment cut exactly at a frame boundary looks complete.
 */
final class SegmentValidator {
    private static final Pattern SEGMENT_NAME = Pattern.compile("wal-(\\d{20})\\.log");

    /** A valid segment and where its intact records end. */
    record Extent(Path file, long end) {}

    /**
     * Bytes at the end of the newest segment that the caller must cut off: a torn final
     * write ({@code offset} = end of the last intact record) or, with reason {@link
     * Reason#TORN_SEGMENT_HEADER}, the whole newest segment ({@code offset} 0).
     */
    record TornTail(Path file, long offset, Reason reason, long bytes) {}

    /**
     * A log that may be opened.
     *
     * @param segments every segment file present, in sequence order (including a torn-header newest one)
     * @param extents  the segments holding the log's intact records, in order
     * @param records  intact records in {@code extents}
     * @param torn     what to cut off the newest segment, or null
     * @param control  the newest segment named by the control file, empty when there is none
     */
    record ValidLog(List<Path> segments, List<Extent> extents, long records, TornTail torn, OptionalLong control) {}

    private SegmentValidator() {}

    /**
     * Validates the log in {@code dir}.
     *
     * @param firstRequiredSegment the oldest segment the caller needs (segments before it may
     *                             have been deleted after a checkpoint); values below 1 mean 1
     * @throws LogDamageException  on damage a crash cannot explain
     * @throws SqlException        {@code XX001} for an intact record this version cannot read
     */
    static ValidLog validate(Path dir, long firstRequiredSegment) throws IOException {
        List<Path> segments = listSegments(dir);
        OptionalLong control = WalControl.read(dir);
        if (segments.isEmpty()) {
            if (control.isPresent()) {
                throw damage(WriteAheadLog.segmentPath(dir, control.getAsLong()), 0,
                        "no segment file is present, but wal.control names this one as the newest", null);
            }
            return new ValidLog(List.of(), List.of(), 0, null, control);
        }
        long required = Math.max(1, firstRequiredSegment);
        long oldest = sequenceOf(segments.get(0));
        if (oldest > required) {
            throw damage(WriteAheadLog.segmentPath(dir, required), 0, "segment(s) " + required + " to " + (oldest - 1)
                    + " are missing: the log must start at segment " + required + " but starts at " + oldest
                    + (required == 1 ? ", and no checkpoint covers them" : ", which the newest checkpoint needs"), null);
        }
        List<Extent> extents = new ArrayList<>();
        long records = 0;
        boolean anyVersion2 = false;
        TornTail torn = null;
        int newestIndex = segments.size() - 1;
        for (int i = 0; i <= newestIndex; i++) {
            Path file = segments.get(i);
            long seq = sequenceOf(file);
            boolean newest = i == newestIndex;
            if (i > 0 && seq != sequenceOf(segments.get(i - 1)) + 1) {
                throw damage(file, 0, "segment(s) " + (sequenceOf(segments.get(i - 1)) + 1) + " to " + (seq - 1)
                        + " are missing (a gap in the segment sequence)", cutAt(file, 0));
            }
            long size = Files.size(file);
            byte[] header = readHeader(file);
            if (header.length < SegmentHeader.SIZE || SegmentHeader.allZero(header)) {
                // A crash while rotating: the new segment exists, its header never reached the
                // disk, and no record can be in it (records go to a segment only once the
                // control file names it, which happens after its header is synced).
                boolean rotating = newest && (control.isEmpty() || control.getAsLong() == seq - 1)
                        && SegmentHeader.tornHeaderOf(header, seq);
                if (!rotating) {
                    throw damage(file, 0, header.length < SegmentHeader.SIZE ? "the segment header is incomplete ("
                            + header.length + " bytes)" : "the segment header is all zeros", cutAt(file, 0));
                }
                torn = new TornTail(file, 0, Reason.TORN_SEGMENT_HEADER, size);
                break;
            }
            String problem = SegmentHeader.problem(header, seq);
            if (problem != null) throw damage(file, 0, problem, cutAt(file, 0));
            anyVersion2 |= SegmentHeader.version(header) == SegmentHeader.CURRENT_VERSION;
            try (SegmentScanner scanner = new SegmentScanner(file, SegmentHeader.SIZE, size)) {
                for (SegmentScanner.Frame f = scanner.next(); f != null; f = scanner.next()) {
                    String why = LogRecordCodec.undecodableReason(f.payload());
                    if (why != null) {
                        throw new SqlException(SqlState.DATA_CORRUPTED,
                                "write-ahead log file \"" + file + "\" holds a record this version cannot read at byte offset "
                                        + f.offset() + ": " + why,
                                null, "Was the data directory written by a newer version of Stillwater?");
                    }
                    records++;
                }
                long end = scanner.goodEnd();
                extents.add(new Extent(file, end));
                if (scanner.stopReason() != Reason.CLEAN) {
                    String what = words(scanner.stopReason());
                    if (!newest) {
                        throw damage(file, end, what + " in a segment that is not the newest (a segment is complete and "
                                + "synced before the next one begins, so this is not a torn write)", cutAt(file, end));
                    }
                    if (SegmentScanner.nextIntactFrame(SegmentScanner.map(file, end), 1) >= 0) {
                        throw damage(file, end, what + ", and intact records follow it (so this is not a torn final write)",
                                cutAt(file, end));
                    }
                    torn = new TornTail(file, end, scanner.stopReason(), size - end);
                }
            }
        }
        checkNewest(dir, segments, extents, control, anyVersion2);
        return new ValidLog(segments, extents, records, torn, control);
    }

    /** The newest segment present must be the one wal.control names, or the next one before any record went to it. */
    private static void checkNewest(Path dir, List<Path> segments, List<Extent> extents, OptionalLong control,
                                    boolean anyVersion2) throws IOException {
        Path newestFile = segments.get(segments.size() - 1);
        long newest = sequenceOf(newestFile);
        Extent lastValid = extents.isEmpty() ? null : extents.get(extents.size() - 1);
        String cutAtEnd = lastValid == null ? null : cutAt(lastValid.file(), lastValid.end());
        if (control.isEmpty()) {
            // Logs written before the control file existed (version-1 segments only) have
            // none; a crash while creating the first segment leaves a log without records.
            boolean empty = segments.size() == 1 && (lastValid == null || lastValid.end() == SegmentHeader.SIZE);
            if (anyVersion2 && !empty) {
                throw damage(dir.resolve(WalControl.FILE), 0, "the control file is missing, so a deleted newest segment "
                        + "could not be noticed; the newest segment present is " + newestFile.getFileName(), cutAtEnd);
            }
            return;
        }
        long named = control.getAsLong();
        if (newest < named) {
            throw damage(WriteAheadLog.segmentPath(dir, named), 0, "the newest segment is missing: wal.control names it, "
                    + "but the log ends at " + newestFile.getFileName(), cutAtEnd);
        }
        boolean newestHasRecords = lastValid != null && lastValid.file().equals(newestFile) && lastValid.end() > SegmentHeader.SIZE;
        if (newest > named + 1 || (newest == named + 1 && newestHasRecords)) {
            throw damage(newestFile, 0, "wal.control names segment " + named + " as the newest, but this later segment "
                    + (newestHasRecords ? "holds records" : "exists") + " (a stale or restored control file?)", cutAtEnd);
        }
    }

    private static LogDamageException damage(Path file, long offset, String problem, String cutAt) {
        return new LogDamageException(new LogDamage(file, offset, problem, cutAt));
    }

    static String cutAt(Path segment, long offset) { return segment.getFileName() + ":" + offset; }

    private static String words(Reason reason) {
        return switch (reason) {
            case PARTIAL_FRAME_HEADER -> "the file ends inside a frame header";
            case INVALID_LENGTH -> "a frame has an impossible length";
            case LENGTH_BEYOND_EOF -> "a frame's length runs past the end of the file";
            case CHECKSUM_MISMATCH -> "a frame fails its CRC32C checksum";
            case TORN_SEGMENT_HEADER -> "the segment header is incomplete";
            case CLEAN -> "the segment ends cleanly";
        };
    }

    // ---------------------------------------------------------------- files

    static boolean isSegmentName(String name) { return SEGMENT_NAME.matcher(name).matches(); }

    static long sequenceOf(Path segment) {
        Matcher m = SEGMENT_NAME.matcher(segment.getFileName().toString());
        if (!m.matches()) throw new IllegalArgumentException(segment.toString());
        return Long.parseLong(m.group(1));
    }

    /** Every segment file in {@code dir}, in sequence order (gaps included: the validation reports them). */
    static List<Path> listSegments(Path dir) throws IOException {
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = new ArrayList<>(files.filter(p -> isSegmentName(p.getFileName().toString())).toList());
        }
        segments.sort((a, b) -> Long.compare(sequenceOf(a), sequenceOf(b)));
        return segments;
    }

    /** The first (up to) {@link SegmentHeader#SIZE} bytes of {@code file}. */
    static byte[] readHeader(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(SegmentHeader.SIZE);
        }
    }
}
