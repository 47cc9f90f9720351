package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * Introspection while the replica hydrates (E9 in the design; nightly row "introspection read,
 * churn"): an operator reads {@code mz_introspection.mz_dataflow_arrangement_sizes} exactly when
 * the replica is busiest. A two-worker cluster keeps a resident index on a 200,000-row table; one
 * closed loop creates a second index on the same table (a 200,000-record arrangement), waits for
 * it to hydrate with a lookup through it, and drops it, back to back. Meanwhile introspection is
 * read at a fixed 10 per second (open loop, so time spent queued behind hydration counts).
 *
 * <p>On a solo replica the read waits behind hydration steps; on a two-runtime replica the
 * interactive runtime answers it from the published logging arrangements.
 *
 * <p>Thresholds: {@code CONTENDED} (1.5) on the introspection read: it runs next to deliberate
 * hydration churn, whose timing varies from run to run far more than a quiet read's. In an open
 * loop qps is the offered rate, so latency (avg, p50, p95) is the signal. The churn loop is
 * contention only ({@code reportRegressions(false)}). Correctness: the resident index's
 * arrangement is always there, so the relation is never empty ({@code min(1)} is 1; an empty
 * answer would be NULL). Where it runs: the replica's read runtime.
 */
public final class IntrospectionUnderHydration extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_ih";

    public IntrospectionUnderHydration() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME);
        pool(16, useCluster(CLUSTER), SERIALIZABLE);
        setup(dropCluster(CLUSTER),
                "DROP TABLE IF EXISTS bench_ih_big CASCADE",
                createCluster(CLUSTER, WORKERS),
                "CREATE TABLE bench_ih_big (a int, b int)",
                "INSERT INTO bench_ih_big SELECT g % 1000, g FROM generate_series(1, 200000) g",
                "CREATE INDEX bench_ih_big_a IN CLUSTER " + CLUSTER + " ON bench_ih_big (a)",
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT count(*) FROM bench_ih_big WHERE a = 7"); // hydrated before the load phase
        var introspection = pooled("SELECT min(1) FROM mz_introspection.mz_dataflow_arrangement_sizes")
                .expecting(ExpectedRows.row("1"));
        var churn = script(useCluster(CLUSTER),
                SERIALIZABLE, // the lookup below waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "DROP INDEX IF EXISTS bench_ih_churn", // a previous iteration may have failed half-way
                "CREATE INDEX bench_ih_churn IN CLUSTER " + CLUSTER + " ON bench_ih_big (b)",
                "SELECT a FROM bench_ih_big WHERE b = 7", // a lookup through the new index: returns once hydrated
                "DROP INDEX bench_ih_churn");
        load(Duration.ofSeconds(10),
                openLoop(introspection, periodic(10)),
                closedLoop(churn).reportRegressions(false));
        thresholds(introspection, CONTENDED);
        guarantee(introspection, Stat.ERROR_RATE, 0);
        guarantee(churn, Stat.ERROR_RATE, 0);
        expect(introspection, PeekExpectation.onReadRuntime());
        cleanup(dropCluster(CLUSTER), "DROP TABLE bench_ih_big");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
