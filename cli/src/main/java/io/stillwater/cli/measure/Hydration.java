package io.stillwater.cli.measure;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * (d) Index hydration rate: a table of {@code rows} rows is loaded first (its load rate is
 * reported too), then {@code CREATE DEFAULT INDEX} is issued and a strict serializable
 * point lookup through the new index is repeated until it succeeds. The hydration time runs
 * from sending CREATE INDEX to that first successful read; the rate is rows over that time.
 */
final class Hydration {
    record Result(long rows, double loadSeconds, double createReturnedSeconds, double hydratedSeconds,
                  int failedReads) {
        double rowsPerSecond() { return rows / hydratedSeconds; }

        double loadRowsPerSecond() { return rows / loadSeconds; }
    }

    private final MeasuredServer server;
    private final long rows;

    Hydration(MeasuredServer server, long rows) {
        this.server = server;
        this.rows = rows;
    }

    Result run() throws SQLException {
        try (Connection c = server.connect()) {
            Sql.exec(c, "CREATE TABLE hydrate (id bigint, payload text)");
            long loadStart = System.nanoTime();
            Sql.fill(c, "hydrate", rows, 100_000);
            double loadSeconds = (System.nanoTime() - loadStart) / 1e9;

            long start = System.nanoTime();
            Sql.exec(c, "CREATE DEFAULT INDEX ON hydrate");
            double createReturned = (System.nanoTime() - start) / 1e9;
            int failed = 0;
            long probe = (rows + 1) / 2;
            try (PreparedStatement read = c.prepareStatement("SELECT id FROM hydrate WHERE id = ? AND payload = ?")) {
                read.setLong(1, probe);
                read.setString(2, Sql.payload(probe));
                while (true) {
                    try {
                        if (Sql.drain(read) == 1) break;
                        failed++; // answered, but without the row: not hydrated yet (a bug under strict serializable)
                    } catch (SQLException e) {
                        if (++failed > 10_000) throw e;
                    }
                }
            }
            double hydrated = (System.nanoTime() - start) / 1e9;
            return new Result(rows, loadSeconds, createReturned, hydrated, failed);
        }
    }
}
