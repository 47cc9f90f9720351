package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * Writes offered faster than maintenance can follow: the case write backpressure
 * ({@code max_maintenance_lag}) exists for. Every row inserted into {@code bench_ingest} is
 * paired with all 40,000 rows of {@code bench_ingest_big} by an indexed view (a cross join with a
 * filter; one pair survives per row), so maintaining a row costs far more than writing it. Inserts
 * of 10 rows arrive at 100 per second (1,000 rows/s, about twice what one maintenance worker
 * sustains on the 2-core machine),
 * open loop through a pool of 8 connections, while a closed loop reads the view strict
 * serializably at a key no write touches: such a read waits until the index has caught up with
 * the latest write, so its latency is the view's lag.
 *
 * <p>With backpressure (the engine's default) writes wait for maintenance and the lag stays near
 * the bound; without it ({@code --other-params max_maintenance_lag=0}) every write is acknowledged
 * at once and the lag grows for as long as the load lasts. Thresholds: the defaults on the view
 * read (this side's lag must not grow); the inserts are ungated (under backpressure they wait by
 * design: their latency from the scheduled time includes that wait). Guarantees: no failed or
 * wrong answers on either.
 */
public final class IngestOverload extends Scenario {
    static final int BIG = 40_000;

    public IngestOverload() {
        requires(Capability.ARRANGEMENTS);
        pool(8);
        setup("DROP TABLE IF EXISTS bench_ingest CASCADE",
                "DROP TABLE IF EXISTS bench_ingest_big CASCADE",
                "CREATE TABLE bench_ingest_big (x int)",
                "INSERT INTO bench_ingest_big SELECT g FROM generate_series(1, " + BIG + ") g",
                "CREATE TABLE bench_ingest (k int, v int)",
                "INSERT INTO bench_ingest VALUES (0, 1)",
                "CREATE VIEW bench_ingest_heavy AS SELECT i.k, i.v, b.x FROM bench_ingest i, bench_ingest_big b "
                        + "WHERE b.x + i.v = " + (BIG + 1),
                "CREATE INDEX bench_ingest_heavy_k ON bench_ingest_heavy (k)",
                "SELECT count(*) FROM bench_ingest_heavy WHERE k = 0"); // hydrated before the load
        var insert = pooled("INSERT INTO bench_ingest SELECT 1, g FROM generate_series(1, 10) g");
        var lag = reuseConn("SELECT count(*) FROM bench_ingest_heavy WHERE k = 0",
                "SET transaction_isolation = 'strict serializable'").expecting(ExpectedRows.row("1"));
        load(Duration.ofSeconds(10),
                openLoop(insert, periodic(100)).reportRegressions(false),
                closedLoop(lag));
        guarantee(insert, Stat.ERROR_RATE, 0);
        guarantee(lag, Stat.ERROR_RATE, 0);
        cleanup("DROP TABLE bench_ingest CASCADE", "DROP TABLE bench_ingest_big CASCADE");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
