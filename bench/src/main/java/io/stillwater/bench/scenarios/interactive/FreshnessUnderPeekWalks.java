package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * Freshness of a maintained index while full walks of a big index run on the same solo replica
 * (M8: a walk occupying the worker freezes every frontier on the replica; E13; nightly row
 * "freshness under full walks"). Like {@link PeekIsolationUnderExpensivePeeks} it guards peek
 * offload (and the walk's bounded time on the worker), not the second runtime, which would hide the
 * regression by serving the walks away from the maintenance worker: its cluster is provisioned with
 * {@code enable_compute_interactive_runtime = false} on every side.
 *
 * <p>A two-worker cluster indexes {@code bench_fpw_w} (1,000 rows, written at 10 rows per second:
 * E13 wrote one row per 100 ms) and {@code bench_fpw_hot} (500,000 rows, walked twice per second).
 * The measured read is a closed loop of a strict serializable lookup of a key no write touches: it
 * picks a timestamp at or after the latest write and waits until the index's frontier passes it,
 * so its latency is the index's lag plus a constant lookup (the seed's review replaced a growing
 * {@code count(*)} with this lookup for that reason). It runs on the same cluster, as in the seed:
 * the frontier it waits on is the one the walks would hold back.
 *
 * <p>Thresholds: {@code CONTENDED} (1.5, qps included): measured under deliberate contention, and
 * in a closed loop qps is 1/avg so both loosen together. Writes and walks are contention only.
 * Correctness: key 1 is never written after setup (v = 2); walks return nothing. Where they run:
 * the solo runtime, fast path; the lookup inline.
 */
public final class FreshnessUnderPeekWalks extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_fpw";

    public FreshnessUnderPeekWalks() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME, Capability.SYSTEM_PARAMETERS);
        pool(8, useCluster(CLUSTER), SERIALIZABLE);
        setup(dropCluster(CLUSTER),
                "DROP TABLE IF EXISTS bench_fpw_w CASCADE",
                "DROP TABLE IF EXISTS bench_fpw_hot CASCADE");
        // The flag is read when a replica is provisioned: set it around the cluster's creation only.
        systemParameters(SYSTEM_USER, "ALTER SYSTEM SET enable_compute_interactive_runtime = false");
        setup(createCluster(CLUSTER, WORKERS));
        systemParameters(SYSTEM_USER, "ALTER SYSTEM RESET enable_compute_interactive_runtime");
        setup("CREATE TABLE bench_fpw_w (k int, v int)",
                "INSERT INTO bench_fpw_w SELECT g, g * 2 FROM generate_series(1, 1000) g",
                "CREATE INDEX bench_fpw_w_k IN CLUSTER " + CLUSTER + " ON bench_fpw_w (k)",
                "CREATE TABLE bench_fpw_hot (k int, v int)",
                "INSERT INTO bench_fpw_hot SELECT g, g * 2 FROM generate_series(1, 500000) g",
                "CREATE INDEX bench_fpw_hot_k IN CLUSTER " + CLUSTER + " ON bench_fpw_hot (k)",
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT v FROM bench_fpw_w WHERE k = 1", // both hydrated before the load phase
                "SELECT v FROM bench_fpw_hot WHERE k = 1");
        var fresh = reuseConn("SELECT v FROM bench_fpw_w WHERE k = 1", useCluster(CLUSTER), STRICT_SERIALIZABLE)
                .expecting(ExpectedRows.row("2"));
        var write = reuseConn("INSERT INTO bench_fpw_w VALUES (0, 0)");
        var walk = pooled("SELECT v FROM bench_fpw_hot WHERE v = -1").expecting(NO_ROWS);
        load(Duration.ofSeconds(10),
                closedLoop(fresh),
                openLoop(write, periodic(10)).reportRegressions(false),
                openLoop(walk, periodic(2)).reportRegressions(false));
        thresholds(fresh, CONTENDED);
        guarantee(fresh, Stat.ERROR_RATE, 0);
        guarantee(walk, Stat.ERROR_RATE, 0);
        guarantee(write, Stat.ERROR_RATE, 0);
        expect(fresh, PeekExpectation.on(PeekExpectation.Runtime.SOLO).fastPath().notOffloaded());
        expect(walk, PeekExpectation.on(PeekExpectation.Runtime.SOLO).fastPath());
        cleanup(dropCluster(CLUSTER), "DROP TABLE bench_fpw_w", "DROP TABLE bench_fpw_hot");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
