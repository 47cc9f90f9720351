package io.stillwater.engine.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * The control file {@code wal.control}: names the newest segment of the log, so that a
 * deleted newest segment is noticed (the segment files alone cannot tell a log that
 * ends at segment 4 from one whose segment 5 was deleted).
 *
 * <p>Format (24 bytes, big-endian): {@code "STILLCTL"}, version (int 1), newest segment
 * sequence (long), CRC32C of the preceding 20 bytes (int).
 *
 * <p>Invariant: the control file names segment N only after segment N exists with a
 * synced header, and no record is written to N before the control file names it. So
 * after any crash the newest segment file is N (the one named) or N + 1 (created by a
 * rotation that crashed before the control file was replaced; it holds no record).
 * Written to {@code wal.control.tmp}, fsynced, renamed over {@code wal.control}, and the
 * directory fsynced: a crash leaves the old or the new file, never a mix.
 */
final class WalControl {
    static final String FILE = "wal.control";
    private static final String TEMP = "wal.control.tmp";
    private static final byte[] MAGIC = "STILLCTL".getBytes(StandardCharsets.US_ASCII);
    private static final int SIZE = 24;

    private WalControl() {}

    /** The newest segment the control file in {@code dir} names; empty when there is no control file. */
    static OptionalLong read(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.exists(file)) return OptionalLong.empty();
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length != SIZE || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new LogDamageException(new LogDamage(file, 0, "the control file is not a Stillwater write-ahead log control file", null));
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int version = b.getInt(MAGIC.length);
        long newest = b.getLong(MAGIC.length + 4);
        int crc = b.getInt(SIZE - 4);
        if (crc != crc32c(bytes)) {
            throw new LogDamageException(new LogDamage(file, 0, "the control file fails its checksum", null));
        }
        if (version != 1) {
            throw new LogDamageException(new LogDamage(file, 0, "the control file has version " + version
                    + "; this version of Stillwater reads version 1", null));
        }
        return OptionalLong.of(newest);
    }

    /** Replaces the control file in {@code dir} with one naming {@code newestSegment}; durable when {@code fsync}. */
    static void write(Path dir, long newestSegment, boolean fsync) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(SIZE).put(MAGIC).putInt(1).putLong(newestSegment);
        b.putInt(crc32c(b.array()));
        b.flip();
        Path temp = dir.resolve(TEMP);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            while (b.hasRemaining()) ch.write(b);
            if (fsync) ch.force(true);
        }
        Files.move(temp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (fsync) WriteAheadLog.syncDirectory(dir);
    }

    /** Removes the control file (the log was cut back to nothing). */
    static void delete(Path dir, boolean fsync) throws IOException {
        if (Files.deleteIfExists(dir.resolve(FILE)) && fsync) WriteAheadLog.syncDirectory(dir);
    }

    private static int crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, SIZE - 4);
        return (int) crc.getValue();
    }
}
