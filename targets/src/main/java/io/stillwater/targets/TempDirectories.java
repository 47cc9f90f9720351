package io.stillwater.targets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The data directories of launched servers are temporary; this deletes one when its server is gone. */
public final class TempDirectories {
    private TempDirectories() {
    }

    /** Deletes {@code dir} and everything below it; best effort (leftovers in a temp directory are harmless). */
    public static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory; leftovers are harmless
        }
    }
}
