package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * Point lookups while full walks of a large index run on the same solo replica (M1: peeks queued
 * behind peeks; E1, E8b, E11; nightly row "point lookup behind expensive peeks"). This scenario
 * guards peek <em>offload</em>, not the second runtime: both of its queries are peeks, so a second
 * runtime would move them together and change nothing measured. Its cluster is therefore
 * provisioned with {@code enable_compute_interactive_runtime = false} on every side (a system
 * parameter phase around the cluster's creation), and the comparison this vs other is flat unless
 * offload, the inline budget or admission regress.
 *
 * <p>A two-worker cluster indexes a 500,000-row table on its key (the size issue 5's measurement
 * uses). Walks ({@code WHERE v = -1}: a filter on a non-key column visits every position and
 * returns nothing) arrive 3 per second; lookups of one key arrive 50 per second, both open loop
 * through a pool, serializable (no frontier waits in the measurement). A walk past the inline
 * budget moves to the offload pool, so a lookup should not queue behind it.
 *
 * <p>Thresholds: {@code CONTENDED} (1.5) on the lookup, measured under deliberate contention; open
 * loop, so latency is the signal. The walks are contention only. Correctness: the lookup returns
 * its key's row; a walk returns nothing. Where they run: both on the solo runtime, fast path; the
 * lookup inline (it visits far fewer positions than the budget). Whether a walk is offloaded is
 * what the scenario guards and shows up in the lookup's latency, so it is not an expectation.
 */
public final class PeekIsolationUnderExpensivePeeks extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_pie";

    public PeekIsolationUnderExpensivePeeks() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME, Capability.SYSTEM_PARAMETERS);
        pool(16, useCluster(CLUSTER), SERIALIZABLE);
        setup(dropCluster(CLUSTER), "DROP TABLE IF EXISTS bench_pie_hot CASCADE");
        // The flag is read when a replica is provisioned: set it around the cluster's creation only.
        systemParameters(SYSTEM_USER, "ALTER SYSTEM SET enable_compute_interactive_runtime = false");
        setup(createCluster(CLUSTER, WORKERS));
        systemParameters(SYSTEM_USER, "ALTER SYSTEM RESET enable_compute_interactive_runtime");
        setup("CREATE TABLE bench_pie_hot (k int, v int)",
                "INSERT INTO bench_pie_hot SELECT g, g * 2 FROM generate_series(1, 500000) g",
                "CREATE INDEX bench_pie_hot_k IN CLUSTER " + CLUSTER + " ON bench_pie_hot (k)",
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT v FROM bench_pie_hot WHERE k = 42"); // hydrated before the load phase
        var lookup = pooled("SELECT v FROM bench_pie_hot WHERE k = 42").expecting(ExpectedRows.row("84"));
        var walk = pooled("SELECT v FROM bench_pie_hot WHERE v = -1").expecting(NO_ROWS);
        load(Duration.ofSeconds(10),
                openLoop(lookup, periodic(50)),
                openLoop(walk, periodic(3)).reportRegressions(false));
        thresholds(lookup, CONTENDED);
        guarantee(lookup, Stat.ERROR_RATE, 0);
        guarantee(walk, Stat.ERROR_RATE, 0);
        expect(lookup, PeekExpectation.on(PeekExpectation.Runtime.SOLO).fastPath().notOffloaded());
        expect(walk, PeekExpectation.on(PeekExpectation.Runtime.SOLO).fastPath());
        cleanup(dropCluster(CLUSTER), "DROP TABLE bench_pie_hot");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
