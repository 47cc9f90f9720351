package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The ingest load of {@code stillwater measure ingest}: inserts into a table whose indexed
 * view makes <em>maintenance</em>, not the write, the bottleneck, so the question is what
 * happens when writes arrive faster than maintenance can follow.
 *
 * <pre>
 * ingest_big   (x int)            BIG rows 1..BIG, never written during the load
 * ingest       (k int, v int, pad text)  the written table: k in 1..16, v in 1..batch, pad of PAD bytes;
 *                                        one probe row (0, 1, '')
 * ingest_heavy = SELECT i.k, i.v, b.x FROM ingest i, ingest_big b WHERE b.x + i.v = BIG + 1
 * CREATE INDEX ingest_heavy_k ON ingest_heavy (k)
 * </pre>
 *
 * The condition is not an equality of one column per side, so the join is a cross join
 * with a filter: every inserted row is paired with all of {@code ingest_big} and exactly
 * one pair survives. Each row costs maintenance about BIG pairs (a constant per row, and
 * the view grows by one row per row), while its write costs one row. Once everything is
 * maintained the view has exactly one row per row of {@code ingest}: the check that
 * nothing acknowledged was lost, in the table or in the view. (A count per group would
 * be cheaper to keep but costs more as its group grows.)
 *
 * <p>Threads: the writer threads and the sampler each own their connection; shared counters
 * are atomics; samples go to a concurrent list.
 */
final class IngestLoad {
    static final String INDEX = "ingest_heavy_k";
    private static final int GROUPS = 16;

    /** One sample of the engine's state, taken through SQL. */
    record Sample(double seconds, long rssBytes, long heapAfterGcBytes, long heapUsedBytes, double lagMillis,
                  long backlogMillis, long queuedWrites, long waitingWrites, long offeredRows, long acknowledgedRows) {}

    /**
     * What one open-loop run did.
     *
     * @param offeredRows      rows whose INSERT was due during the run (rate x seconds)
     * @param acknowledgedRows rows whose INSERT was acknowledged (the run waits for INSERTs in flight at its end)
     * @param failedRows       rows whose INSERT failed (each failure counted under its message)
     * @param notIssuedRows    rows due during the run whose INSERT no writer was free to issue before the end
     * @param rowsPresent      rows in {@code ingest} afterwards, the probe row excluded
     * @param viewConsistent   whether the view, once caught up, counts exactly the rows present
     * @param catchUpSeconds   from the end of the run until a strict serializable read of the view returned
     * @param latencyMicros    INSERT latency from its scheduled time (queueing included)
     */
    record Run(long offeredRows, long acknowledgedRows, long failedRows, long notIssuedRows, long rowsPresent,
               boolean viewConsistent, double catchUpSeconds, LatencySummary latencyMicros, List<Sample> samples,
               List<String> errors) {}

    private final MeasuredServer server;
    private final int bigRows;
    private final int connections;
    private final int batchRows;
    private final String pad;

    /** @param padBytes size of each written row's text payload: what a queued write holds in memory */
    IngestLoad(MeasuredServer server, int bigRows, int connections, int batchRows, int padBytes) {
        this.server = server;
        this.bigRows = bigRows;
        this.connections = connections;
        this.batchRows = batchRows;
        this.pad = "x".repeat(padBytes);
    }

    void createSchema() throws SQLException {
        try (Connection c = server.connect()) {
            Sql.exec(c, "CREATE TABLE ingest_big (x int)",
                    "INSERT INTO ingest_big SELECT g FROM generate_series(1, " + bigRows + ") AS g",
                    "CREATE TABLE ingest (k int, v int, pad text)",
                    "INSERT INTO ingest VALUES (0, 1, '')",
                    "CREATE VIEW ingest_heavy AS SELECT i.k, i.v, b.x FROM ingest i, ingest_big b "
                            + "WHERE b.x + i.v = " + (bigRows + 1),
                    "CREATE INDEX " + INDEX + " ON ingest_heavy (k)");
            Sql.scalarLong(c, "SELECT count(*) FROM ingest_heavy WHERE k = 0"); // waits for the hydration
        }
    }

