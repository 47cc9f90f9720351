package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * Maintenance while peeks saturate the replica (M3, and the price of oversubscription: a
 * two-runtime replica runs twice the threads on the same cores; nightly rows "MV freshness, peek
 * saturation" and "join, peek saturation"). The seed ran 8 join loops on an 8-worker replica on 16
 * cores; here 4 loops on a 2-worker replica on a 2-core machine, so the peeks ask for more than the
 * replica has, on both sides.
 *
 * <p>Cluster {@code bench_mps} (two workers) maintains {@code bench_mps_mv}, a per-key count and
 * sum over a table receiving 100 rows 10 times per second (1,000 rows per second of maintenance
 * work), and holds an index on a 20,000-row table that 4 closed loops self-join (10,000 matches
 * each). Two things are measured: the view's freshness, insert-to-visible, by a closed loop of
 * strict serializable reads of an untouched key from a separate one-worker cluster
 * {@code bench_mps_obs} (the read waits until the view's frontier passes the latest write, so its
 * latency is the view's lag; see {@link FreshnessUnderPeekDataflows}); and the joins themselves,
 * whose throughput is what the saturating client gets.
 *
 * <p>Thresholds: {@code CONTENDED} (1.5, qps included) on both: the view read is measured under
 * deliberate saturation, and the joins are the saturation, contending with each other and with
 * maintenance; both are closed loops, where qps is loops/avg, so qps loosens with avg. The writes
 * are contention only. Correctness: key 1 keeps one row with v = 10; every join counts 10,000.
 * Where they run: the view read on the observer's read runtime; the joins as peek dataflows on the
 * saturated cluster's read runtime.
 */
public final class MaintenanceUnderPeekSaturation extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_mps";
    static final String OBSERVER = "bench_mps_obs";

    public MaintenanceUnderPeekSaturation() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME);
        setup(dropCluster(CLUSTER),
                dropCluster(OBSERVER),
                "DROP TABLE IF EXISTS bench_mps_w CASCADE",
                "DROP TABLE IF EXISTS bench_mps_big CASCADE",
                createCluster(CLUSTER, WORKERS),
                createCluster(OBSERVER, 1),
                "CREATE TABLE bench_mps_w (k int, v int)",
                "INSERT INTO bench_mps_w VALUES (1, 10), (2, 20)",
                "CREATE MATERIALIZED VIEW bench_mps_mv IN CLUSTER " + CLUSTER
                        + " AS SELECT k, count(*) AS n, sum(v) AS s FROM bench_mps_w GROUP BY k",
                "CREATE TABLE bench_mps_big (k int, v int)",
                "INSERT INTO bench_mps_big SELECT g, g * 2 FROM generate_series(1, 20000) g",
                "CREATE INDEX bench_mps_big_k IN CLUSTER " + CLUSTER + " ON bench_mps_big (k)",
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT v FROM bench_mps_big WHERE k = 42", // hydrated before the load phase
                useCluster(OBSERVER),
                "SELECT n, s FROM bench_mps_mv WHERE k = 1");
        var viewRead = reuseConn("SELECT n, s FROM bench_mps_mv WHERE k = 1", useCluster(OBSERVER),
                STRICT_SERIALIZABLE).expecting(ExpectedRows.row("1", "10"));
        var write = reuseConn("INSERT INTO bench_mps_w SELECT 0, g FROM generate_series(1, 100) g");
        var join = reuseConn("SELECT count(*) FROM bench_mps_big b1 JOIN bench_mps_big b2 ON b1.k = b2.v",
                useCluster(CLUSTER), SERIALIZABLE).expecting(ExpectedRows.row("10000"));
        load(Duration.ofSeconds(10),
                closedLoop(viewRead),
                closedLoop(join, 4),
                openLoop(write, periodic(10)).reportRegressions(false));
        thresholds(viewRead, CONTENDED);
        thresholds(join, CONTENDED);
        guarantee(viewRead, Stat.ERROR_RATE, 0);
        guarantee(join, Stat.ERROR_RATE, 0);
        guarantee(write, Stat.ERROR_RATE, 0);
        expect(viewRead, PeekExpectation.onReadRuntime());
        expect(join, PeekExpectation.onReadRuntime().dataflow());
        cleanup(dropCluster(CLUSTER), dropCluster(OBSERVER), "DROP TABLE bench_mps_w CASCADE",
                "DROP TABLE bench_mps_big");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
