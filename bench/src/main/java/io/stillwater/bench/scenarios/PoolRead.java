package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * {@code SELECT 1} at a fixed 100 per second
 * through a pool of 50 connections (so it fits PostgreSQL's default max_connections of 100, next
 * to the setup and cleanup connection), each set up once
 * (untimed) with an isolation level. Open loop: latency runs from the scheduled time, so pool
 * waits and any queueing in the server count.
 *
 * <p>Thresholds: the defaults. qps is the offered rate in an open loop and moves only when queries
 * fail or the phase overruns, so the gated signals are avg, p50 and p95. Guarantees: no failed or
 * wrong answers, and at least 95% of the offered rate completed.
 */
public final class PoolRead extends Scenario {
    public PoolRead() {
        pool(50, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        var read = pooled("SELECT 1").expecting(ExpectedRows.row("1"));
        load(Duration.ofSeconds(10), openLoop(read, periodic(100)));
        guarantee(read, Stat.ERROR_RATE, 0);
        guarantee(read, Stat.QPS, 95);
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
