package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * (a) Point-lookup latency through pgjdbc: one reused connection, one server-side prepared
 * statement, random existing ids, a closed loop (the next lookup starts when the previous
 * one has returned). The same lookup runs against three copies of one table: with a
 * DEFAULT index (key: all columns, so the lookup gives both columns to hit the full key),
 * with an index keyed on id, and without any index (a peek dataflow over the table).
 */
final class LookupLatency {
    /** One variant's result. */
    record Result(String variant, String query, LatencySummary latency, long wrongAnswers) {}

    private final MeasuredServer server;
    private final long rows;
    private final double seconds;
    private final double warmupSeconds;

    LookupLatency(MeasuredServer server, long rows, double seconds, double warmupSeconds) {
        this.server = server;
        this.rows = rows;
        this.seconds = seconds;
        this.warmupSeconds = warmupSeconds;
    }

    Result[] run() throws SQLException {
        try (Connection c = server.connect()) {
            Sql.exec(c, "CREATE TABLE lookup_default (id bigint, payload text)",
                    "CREATE TABLE lookup_keyed (id bigint, payload text)",
                    "CREATE TABLE lookup_plain (id bigint, payload text)");
            for (String t : new String[] {"lookup_default", "lookup_keyed", "lookup_plain"}) {
                Sql.fill(c, t, rows, 100_000);
            }
            Sql.exec(c, "CREATE DEFAULT INDEX ON lookup_default", "CREATE INDEX lookup_keyed_id_idx ON lookup_keyed (id)");
            // A strict serializable read waits until both indexes have hydrated.
            Sql.scalarLong(c, "SELECT count(*) FROM lookup_default");
            Sql.scalarLong(c, "SELECT count(*) FROM lookup_keyed");
        }
        return new Result[] {
            measure("default index (all columns)", "SELECT id, payload FROM lookup_default WHERE id = ? AND payload = ?", true),
            measure("index on id", "SELECT id, payload FROM lookup_keyed WHERE id = ?", false),
            measure("no index", "SELECT id, payload FROM lookup_plain WHERE id = ? AND payload = ?", true),
        };
    }

    private Result measure(String variant, String sql, boolean withPayload) throws SQLException {
        Histogram micros = LatencySummary.newHistogram();
        long wrong = 0;
        SplittableRandom random = new SplittableRandom(42);
        try (Connection c = server.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int phase = 0; phase < 2; phase++) {
                boolean recording = phase == 1;
                long end = System.nanoTime() + (long) ((recording ? seconds : warmupSeconds) * 1e9);
                while (System.nanoTime() < end) {
                    long id = 1 + random.nextLong(rows);
                    ps.setLong(1, id);
                    if (withPayload) ps.setString(2, Sql.payload(id));
                    long start = System.nanoTime();
                    int found = Sql.drain(ps);
                    long took = System.nanoTime() - start;
                    if (recording) {
                        micros.recordValue(Math.max(1, took / 1000));
                        if (found != 1) wrong++;
                    }
                }
            }
        }
        return new Result(variant, sql, LatencySummary.of(micros), wrong);
    }
}
