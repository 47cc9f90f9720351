package io.stillwater.slt;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How to run: the scripts (files or directories, searched for {@code *.slt} and {@code *.test}),
 * the target ({@code url} empty means the embedded engine), the engine name for
 * skipif/onlyif, and reporting switches. {@code shardIndex} is 1-based: shard i of n runs every
 * n-th file of the sorted file list starting with the i-th. {@code junit} null: no JUnit XML.
 */
public record SltOptions(
        List<Path> paths,
        String url,
        String engineName,
        boolean failFast,
        boolean rewriteResults,
        boolean verbose,
        int shardIndex,
        int shardCount,
        Path junit,
        boolean unsupportedIsFailure,
        int maxFailuresShown,
        Duration statementTimeout) {
    public SltOptions {
        paths = List.copyOf(paths);
        url = url == null ? "" : url.strip();
        engineName = engineName == null || engineName.isBlank() ? "postgresql" : engineName.strip();
        if (shardCount < 1 || shardIndex < 1 || shardIndex > shardCount) {
            throw new IllegalArgumentException("shard must be i/n with 1 <= i <= n, got " + shardIndex + "/" + shardCount);
        }
        if (maxFailuresShown < 0) {
            throw new IllegalArgumentException("maxFailuresShown must be >= 0");
        }
        statementTimeout = statementTimeout == null ? Duration.ZERO : statementTimeout;
    }

    /** Defaults: embedded target, engine {@code postgresql}, one shard, 10 failures shown, 120 s timeout. */
    public static SltOptions of(List<Path> paths) {
        return new SltOptions(paths, "", "postgresql", false, false, false, 1, 1, null, false, 10, Duration.ofSeconds(120));
    }

    public SltOptions withUrl(String u) {
        return new SltOptions(paths, u, engineName, failFast, rewriteResults, verbose, shardIndex, shardCount, junit,
                unsupportedIsFailure, maxFailuresShown, statementTimeout);
    }

    public SltOptions withJunit(Path j) {
        return new SltOptions(paths, url, engineName, failFast, rewriteResults, verbose, shardIndex, shardCount, j,
                unsupportedIsFailure, maxFailuresShown, statementTimeout);
    }

    public SltOptions withRewriteResults(boolean r) {
        return new SltOptions(paths, url, engineName, failFast, r, verbose, shardIndex, shardCount, junit,
                unsupportedIsFailure, maxFailuresShown, statementTimeout);
    }

    public SltOptions withFailFast(boolean f) {
        return new SltOptions(paths, url, engineName, f, rewriteResults, verbose, shardIndex, shardCount, junit,
                unsupportedIsFailure, maxFailuresShown, statementTimeout);
    }

    public SltOptions withUnsupportedIsFailure(boolean u) {
        return new SltOptions(paths, url, engineName, failFast, rewriteResults, verbose, shardIndex, shardCount, junit,
                u, maxFailuresShown, statementTimeout);
    }

    public SltOptions withShard(int index, int count) {
        return new SltOptions(paths, url, engineName, failFast, rewriteResults, verbose, index, count, junit,
                unsupportedIsFailure, maxFailuresShown, statementTimeout);
    }

    public SltOptions withEngineName(String e) {
        return new SltOptions(paths, url, e, failFast, rewriteResults, verbose, shardIndex, shardCount, junit,
                unsupportedIsFailure, maxFailuresShown, statementTimeout);
    }

    public boolean embedded() {
        return url.isEmpty();
    }
}
