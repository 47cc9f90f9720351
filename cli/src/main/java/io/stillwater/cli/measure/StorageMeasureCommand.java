package io.stillwater.cli.measure;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.Session;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stillwater measure storage}: disk use and restart time of the embedded engine
 * (fsync on) as history grows, issue 15 item 4. Two steps in one run on one data
 * directory: (1) {@code --rows} rows inserted; (2) then {@code --updates} UPDATEs of every
 * row. After each step: the data directory's size while running, the clean stop (which
 * checkpoints), the start until the first answer ({@code SELECT count(*)}, correct), and
 * the directory's size after the restart. With {@code --checkpoints=off} both checkpoint
 * triggers are 0 (no automatic checkpoint, none at shutdown): the log keeps all history,
 * as before checkpoints existed. With {@code --view}, a materialized view over the table
 * (one row per value of {@code v}: recomputing it reads every row) is created first, and
 * each restart also reports the time to its first answer (from the contents the
 * checkpoint stored) and, after a write to the table, to its first fresh answer (which
 * waits for its dataflow to have recomputed it from the table: what every first answer
 * cost before views were stored). Prints figures only, no assertions.
 */
@Command(name = "storage",
        mixinStandardHelpOptions = true,
        description = {
                "Measure disk use and restart-to-first-answer after inserting --rows rows and after --updates",
                "full-table UPDATEs (embedded engine, fsync on, one data directory). Prints figures only."})
final class StorageMeasureCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--rows", defaultValue = "1000000", description = "Rows inserted in step 1 (default ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--updates", defaultValue = "10", description = "Full-table UPDATEs in step 2 (default ${DEFAULT-VALUE}).")
    int updates;

    @Option(names = "--checkpoints", defaultValue = "on", description = "on (defaults) or off (no automatic checkpoints).")
    String checkpoints;

    @Option(names = "--param", paramLabel = "NAME=VALUE",
            description = "A system parameter default, e.g. checkpoint_wal_size=32MB (repeatable; wins over --checkpoints).")
    Map<String, String> extraParams = new java.util.LinkedHashMap<>();

    @Option(names = "--restarts", defaultValue = "2",
            description = "Restarts after each step (default ${DEFAULT-VALUE}): the first one in a JVM also pays for JIT warm-up.")
    int restarts;

    @Option(names = "--view", description = "Also create a materialized view over the table and time its first answers.")
    boolean view;

    @Option(names = "--data-dir", description = "Data directory to use (default: a new temporary one, deleted after).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        boolean own = dataDir == null;
        Path dir = own ? Files.createTempDirectory("stillwater-measure-storage") : dataDir;
        Map<String, String> params = new java.util.LinkedHashMap<>(checkpoints.equals("off")
                ? Map.of("checkpoint_interval", "0", "checkpoint_wal_size", "0") : Map.of());
        params.putAll(extraParams);
        EngineConfig config = new EngineConfig(dir, true, 1, params);
        try {
            out.printf(Locale.ROOT, "measure storage: %,d rows, %d full-table UPDATEs, checkpoints %s %s, data directory %s%n",
                    rows, updates, checkpoints, params, dir);
            Engine engine = Engine.open(config);
            long t0 = System.nanoTime();
            try (Session s = engine.connect("mz_system", "materialize", Map.of())) {
                s.execute("CREATE TABLE measure_storage (id bigint, v bigint, pad text)");
                if (view) {
                    s.execute("CREATE MATERIALIZED VIEW measure_storage_mv AS SELECT v, count(*) AS n FROM measure_storage GROUP BY v");
                }
                long chunk = 100_000;
                for (long from = 1; from <= rows; from += chunk) {
                    long to = Math.min(rows, from + chunk - 1);
                    s.execute("INSERT INTO measure_storage SELECT g, 0, 'row ' || g FROM generate_series(" + from + ", " + to + ") AS g");
                }
            }
            out.printf(Locale.ROOT, "step 1: inserted %,d rows in %,d ms%n", rows, ms(t0));
            engine = report(out, "after insert", engine, config, dir);
            t0 = System.nanoTime();
            try (Session s = engine.connect("mz_system", "materialize", Map.of())) {
                for (int i = 0; i < updates; i++) s.execute("UPDATE measure_storage SET v = v + 1");
            }
            out.printf(Locale.ROOT, "step 2: %d full-table UPDATEs in %,d ms%n", updates, ms(t0));
            engine = report(out, "after updates", engine, config, dir);
            engine.close();
            out.flush();
            return 0;
        } finally {
            if (own) deleteRecursively(dir);
        }
    }

    /** Prints disk use while running, a clean stop, the restart to a correct first answer and the disk after it. */
    private Engine report(PrintWriter out, String step, Engine engine, EngineConfig config, Path dir) {
        for (int i = 1; i <= restarts; i++) engine = restart(out, step + " #" + i, engine, config, dir);
        return engine;
    }

    private Engine restart(PrintWriter out, String step, Engine engine, EngineConfig config, Path dir) {
        long running = du(dir);
        long t0 = System.nanoTime();
        engine.close();
        long stopMs = ms(t0);
        long stopped = du(dir);
        t0 = System.nanoTime();
        Engine restarted = Engine.open(config);
        long count;
        String viewFigures = "";
        try (Session s = restarted.connect("mz_system", "materialize", Map.of())) {
            if (view) viewFigures = viewAnswers(s, t0);
            ExecutionResult.Rows r = (ExecutionResult.Rows) s.execute("SELECT count(*) FROM measure_storage");
            Row row = r.rows().iterator().next();
            count = ((Number) row.get(0)).longValue();
        }
        long startMs = ms(t0);
        if (count != rows) throw new IllegalStateException("after the restart count(*) = " + count + ", not " + rows);
        out.printf(Locale.ROOT, "%-16s disk while running %,d bytes; clean stop %,d ms; disk after stop %,d bytes;"
                + " restart to first answer %,d ms (count %,d)%s%n", step + ":", running, stopMs, stopped, startMs, count,
                viewFigures);
        out.flush();
        return restarted;
    }

    /**
     * Times, from {@code openedNanos}, the view's first answer, then its first answer
     * after a write to the table (a sentinel row, removed again), which the stored
     * contents cannot give: the dataflow must have recomputed the view.
     */
    private String viewAnswers(Session s, long openedNanos) {
        long first = viewCount(s);
        long firstMs = ms(openedNanos);
        s.execute("INSERT INTO measure_storage VALUES (-1, -1, 'sentinel')");
        long fresh = viewCount(s);
        long freshMs = ms(openedNanos);
        s.execute("DELETE FROM measure_storage WHERE id = -1");
        if (first != rows || fresh != rows + 1) {
            throw new IllegalStateException("the view counted " + first + " and " + fresh + " rows, not " + rows);
        }
        return String.format(Locale.ROOT, "; view: first answer %,d ms, first answer after a write %,d ms", firstMs, freshMs);
    }

    private static long viewCount(Session s) {
        ExecutionResult.Rows r = (ExecutionResult.Rows) s.execute("SELECT sum(n) FROM measure_storage_mv");
        Object v = r.rows().iterator().next().get(0);
        return v == null ? 0 : ((Number) v).longValue();
    }

    private static long ms(long startNanos) { return (System.nanoTime() - startNanos) / 1_000_000; }

    private static long du(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // deleted meanwhile
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
