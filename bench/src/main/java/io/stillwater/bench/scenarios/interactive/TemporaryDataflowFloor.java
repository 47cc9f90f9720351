package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;

/**
 * The fixed cost of a one-shot read (the <em>temporary-dataflow floor</em>, M4 in the design):
 * one closed loop of a join of two 100-row indexed tables on a quiet two-worker cluster. The join
 * needs a peek dataflow (no fast path reads two arrangements), and at 100 rows per side its work is
 * negligible, so the latency is creating, running and tearing down the dataflow plus the read's
 * timestamp. The seed used 1,000 rows; its review found that larger inputs made the join, not the
 * floor, dominate, so the inputs here are smaller still. The nightly reference row is "peek
 * dataflow, quiet". Serializable, so waiting for a frontier (M5) is not part of it.
 *
 * <p>Thresholds: the defaults. The loop runs alone on its cluster, so there is no contention to
 * excuse a looser gate, and in a closed loop qps (loops/avg) and avg are gated alike at 1.2.
 * Correctness: the join has exactly 100 matches. Where it runs: a dataflow on the replica's read
 * runtime (interactive on a two-runtime replica).
 */
public final class TemporaryDataflowFloor extends InteractiveRuntimeScenario {
    static final String CLUSTER = "bench_tdf";

    public TemporaryDataflowFloor() {
        requires(Capability.CLUSTERS, Capability.ARRANGEMENTS, Capability.INTROSPECTION,
                Capability.INTERACTIVE_RUNTIME);
        setup(dropCluster(CLUSTER),
                "DROP TABLE IF EXISTS bench_tdf_a CASCADE",
                "DROP TABLE IF EXISTS bench_tdf_b CASCADE",
                createCluster(CLUSTER, WORKERS),
                "CREATE TABLE bench_tdf_a (k int, v int)",
                "CREATE TABLE bench_tdf_b (k int, w int)",
                "INSERT INTO bench_tdf_a SELECT g, g FROM generate_series(1, 100) g",
                "INSERT INTO bench_tdf_b SELECT g, g * 3 FROM generate_series(1, 100) g",
                "CREATE DEFAULT INDEX IN CLUSTER " + CLUSTER + " ON bench_tdf_a",
                "CREATE DEFAULT INDEX IN CLUSTER " + CLUSTER + " ON bench_tdf_b",
                // wait for both indexes to hydrate, so the load phase starts on a resident replica
                useCluster(CLUSTER),
                SERIALIZABLE, // waits for hydration: see InteractiveRuntimeScenario.SERIALIZABLE
                "SELECT count(*) FROM bench_tdf_a JOIN bench_tdf_b USING (k)");
        var join = reuseConn("SELECT count(*) FROM bench_tdf_a JOIN bench_tdf_b USING (k)",
                useCluster(CLUSTER), SERIALIZABLE).expecting(ExpectedRows.row("100"));
        load(Duration.ofSeconds(10), closedLoop(join));
        guarantee(join, Stat.ERROR_RATE, 0);
        expect(join, PeekExpectation.onReadRuntime().dataflow());
        cleanup(dropCluster(CLUSTER), "DROP TABLE bench_tdf_a", "DROP TABLE bench_tdf_b");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
