package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write load of (b) and (c): {@code orders} rows written in multi-row INSERTs of
 * {@code batchRows} rows from {@code connections} connections, into a table that feeds an
 * indexed join + group-by view:
 *
 * <pre>
 * region_totals = SELECT c.region, count(*) AS n, sum(o.amount) AS total
 *                 FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region
 * CREATE INDEX region_totals_idx ON region_totals (region)
 * </pre>
 *
 * Customer {@link #PROBE_CUSTOMER} (region {@link #PROBE_REGION}) is reserved for freshness
 * probes; the load never writes it.
 */
final class JoinGroupByLoad {
    static final int CUSTOMERS = 1000;
    static final int REGIONS = 10;
    static final int PROBE_CUSTOMER = -1;
    static final int PROBE_REGION = -1;
    static final String INDEX = "region_totals_idx";

    private final MeasuredServer server;
    private final int connections;
    private final int batchRows;
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicLong acknowledgedRows = new AtomicLong();

    JoinGroupByLoad(MeasuredServer server, int connections, int batchRows) {
        this.server = server;
        this.connections = connections;
        this.batchRows = batchRows;
    }

    void createSchema() throws SQLException {
        try (Connection c = server.connect()) {
            Sql.exec(c, "CREATE TABLE customers (id int, region int)",
                    "CREATE TABLE orders (id bigint, customer int, amount int)",
                    "INSERT INTO customers SELECT g, g % " + REGIONS + " FROM generate_series(0, " + (CUSTOMERS - 1) + ") AS g",
                    "INSERT INTO customers VALUES (" + PROBE_CUSTOMER + ", " + PROBE_REGION + ")",
                    "CREATE VIEW region_totals AS SELECT c.region, count(*) AS n, sum(o.amount) AS total "
                            + "FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region",
                    "CREATE INDEX " + INDEX + " ON region_totals (region)");
            Sql.scalarLong(c, "SELECT count(*) FROM region_totals"); // waits for hydration
        }
    }

    /** Rows acknowledged so far, over all runs. */
    long acknowledgedRows() { return acknowledgedRows.get(); }

    /** Rows of the load (not probes) the view counts, read strict serializable (waits for every acknowledged write). */
    long rowsInView(Connection c) throws SQLException {
        return Sql.scalarLong(c, "SELECT coalesce(sum(n), 0) FROM region_totals WHERE region <> " + PROBE_REGION);
    }

    /** What one run of the load did. */
    record Run(long rows, long batches, double seconds, LatencySummary batchLatency) {
        double rowsPerSecond() { return rows / seconds; }
    }

    /**
     * Writes for {@code warmupSeconds} (not counted), then for {@code seconds}, counting the
     * rows whose INSERT was acknowledged inside the measured window. {@code rowsPerSecond}
     * &le; 0 means closed loop (each connection writes back to back); otherwise an open loop
     * paced by schedule, each connection sending its share of batches at fixed intervals.
     */
    Run run(double warmupSeconds, double seconds, double rowsPerSecond) throws Exception {
        long start = System.nanoTime();
        long measureFrom = start + (long) (warmupSeconds * 1e9);
        long measureTo = measureFrom + (long) (seconds * 1e9);
        long intervalNanos = rowsPerSecond <= 0 ? 0 : (long) (1e9 * batchRows * connections / rowsPerSecond);
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        List<Future<long[]>> futures = new ArrayList<>();
        var latency = new org.HdrHistogram.ConcurrentHistogram(1, 600_000_000L, 3); // shared by the writer threads
        try {
            for (int w = 0; w < connections; w++) {
                long offset = intervalNanos == 0 ? 0 : intervalNanos * w / connections;
                int seed = w;
                futures.add(pool.submit(() -> write(seed, start + offset, intervalNanos, measureFrom, measureTo, latency)));
            }
            long rows = 0;
            long batches = 0;
            for (Future<long[]> f : futures) {
                long[] r = f.get();
                rows += r[0];
                batches += r[1];
            }
            return new Run(rows, batches, seconds, LatencySummary.of(latency));
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** One connection's loop; returns {rows, batches} acknowledged inside the window. */
    private long[] write(int seed, long firstAt, long intervalNanos, long measureFrom, long measureTo,
                         org.HdrHistogram.Histogram latency) throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO orders VALUES ");
        for (int r = 0; r < batchRows; r++) sql.append(r == 0 ? "" : ", ").append("(?, ?, ?)");
        SplittableRandom random = new SplittableRandom(seed);
        long rows = 0;
        long batches = 0;
        try (Connection c = server.connect(); PreparedStatement insert = c.prepareStatement(sql.toString())) {
            long next = firstAt;
            while (true) {
                if (intervalNanos > 0) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    next += intervalNanos;
                }
                long begin = intervalNanos > 0 ? next - intervalNanos : System.nanoTime();
                if (System.nanoTime() >= measureTo) break;
                long id = nextId.getAndAdd(batchRows);
                for (int r = 0; r < batchRows; r++) {
                    insert.setLong(3 * r + 1, id + r);
                    insert.setInt(3 * r + 2, random.nextInt(CUSTOMERS));
                    insert.setInt(3 * r + 3, 1 + random.nextInt(100));
                }
                insert.executeUpdate();
                long done = System.nanoTime();
                acknowledgedRows.addAndGet(batchRows);
                if (done >= measureFrom && done < measureTo) {
                    rows += batchRows;
                    batches++;
                    // Open loop: latency from the scheduled start, so queueing counts.
                    latency.recordValue(Math.max(1, (done - Math.min(begin, done)) / 1000));
                }
            }
        }
        return new long[] {rows, batches};
    }
}