    /**
     * What maintenance sustains, in rows per second: a closed loop for {@code warmupSeconds}
     * (discarded: the JIT compiles the engine meanwhile), a read that waits until
     * maintenance caught up, then a closed loop for {@code seconds} and again that read.
     * The measured rows over the loop plus its catch-up is the rate, as long as the
     * writers outpace maintenance (run it with backpressure off, so they can).
     */
    double calibrate(double warmupSeconds, double seconds) throws Exception {
        if (warmupSeconds > 0) closedLoop(warmupSeconds);
        long start = System.nanoTime();
        long rows = closedLoop(seconds);
        return rows / ((System.nanoTime() - start) / 1e9);
    }

    /** Every connection inserts back to back for {@code seconds}; returns the rows acknowledged once maintenance caught up. */
    private long closedLoop(double seconds) throws Exception {
        AtomicLong acked = new AtomicLong();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        List<Thread> writers = new ArrayList<>();
        List<Exception> failures = new CopyOnWriteArrayList<>();
        for (int w = 0; w < connections; w++) {
            int writer = w;
            writers.add(Thread.ofPlatform().name("ingest-calibrate-" + w).start(() -> {
                try (Connection c = server.connect(); PreparedStatement ps = c.prepareStatement(INSERT)) {
                    for (long i = writer; System.nanoTime() < end; i += connections) {
                        insert(ps, i);
                        acked.addAndGet(batchRows);
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : writers) t.join();
        if (!failures.isEmpty()) throw failures.get(0);
        try (Connection c = server.connect()) {
            Sql.scalarLong(c, "SELECT count(*) FROM ingest_heavy"); // strict serializable: waits for maintenance
        }
        return acked.get();
    }

    private static final String INSERT = "INSERT INTO ingest SELECT ?, g, ? FROM generate_series(1, ?) AS g";

    private void insert(PreparedStatement ps, long event) throws SQLException {
        ps.setInt(1, (int) (1 + event % GROUPS));
        ps.setString(2, pad);
        ps.setInt(3, batchRows);
        ps.executeUpdate();
    }

    /**
     * Open loop: INSERTs of {@code batchRows} rows scheduled at {@code rowsPerSecond} for
     * {@code seconds}, whatever the engine does; a free writer issues the next due INSERT
     * (sleeping until it is due), so a slow engine makes INSERTs queue on the client, never
     * slows the schedule. Samples the engine every {@code sampleMillis} on its own connection.
     */
    Run openLoop(double rowsPerSecond, double seconds, long sampleMillis) throws Exception {
        long events = Math.max(1, (long) Math.floor(rowsPerSecond * seconds / batchRows));
        double periodNanos = 1e9 * batchRows / rowsPerSecond;
        AtomicLong next = new AtomicLong();
        AtomicLong issued = new AtomicLong();
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<String> errors = new CopyOnWriteArrayList<>();
        Histogram latency = LatencySummary.newHistogram();
        long start = System.nanoTime() + 100_000_000L; // everyone ready before the first event
        long end = start + (long) (seconds * 1e9);

        AtomicBoolean sampling = new AtomicBoolean(true);
        List<Sample> samples = new CopyOnWriteArrayList<>();
        String indexId = indexId();
        Thread sampler = Thread.ofPlatform().name("ingest-sampler").start(() -> {
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                long at = start;
                while (sampling.get()) {
                    at += sampleMillis * 1_000_000L;
                    sleepUntil(at); // the sampling schedule, not a wait for a condition
                    double t = (System.nanoTime() - start) / 1e9;
                    long offered = Math.min(events, Math.max(0, (long) Math.floor((System.nanoTime() - start) / periodNanos) + 1));
                    samples.add(sample(s, indexId, t, offered * batchRows, acked.get()));
                }
            } catch (SQLException e) {
                errors.add("sampler: " + e.getSQLState() + ": " + e.getMessage());
            }
        });

        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < connections; w++) {
            writers.add(Thread.ofPlatform().name("ingest-writer-" + w).start(() -> {
                try (Connection c = server.connect(); PreparedStatement ps = c.prepareStatement(INSERT)) {
                    while (true) {
                        long i = next.getAndIncrement();
                        long due = start + (long) (i * periodNanos);
                        if (i >= events || System.nanoTime() >= end) return; // past the run: left unissued
                        sleepUntil(due); // the schedule: an open loop never issues early
                        issued.incrementAndGet();
                        try {
                            insert(ps, i);
                            acked.addAndGet(batchRows);
                            synchronized (latency) {
                                latency.recordValue(Math.max(1, (System.nanoTime() - due) / 1000));
                            }
                        } catch (SQLException e) {
                            failed.addAndGet(batchRows);
                            if (errors.size() < 20) errors.add(e.getSQLState() + ": " + e.getMessage());
                        }
                    }
                } catch (SQLException e) {
                    errors.add("writer connection: " + e.getSQLState() + ": " + e.getMessage());
                }
            }));
        }
        for (Thread t : writers) t.join(); // INSERTs in flight at the end finish (or fail) first
        long caughtUpStart = System.nanoTime();
        long inView;
        long present;
        try (Connection c = server.connect()) {
            inView = Sql.scalarLong(c, "SELECT count(*) FROM ingest_heavy") - 1; // waits until maintenance caught up
            present = Sql.scalarLong(c, "SELECT count(*) FROM ingest") - 1;
        }
        double catchUp = (System.nanoTime() - caughtUpStart) / 1e9;
        sampling.set(false);
        sampler.join();
        long offeredRows = events * batchRows;
        long notIssued = (events - issued.get()) * batchRows;
        boolean consistent = inView == present;
        return new Run(offeredRows, acked.get(), failed.get(), notIssued, present, consistent, catchUp,
                LatencySummary.of(latency), List.copyOf(samples), List.copyOf(errors));
    }

    /** Sleeps until {@link System#nanoTime()} reaches {@code deadline} (parkNanos may return early). */
    private static void sleepUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private String indexId() throws SQLException {
        try (Connection c = server.connect();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM mz_catalog.mz_indexes WHERE name = ?")) {
            ps.setString(1, INDEX);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SQLException("index " + INDEX + " not in mz_catalog.mz_indexes");
                return rs.getString(1);
            }
        }
    }

    private static Sample sample(Statement s, String indexId, double t, long offered, long acked) throws SQLException {
        long rss = 0, afterGc = 0, used = 0;
        try (ResultSet rs = s.executeQuery(
                "SELECT rss_bytes, heap_after_gc_bytes, heap_used_bytes FROM mz_internal.mz_process_memory")) {
            if (rs.next()) {
                rss = rs.getLong(1);
                afterGc = rs.getLong(2);
                used = rs.getLong(3);
            }
        }
        double lag = Double.NaN;
        // The lag as milliseconds (a number): pgjdbc's getObject on an interval would look its type up.
        try (ResultSet rs = s.executeQuery("SELECT object_id, EXTRACT(EPOCH FROM lag) * 1000 "
                + "FROM mz_internal.mz_wallclock_global_lag")) {
            while (rs.next()) {
                if (indexId.equals(rs.getString(1))) {
                    double v = rs.getDouble(2);
                    if (!rs.wasNull()) lag = v;
                }
            }
        }
        long backlog = 0, queued = 0, waiting = 0;
        try (ResultSet rs = s.executeQuery(
                "SELECT backlog_ms, queued_writes, waiting_writes FROM mz_internal.mz_write_backpressure")) {
            while (rs.next()) {
                backlog = Math.max(backlog, rs.getLong(1));
                queued = Math.max(queued, rs.getLong(2));
                waiting = Math.max(waiting, rs.getLong(3));
            }
        }
        return new Sample(t, rss, afterGc, used, lag, backlog, queued, waiting, offered, acked);
    }
}
