package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * Freshness of a materialized view while expensive peek dataflows run on the replica that
 * maintains it (M8 for dataflow-caused stalls; nightly row "MV read next to peek dataflows").
 * Offload does not move a peek dataflow off the worker, so on a solo replica the joins occupy the
 * worker loop and the view's frontier stalls behind them; with two runtimes (and
 * {@code enable_compute_interactive_dataflows}) they render on the interactive runtime instead.
 *
 * <p>Cluster {@code bench_fpd} (two workers) maintains {@code bench_fpd_mv}, a per-key count and
 * sum over a table written at 10 rows per second, and holds an index on a 100,000-row table that
 * two closed loops self-join (about 50,000 matches each, a few hundred ms of work per join).
 * Freshness is measured insert-to-visible: a closed loop reads the view strict serializable, which
 * picks a timestamp at or after every committed write and waits until the view's frontier passes
 * it, so its latency is the view's lag plus a small read. It reads from a separate one-worker
 * cluster, {@code bench_fpd_obs}, so the measured read shares a worker with neither the joins nor
 * the maintenance (as in the seed). It reads key 1, which no write touches, so the work of the read
 * stays constant while the writes go on (key 0).
 *
 * <p>Thresholds: {@code CONTENDED} (1.5, qps included) on the view read: it is measured under
 * deliberate contention; in a closed loop qps is 1/avg, so both loosen together. The writes and the
 * joins are contention only. Correctness: key 1 always has one row with v = 10; every join counts
 * 50,000. Where it runs: the view read on the observer cluster's read runtime; the joins are peek
 * dataflows (otherwise they would not be the contention this scenario is about).
 */
public final class FreshnessUnderPeekDataflows extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_fpd";
    static final String OBSERVER = "bench_fpd_obs";

    public FreshnessUnderPeekDataflows() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME);
        setup(dropCluster(CLUSTER),
                dropCluster(OBSERVER),
                "DROP TABLE IF EXISTS bench_fpd_w CASCADE",
                "DROP TABLE IF EXISTS bench_fpd_big CASCADE",
                createCluster(CLUSTER, WORKERS),
                createCluster(OBSERVER, 1),
                "CREATE TABLE bench_fpd_w (k int, v int)",
                "INSERT INTO bench_fpd_w VALUES (1, 10), (2, 20)",
                "CREATE MATERIALIZED VIEW bench_fpd_mv IN CLUSTER " + CLUSTER
                        + " AS SELECT k, count(*) AS n, sum(v) AS s FROM bench_fpd_w GROUP BY k",
                "CREATE TABLE bench_fpd_big (k int, v int)",
                "INSERT INTO bench_fpd_big SELECT g, g * 2 FROM generate_series(1, 100000) g",
                "CREATE INDEX bench_fpd_big_k IN CLUSTER " + CLUSTER + " ON bench_fpd_big (k)",
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT v FROM bench_fpd_big WHERE k = 42", // hydrated before the load phase
                useCluster(OBSERVER),
                "SELECT n, s FROM bench_fpd_mv WHERE k = 1");
        var viewRead = reuseConn("SELECT n, s FROM bench_fpd_mv WHERE k = 1", useCluster(OBSERVER),
                STRICT_SERIALIZABLE).expecting(ExpectedRows.row("1", "10"));
        var write = reuseConn("INSERT INTO bench_fpd_w VALUES (0, 1)");
        var join = reuseConn("SELECT count(*) FROM bench_fpd_big b1 JOIN bench_fpd_big b2 ON b1.k = b2.v",
                useCluster(CLUSTER), SERIALIZABLE).expecting(ExpectedRows.row("50000"));
        load(Duration.ofSeconds(10),
                closedLoop(viewRead),
                openLoop(write, periodic(10)).reportRegressions(false),
                closedLoop(join, 2).reportRegressions(false));
        thresholds(viewRead, CONTENDED);
        guarantee(viewRead, Stat.ERROR_RATE, 0);
        guarantee(join, Stat.ERROR_RATE, 0);
        guarantee(write, Stat.ERROR_RATE, 0);
        expect(viewRead, PeekExpectation.onReadRuntime());
        expect(join, PeekExpectation.onReadRuntime().dataflow());
        cleanup(dropCluster(CLUSTER), dropCluster(OBSERVER), "DROP TABLE bench_fpd_w CASCADE",
                "DROP TABLE bench_fpd_big");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
