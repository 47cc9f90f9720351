package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * Reads of a resident index while another index on the same replica hydrates, is dropped and
 * hydrates again (M2/M3: reads queued behind long maintenance activations; nightly rows "point
 * lookup, hydration churn" and "range count, churn"). On a solo replica the reads run between
 * operator activations of the hydration; on a two-runtime replica the interactive runtime serves
 * them from the published arrangement while the maintenance runtime hydrates.
 *
 * <p>A two-worker cluster keeps {@code bench_rih_hot} (100,000 rows) indexed on its key. One
 * closed loop creates an index on {@code bench_rih_agg}, a 1,000-group aggregate over a
 * 200,000-row table (hydration does real work: a reduce over every row), waits for it with a
 * lookup, and drops it. Measured, open loop through a pool, serializable (no frontier waits in the
 * measurement): a point lookup at 50 per second (fast path) and a count over half the key range at
 * 4 per second (a peek dataflow over the resident index; the seed ran 12 per second on far more
 * cores).
 *
 * <p>Thresholds: {@code CONTENDED} (1.5) on both measured reads: they run next to deliberate
 * hydration churn, whose timing varies from run to run; open loop, so latency is the signal. The
 * churn is contention only. Correctness: the lookup returns its key's row, the count is 49,999.
 * Where they run: the replica's read runtime; the lookup on the fast path (inline), the count as a
 * dataflow.
 */
public final class ReadIsolationUnderHydration extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_rih";

    public ReadIsolationUnderHydration() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME);
        pool(16, useCluster(CLUSTER), SERIALIZABLE);
        setup(dropCluster(CLUSTER),
                "DROP TABLE IF EXISTS bench_rih_hot CASCADE",
                "DROP TABLE IF EXISTS bench_rih_big CASCADE",
                createCluster(CLUSTER, WORKERS),
                "CREATE TABLE bench_rih_hot (k int, v int)",
                "INSERT INTO bench_rih_hot SELECT g, g * 2 FROM generate_series(1, 100000) g",
                "CREATE INDEX bench_rih_hot_k IN CLUSTER " + CLUSTER + " ON bench_rih_hot (k)",
                "CREATE TABLE bench_rih_big (a int, b int)",
                "INSERT INTO bench_rih_big SELECT g % 1000, g FROM generate_series(1, 200000) g",
                "CREATE VIEW bench_rih_agg AS SELECT a AS g, count(*) AS c FROM bench_rih_big GROUP BY a",
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT v FROM bench_rih_hot WHERE k = 42"); // hydrated before the load phase
        var lookup = pooled("SELECT v FROM bench_rih_hot WHERE k = 42").expecting(ExpectedRows.row("84"));
        var rangeCount = pooled("SELECT count(*) FROM bench_rih_hot WHERE k < 50000")
                .expecting(ExpectedRows.row("49999"));
        var churn = script(useCluster(CLUSTER),
                SERIALIZABLE, // the lookup below waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "DROP INDEX IF EXISTS bench_rih_churn", // a previous iteration may have failed half-way
                "CREATE INDEX bench_rih_churn IN CLUSTER " + CLUSTER + " ON bench_rih_agg (g)",
                "SELECT c FROM bench_rih_agg WHERE g = 7", // a lookup through the new index: returns once hydrated
                "DROP INDEX bench_rih_churn");
        load(Duration.ofSeconds(10),
                openLoop(lookup, periodic(50)),
                openLoop(rangeCount, periodic(4)),
                closedLoop(churn).reportRegressions(false));
        thresholds(lookup, CONTENDED);
        thresholds(rangeCount, CONTENDED);
        guarantee(lookup, Stat.ERROR_RATE, 0);
        guarantee(rangeCount, Stat.ERROR_RATE, 0);
        guarantee(churn, Stat.ERROR_RATE, 0);
        expect(lookup, PeekExpectation.onReadRuntime().fastPath().notOffloaded());
        expect(rangeCount, PeekExpectation.onReadRuntime().dataflow());
        cleanup(dropCluster(CLUSTER), "DROP TABLE bench_rih_hot", "DROP TABLE bench_rih_big CASCADE");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
