package io.stillwater.engine.storage;

import static io.stillwater.engine.storage.WalTesting.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Builds real multi-segment logs and damages copies of them, for the damage tests. */
final class DamagedLogs {
    private DamagedLogs() {}

    /** A log on disk: its records in order and its segment files, oldest first. */
    record BuiltLog(Path dir, List<LogRecord> records, List<Path> segments) {
        Path newest() { return segments.get(segments.size() - 1); }

        Path segment(int index) { return segments.get(index); }
    }

    /**
     * Writes records with {@code segmentBytes} segments until there are at least {@code
     * minSegments} and the newest one holds records past {@code newestAtLeast} bytes, then closes it.
     */
    static BuiltLog build(Path dir, long segmentBytes, int minSegments, long newestAtLeast) throws IOException {
        List<LogRecord> records = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.open(dir, false, segmentBytes)) {
            for (int i = 0; ; i++) {
                List<Path> segments = SegmentValidator.listSegments(dir);
                Path newest = segments.get(segments.size() - 1);
                if (segments.size() >= minSegments && Files.size(newest) > Math.max(newestAtLeast, WriteAheadLog.SEGMENT_HEADER)) break;
                LogRecord r = write(1, i);
                wal.append(r);
                records.add(r);
            }
        }
        return new BuiltLog(dir, records, SegmentValidator.listSegments(dir));
    }

    /** {@code log} copied (segments and control file) to {@code to}; the copy's paths. */
    static BuiltLog copy(BuiltLog log, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(log.dir())) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("wal.lock")).toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return new BuiltLog(to, log.records(), log.segments().stream().map(p -> to.resolve(p.getFileName())).toList());
    }

    /** Offsets where the frames of {@code segment} start, in order. */
    static List<Long> frameStarts(Path segment) throws IOException {
        List<Long> starts = new ArrayList<>();
        try (SegmentScanner s = new SegmentScanner(segment, WriteAheadLog.SEGMENT_HEADER, Files.size(segment))) {
            for (SegmentScanner.Frame f = s.next(); f != null; f = s.next()) starts.add(f.offset());
        }
        return starts;
    }

    /** The start of the frame holding byte {@code offset} (an offset past the header). */
    static long frameHolding(List<Long> starts, long offset) {
        long holder = -1;
        for (long s : starts) if (s <= offset) holder = s;
        return holder;
    }

    /** Records held by the segments before {@code index}. */
    static int recordsBefore(BuiltLog log, int index) throws IOException {
        int n = 0;
        for (int i = 0; i < index; i++) n += frameStarts(log.segment(i)).size();
        return n;
    }

    static void flip(Path file, long offset, int mask) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, offset);
            b.put(0, (byte) (b.get(0) ^ mask));
            ch.write(b.flip(), offset);
        }
    }

    static void zero(Path file, long from, int length) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(length), from);
        }
    }

    static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    /** Files (recursively) under {@code dir} whose name matches. */
    static List<Path> find(Path dir, Predicate<String> name) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> name.test(p.getFileName().toString())).sorted().toList();
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
