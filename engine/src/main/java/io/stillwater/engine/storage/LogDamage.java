package io.stillwater.engine.storage;

import java.nio.file.Path;

/**
 * Damage that stops the log from opening: where it is and what is wrong.
 *
 * @param file    the file (segment or control file) the damage is in, or the missing segment's path
 * @param offset  byte offset in {@code file} where the damage starts (0 for a header or a missing file)
 * @param problem what is wrong, in words
 * @param cutAt   the {@code --recover-truncate-at} value ({@code <segment file name>:<offset>}) that
 *                discards the log from the damage on and lets the server start; null when no cut
 *                helps (segments before the damage are missing)
 */
public record LogDamage(Path file, long offset, String problem, String cutAt) {

    /** One line naming the file, the offset and the problem. */
    public String describe() {
        return "write-ahead log damaged: \"" + file + "\" at byte offset " + offset + ": " + problem;
    }

    /** What the operator can do. */
    public String wayOut() {
        if (cutAt == null) {
            return "Restore the missing files from a backup of the data directory; the log cannot be replayed without them.";
        }
        return "Restore the data directory from a backup, or start once with --recover-truncate-at=" + cutAt
                + " to discard the log from there on (the cut bytes are moved to a recovered-<time>/ directory "
                + "inside the data directory, and records after the cut, which may include acknowledged writes, are lost).";
    }
}
