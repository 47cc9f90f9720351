package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * Reads of a small indexed table at a fixed 400 per second
 * through a pool of 50 connections (so it fits PostgreSQL's default max_connections of 100, next
 * to the setup and cleanup connection)
 * (open loop, periodic arrivals). On a target with arrangements the table has a default index, so
 * every read is served from memory; on PostgreSQL it gets a B-tree index (the read scans a
 * one-row table either way).
 *
 * <p>Thresholds: the defaults (open loop: qps is the offered rate; latency stats are the signal).
 * Guarantees: no failed or wrong answers, at least 95% of the offered rate completed.
 */
public final class OpenIndexedSelects extends Scenario {
    public OpenIndexedSelects() {
        requires(Capability.INDEXES);
        pool(50, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        setup("DROP TABLE IF EXISTS bench_t4",
                "CREATE TABLE bench_t4 (f1 text, f2 int)",
                targetHas(Capability.ARRANGEMENTS) ? "CREATE DEFAULT INDEX ON bench_t4"
                        : "CREATE INDEX bench_t4_f1 ON bench_t4 (f1)",
                "INSERT INTO bench_t4 VALUES ('A', 1)");
        var select = pooled("SELECT * FROM bench_t4").expecting(ExpectedRows.row("A", "1"));
        load(Duration.ofSeconds(10), openLoop(select, periodic(400)));
        guarantee(select, Stat.ERROR_RATE, 0);
        guarantee(select, Stat.QPS, 380);
        cleanup("DROP TABLE bench_t4");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
