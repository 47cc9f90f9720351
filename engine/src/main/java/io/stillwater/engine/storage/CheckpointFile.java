package io.stillwater.engine.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The on-disk format of a checkpoint: the consolidated state of the database at one
 * timestamp T, which replaces every log segment before segment N.
 *
 * <p>File {@code checkpoint-<N as 20 digits>.ckpt}, N being the first log segment NOT
 * covered (the one the checkpoint started). It is written as {@code <name>.tmp}, fsynced,
 * renamed and the directory fsynced, so a file with the final name is always complete.
 * Layout: a 16-byte header ({@code "STILLCKP"}, int format version, int reserved), then
 * frames exactly as in a log segment ({@code [int length][int CRC32C(payload)][payload]},
 * big-endian), each payload starting with a section byte:
 * <ul>
 *   <li>{@link #RECORD}: a log record ({@link LogRecordCodec}): the catalog as the
 *       records that create it, then each table's contents at T as {@code TableWrite}s at
 *       T (in chunks, so no frame grows with the table);</li>
 *   <li>{@link #VIEW_CONTENTS} (format 2): a materialized view's contents at T, as a
 *       {@code TableWrite} at T whose changes carry the view's id as their table id, in
 *       chunks like a table's. Only views whose dataflow reached T within a short wait
 *       are stored (the checkpoint never waits long for compute); restart serves reads of
 *       a stored view from these rows until its dataflow has hydrated;</li>
 *   <li>{@link #END}: the last frame: T, N and the number of frames before it. A file
 *       without it, with bytes after it, or with a count that does not match is damaged.</li>
 * </ul>
 * Restart reads the newest valid checkpoint, then the log from segment N.
 */
public final class CheckpointFile {
    private CheckpointFile() {}

    static final byte[] MAGIC = "STILLCKP".getBytes(StandardCharsets.US_ASCII);
    /** 2 adds {@link #VIEW_CONTENTS}; version 1 files (without it) are still read. */
    static final int FORMAT_VERSION = 2;
    static final int OLDEST_READABLE_VERSION = 1;
    static final int HEADER = 16;
    static final int RECORD = 1;
    static final int VIEW_CONTENTS = 2;
    static final int END = 9;
    private static final Pattern NAME = Pattern.compile("checkpoint-(\\d{20})\\.ckpt");
    static final String TEMP_SUFFIX = ".tmp";

    /** The checkpoint file that replaces the segments before {@code firstSegment}. */
    public static Path path(Path dir, long firstSegment) {
        return dir.resolve(String.format("checkpoint-%020d.ckpt", firstSegment));
    }

    /** The first log segment a checkpoint file does not cover (its N), or -1 if {@code file} is not one. */
    public static long firstSegmentOf(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    /** Every checkpoint file in {@code dir}, newest (highest N) first. */
    public static List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        List<Path> out;
        try (Stream<Path> files = Files.list(dir)) {
            out = new ArrayList<>(files.filter(p -> firstSegmentOf(p) >= 0).toList());
        }
        out.sort((a, b) -> Long.compare(firstSegmentOf(b), firstSegmentOf(a)));
        return out;
    }

    /** Leftover temporary files of checkpoints a crash interrupted before their rename. */
    public static List<Path> leftoverTemps(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".ckpt" + TEMP_SUFFIX)).toList();
        }
    }
}
