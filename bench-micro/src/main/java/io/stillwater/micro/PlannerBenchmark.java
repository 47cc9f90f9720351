package io.stillwater.micro;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.engine.session.Session;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The planner: {@link Session#prepare} of one statement on a real engine (a temporary data
 * directory, no fsync), which is what a client's Parse message (and every simple-protocol query)
 * costs before execution: parsing, validation, planning and describing. Three shapes over
 * {@code orders(id, customer, amount)} and {@code customers(id, name)}, each with a default index:
 * a point lookup on the index key, a two-table join, and a grouped aggregate. Time per prepare.
 * If the engine caches plans by statement text, this measures the cached path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PlannerBenchmark {
    /** The statements, by name. */
    public enum Shape {
        POINT_LOOKUP("SELECT amount FROM orders WHERE id = $1"),
        JOIN("SELECT c.name, o.amount FROM orders o JOIN customers c ON o.customer = c.id WHERE o.amount > 100"),
        AGGREGATE("SELECT customer, count(*), sum(amount) FROM orders GROUP BY customer");

        final String sql;

        Shape(String sql) {
            this.sql = sql;
        }
    }

    @Param({"POINT_LOOKUP", "JOIN", "AGGREGATE"})
    public Shape shape;

    private Path dataDir;
    private Engine engine;
    private Session session;

    @Setup(Level.Trial)
    public void open() throws IOException {
        dataDir = Files.createTempDirectory("stillwater-micro-planner");
        engine = Engine.open(new EngineConfig(dataDir, false, 1));
        session = engine.connect("materialize", "materialize", Map.of());
        for (String ddl : List.of(
                "CREATE TABLE orders (id int, customer int, amount int)",
                "CREATE DEFAULT INDEX ON orders",
                "CREATE TABLE customers (id int, name text)",
                "CREATE DEFAULT INDEX ON customers",
                "INSERT INTO customers SELECT g, 'c' || g FROM generate_series(1, 100) g",
                "INSERT INTO orders SELECT g, g % 100 + 1, g % 1000 FROM generate_series(1, 1000) g")) {
            session.execute(ddl);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        session.close();
        engine.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Benchmark
    public PreparedStatement prepare() {
        return session.prepare(shape.sql, List.of());
    }
}
