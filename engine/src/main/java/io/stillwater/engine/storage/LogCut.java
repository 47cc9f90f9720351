package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The way out of a damaged log: cuts it on purpose at a frame boundary the operator names
 * ({@code stillwater serve --recover-truncate-at=<segment file>:<offset>}). Nothing is
 * deleted: the bytes of the segment from the offset on, and every later segment, are
 * moved into a new directory {@code recovered-<UTC time>/} inside the data directory
 * with a {@code README.txt} saying what was cut and why; then {@code wal.control} is
 * rewritten to name the newest remaining segment. The next {@link WriteAheadLog#open}
 * validates what is left as usual. A log that is not damaged is never cut.
 *
 * <p>Crash safety: the cut bytes are copied and synced before the segment is truncated,
 * so an interrupted cut loses nothing; running the same cut again completes it.
 */
public final class LogCut {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** Where to cut: a segment file name (as error messages print it) and a byte offset in it. */
    public record CutPoint(String segment, long offset) {
        /** Parses {@code <segment file name>:<offset>}, e.g. {@code wal-00000000000000000002.log:4096}. */
        public static CutPoint parse(String text) {
            int colon = text.lastIndexOf(':');
            if (colon < 0) throw new IllegalArgumentException("expected <segment file>:<byte offset>, got \"" + text + "\"");
            String name = Path.of(text.substring(0, colon)).getFileName().toString();
            if (!SegmentValidator.isSegmentName(name)) {
                throw new IllegalArgumentException("\"" + name + "\" is not a write-ahead log segment name (wal-<20 digits>.log)");
            }
            long offset;
            try {
                offset = Long.parseLong(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("byte offset \"" + text.substring(colon + 1) + "\" is not a number");
            }
            if (offset < 0) throw new IllegalArgumentException("byte offset must not be negative, got " + offset);
            return new CutPoint(name, offset);
        }

        @Override
        public String toString() { return segment + ":" + offset; }
    }

    /**
     * What a cut did.
     *
     * @param at                     where the log was cut
     * @param bytesMoved             bytes moved out of the log (tail of the cut segment plus later segments)
     * @param segmentsMoved          later segment files moved out whole (plus the cut one when cut at offset 0)
     * @param intactRecordsDiscarded intact (checksum-valid) records among the moved bytes: records lost
     *                               to the log, which may include acknowledged writes
     * @param recoveredDir           where the moved bytes are
     */
    public record CutReport(CutPoint at, long bytesMoved, int segmentsMoved, long intactRecordsDiscarded, Path recoveredDir) {
        public String describe() {
            return "write-ahead log cut at " + at + " (--recover-truncate-at): moved " + bytesMoved + " bytes ("
                    + segmentsMoved + " whole segment(s)) to " + recoveredDir + "; " + intactRecordsDiscarded
                    + " intact record(s) among them are discarded from the database";
        }
    }

    private LogCut() {}

    /**
     * Cuts the log in {@code dir} at {@code at}, holding the directory's lock meanwhile.
     *
     * @throws SqlException {@code 22023} when the segment does not exist or the offset is not a frame
     *                      boundary before any damage; {@code 58030} on I/O errors or when the directory is in use
     */
    public static CutReport cut(Path dir, CutPoint at, boolean fsync) {
        try (FileChannel lockChannel = FileChannel.open(dir.resolve(WriteAheadLog.LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            FileLock lock = WriteAheadLog.tryLock(lockChannel);
            if (lock == null) {
                throw new SqlException(SqlState.IO_ERROR, "data directory \"" + dir + "\" is in use; stop the server first");
            }
            try {
                return cutLocked(dir, at, fsync, Instant.now());
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw new SqlException(SqlState.IO_ERROR, "could not cut the write-ahead log in \"" + dir + "\": " + e, null, null, e);
        }
    }

    private static CutReport cutLocked(Path dir, CutPoint at, boolean fsync, Instant now) throws IOException {
        // First whether anything is damaged at all: a flag left on a command line after a
        // cut (and after a checkpoint deleted the segment it names) cuts nothing.
        refuseIfUndamaged(dir, at);
        List<Path> segments = SegmentValidator.listSegments(dir);
        Path target = dir.resolve(at.segment());
        int index = segments.indexOf(target);
        if (index < 0) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "--recover-truncate-at: there is no segment \""
                    + target + "\"", null, "Use the value the startup error names.");
        }
        long size = Files.size(target);
        checkFrameBoundary(target, at.offset(), size);
        List<Path> later = new ArrayList<>(segments.subList(index + 1, segments.size()));

        long intact = SegmentScanner.countIntactFrames(SegmentScanner.map(target, at.offset()), 0);
        long moved = size - at.offset();
        for (Path p : later) {
            intact += SegmentScanner.countIntactFrames(SegmentScanner.map(p, 0), 0);
            moved += Files.size(p);
        }
        Path recovered = freshDirectory(dir, "recovered-" + STAMP.format(now));
        StringBuilder readme = new StringBuilder()
                .append("Stillwater cut its write-ahead log here on ").append(now).append(" (--recover-truncate-at=")
                .append(at).append(").\n")
                .append("Moved out of the log: ").append(moved).append(" bytes holding ").append(intact)
                .append(" intact record(s), which are no longer in the database.\n");
        if (at.offset() > 0) {
            Path tail = recovered.resolve(at.segment() + ".from-" + at.offset());
            copyTail(target, at.offset(), tail, fsync);
            readme.append(tail.getFileName()).append(": bytes ").append(at.offset()).append(" to ").append(size)
                    .append(" of ").append(at.segment()).append("\n");
        }
        readme.append("Whole segments: ");
        List<Path> whole = new ArrayList<>(later);
        if (at.offset() == 0) whole.add(0, target);
        for (Path p : whole) readme.append(p.getFileName()).append(' ');
        if (whole.isEmpty()) readme.append("(none)");
        readme.append("\nStillwater never reads this directory: keep it to inspect the damage, or delete it.\n");
        Files.writeString(recovered.resolve("README.txt"), readme, StandardCharsets.UTF_8);
        if (fsync) syncFile(recovered.resolve("README.txt"));
        // Later segments go first, newest first: an interrupted cut leaves a log that ends
        // earlier but still holds the cut point, so running the same cut again completes it.
        for (int i = whole.size() - 1; i >= 0; i--) {
            Path p = whole.get(i);
            Files.move(p, recovered.resolve(p.getFileName()));
        }
        if (fsync) {
            WriteAheadLog.syncDirectory(recovered);
            WriteAheadLog.syncDirectory(dir);
        }
        if (at.offset() > 0) {
            try (FileChannel ch = FileChannel.open(target, StandardOpenOption.WRITE)) {
                ch.truncate(at.offset());
                if (fsync) ch.force(true);
            }
        }
        List<Path> remaining = SegmentValidator.listSegments(dir);
        if (remaining.isEmpty()) WalControl.delete(dir, fsync);
        else WalControl.write(dir, SegmentValidator.sequenceOf(remaining.get(remaining.size() - 1)), fsync);
        return new CutReport(at, moved, whole.size(), intact, recovered);
    }

    /**
     * Refuses to cut a log that opens as it is: a flag left on a command line (a supervisor's
     * unit file) must not discard the writes made since the last cut. The oldest-segment
     * requirement is not checked here (no cut helps with it).
     */
    private static void refuseIfUndamaged(Path dir, CutPoint at) throws IOException {
        try {
            SegmentValidator.validate(dir, Long.MAX_VALUE);
        } catch (LogDamageException damaged) {
            return;
        }
        throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "--recover-truncate-at=" + at
                + ": the write-ahead log is not damaged, so nothing is cut", null,
                "Start without --recover-truncate-at; it is only for a log that startup refuses.");
    }

    /** Refuses an offset that is not where a frame starts (or the segment's end) before the first damage. */
    private static void checkFrameBoundary(Path segment, long offset, long size) throws IOException {
        if (offset == 0 || offset == SegmentHeader.SIZE) return; // the whole segment, or all its records
        long before = SegmentHeader.SIZE;
        try (SegmentScanner scanner = new SegmentScanner(segment, SegmentHeader.SIZE, size)) {
            for (SegmentScanner.Frame f = scanner.next(); f != null; f = scanner.next()) {
                if (scanner.goodEnd() == offset) return;
                if (scanner.goodEnd() > offset) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "--recover-truncate-at: byte offset " + offset
                            + " of \"" + segment + "\" is inside a record; records start at " + before + " and "
                            + scanner.goodEnd(), null, "Use the value the startup error names.");
                }
                before = scanner.goodEnd();
            }
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "--recover-truncate-at: byte offset " + offset + " of \""
                    + segment + "\" lies after the last intact record, which ends at " + scanner.goodEnd(), null,
                    "Use the value the startup error names.");
        }
    }

    private static Path freshDirectory(Path dir, String name) throws IOException {
        Path p = dir.resolve(name);
        for (int n = 2; Files.exists(p); n++) p = dir.resolve(name + "-" + n);
        return Files.createDirectory(p);
    }

    private static void copyTail(Path file, long from, Path to, boolean fsync) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             OutputStream out = Files.newOutputStream(to)) {
            in.position(from);
            Channels.newInputStream(in).transferTo(out);
        }
        if (fsync) syncFile(to);
    }

    private static void syncFile(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }
}
