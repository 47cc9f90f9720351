package io.stillwater.slt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates the shared SQLite corpus: {@code ../shared/corpus/sqlite} relative to the repository
 * root, which is the nearest directory above the module whose pom.xml lists modules. The
 * corpus is read in place, never copied into the project. {@code $STILLWATER_SHARED} names the
 * shared directory when the checkout does not sit beside it.
 */
public final class Corpus {
    private Corpus() {}

    public static Path sqlite() {
        Path root = repoRoot();
        Path corpus = root.resolve("../shared/corpus/sqlite").normalize();
        if (Files.isRegularFile(corpus.resolve("select1.test"))) {
            return corpus;
        }
        // A checkout elsewhere (e.g. a git worktree) can point at shared/ explicitly.
        String shared = System.getenv("STILLWATER_SHARED");
        if (shared != null && !shared.isBlank()) {
            Path alt = Paths.get(shared).resolve("corpus/sqlite").normalize();
            if (Files.isRegularFile(alt.resolve("select1.test"))) {
                return alt;
            }
        }
        throw new IllegalStateException("the SQLite corpus is missing: expected " + corpus
                + "/select1.test (CI lays shared/ beside the checkout; or set STILLWATER_SHARED to the shared/ directory)");
    }

    public static Path repoRoot() {
        Path dir = Paths.get("").toAbsolutePath();
        while (dir != null) {
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<modules>")) {
                    return dir;
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + pom, e);
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("no multi-module pom.xml above " + Paths.get("").toAbsolutePath());
    }
}
