package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.postgresql.util.PGInterval;

/**
 * (c) Freshness of the indexed join + group-by view while the load runs at a fixed rate,
 * measured two ways at once, each on its own connection:
 *
 * <ul>
 *   <li><b>reported lag</b>: every {@code intervalMillis}, the index's row of
 *       {@code mz_internal.mz_wallclock_global_lag} (wall clock minus the index's write
 *       frontier, as the engine reports it);</li>
 *   <li><b>ack-to-visible</b>: every {@code intervalMillis}, one probe row is inserted (for
 *       the reserved probe customer); once the INSERT is acknowledged, serializable reads
 *       of the view's probe group poll until the row is counted. The sample is the time
 *       from the acknowledgement to the first read that sees it.</li>
 * </ul>
 */
final class Freshness {
    /** Results; {@code reportedLagError} says why the reported lag could not be read, if so. */
    record Result(LatencySummary reportedLagMicros, Optional<String> reportedLagError,
                  LatencySummary ackToVisibleMicros) {}

    private final MeasuredServer server;
    private final long intervalMillis;

    Freshness(MeasuredServer server, long intervalMillis) {
        this.server = server;
        this.intervalMillis = intervalMillis;
    }

    /** Samples both until {@code running} turns false. */
    Result sampleWhile(AtomicBoolean running) throws Exception {
        Histogram lag = LatencySummary.newHistogram();
        String[] lagError = new String[1];
        Thread sampler = Thread.ofPlatform().name("measure-lag-sampler").start(() -> {
            try {
                sampleReportedLag(running, lag);
            } catch (SQLException e) {
                lagError[0] = e.getSQLState() + ": " + e.getMessage();
            }
        });
        Histogram visible = LatencySummary.newHistogram();
        try {
            probe(running, visible);
        } finally {
            running.set(false);
            sampler.join();
        }
        return new Result(LatencySummary.of(lag), Optional.ofNullable(lagError[0]), LatencySummary.of(visible));
    }

    private void sampleReportedLag(AtomicBoolean running, Histogram micros) throws SQLException {
        try (Connection c = server.connect()) {
            String indexId;
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM mz_catalog.mz_indexes WHERE name = ?")) {
                ps.setString(1, JoinGroupByLoad.INDEX);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) throw new SQLException("index " + JoinGroupByLoad.INDEX + " not in mz_catalog.mz_indexes");
                    indexId = rs.getString(1);
                }
            }
            long next = System.nanoTime();
            try (Statement s = c.createStatement()) {
                while (running.get()) {
                    next += intervalMillis * 1_000_000L;
                    // The lag as milliseconds (a number): pgjdbc's getObject on an interval
                    // column would look its type up in pg_catalog.
                    try (ResultSet rs = s.executeQuery("SELECT object_id, EXTRACT(EPOCH FROM lag) * 1000 AS lag FROM mz_internal.mz_wallclock_global_lag")) {
                        ResultSetMetaData md = rs.getMetaData();
                        int idColumn = column(md, "object_id", 1);
                        int lagColumn = column(md, "lag", 2);
                        while (rs.next()) {
                            if (indexId.equals(rs.getString(idColumn))) {
                                micros.recordValue(Math.max(1, lagMicros(rs.getObject(lagColumn))));
                            }
                        }
                    }
                    parkUntil(next);
                }
            }
        }
    }

    /** The column called {@code name}, else the {@code fallback}-th (Materialize's order: object_id, lag). */
    private static int column(ResultSetMetaData md, String name, int fallback) throws SQLException {
        for (int i = 1; i <= md.getColumnCount(); i++) {
            if (md.getColumnLabel(i).equalsIgnoreCase(name)) return i;
        }
        return fallback;
    }

    /** A lag value as microseconds: an interval, or a number of milliseconds. */
    static long lagMicros(Object value) throws SQLException {
        if (value instanceof PGInterval iv) {
            double seconds = ((iv.getYears() * 12.0 + iv.getMonths()) * 30 + iv.getDays()) * 86_400.0
                    + iv.getHours() * 3_600.0 + iv.getMinutes() * 60.0 + iv.getSeconds();
            return Math.round(seconds * 1e6);
        }
        if (value instanceof Number n) return Math.round(n.doubleValue() * 1000);
        if (value == null) throw new SQLException("lag is NULL");
        try {
            return Math.round(Double.parseDouble(value.toString()) * 1000);
        } catch (NumberFormatException e) {
            throw new SQLException("cannot read lag value '" + value + "'", e);
        }
    }

    private void probe(AtomicBoolean running, Histogram micros) throws SQLException {
        try (Connection writer = server.connect(); Connection reader = server.connect()) {
            Sql.exec(reader, "SET transaction_isolation = 'serializable'");
            long probes = Sql.scalarLong(reader, "SELECT coalesce(sum(n), 0) FROM region_totals WHERE region = "
                    + JoinGroupByLoad.PROBE_REGION);
            try (PreparedStatement insert = writer.prepareStatement(
                         "INSERT INTO orders VALUES (?, " + JoinGroupByLoad.PROBE_CUSTOMER + ", 1)");
                 PreparedStatement read = reader.prepareStatement(
                         "SELECT n FROM region_totals WHERE region = " + JoinGroupByLoad.PROBE_REGION)) {
                long next = System.nanoTime();
                while (running.get()) {
                    next += intervalMillis * 1_000_000L;
                    insert.setLong(1, -1 - probes);
                    insert.executeUpdate();
                    long acked = System.nanoTime();
                    probes++;
                    boolean seen;
                    while (!(seen = countIn(read) >= probes) && running.get()) {
                        Thread.onSpinWait();
                    }
                    if (!seen) break; // the load ended before this probe became visible: no sample
                    micros.recordValue(Math.max(1, (System.nanoTime() - acked) / 1000));
                    parkUntil(next);
                }
            }
        }
    }

    private static long countIn(PreparedStatement read) throws SQLException {
        try (ResultSet rs = read.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static void parkUntil(long nanoTime) {
        long wait;
        while ((wait = nanoTime - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
    }
}
