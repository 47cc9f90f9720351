package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How many point lookups through an index the target serves back to back: eight closed loops,
 * each on its own connection, read one key of a 10,000-row table indexed on that key (an
 * arrangement on Materialize and Stillwater, a B-tree on PostgreSQL). Comparable to
 * {@code pgbench -S -c 8} against PostgreSQL.
 *
 * <p>Thresholds: the defaults (closed loop: qps and avg agree at 1.2). Correctness: the lookup
 * must return the key's row. Guarantees: no failed or wrong answers.
 */
public final class PointLookupThroughput extends Scenario {
    public PointLookupThroughput() {
        requires(Capability.INDEXES);
        List<String> setup = new ArrayList<>(List.of(
                "DROP TABLE IF EXISTS bench_plt",
                "CREATE TABLE bench_plt (k int, v int)",
                "CREATE INDEX bench_plt_k ON bench_plt (k)",
                "INSERT INTO bench_plt SELECT g, g * 2 FROM generate_series(1, 10000) g"));
        if (!targetHas(Capability.ARRANGEMENTS)) {
            setup.add("ANALYZE bench_plt"); // PostgreSQL: planner statistics, so the lookup uses the index
        }
        setup(setup.toArray(String[]::new));
        var lookup = reuseConn("SELECT v FROM bench_plt WHERE k = 4242").expecting(ExpectedRows.row("8484"));
        load(Duration.ofSeconds(10), closedLoop(lookup, 8));
        guarantee(lookup, Stat.ERROR_RATE, 0);
        cleanup("DROP TABLE bench_plt");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
