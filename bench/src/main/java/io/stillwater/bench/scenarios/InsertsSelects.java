package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * Writes and reads of one table together: single-row inserts at 10 per second (open loop) while a
 * closed loop reads {@code min(a)}. The read's cost grows with the table (it has no index), but
 * the growth is the same on both sides: 100 rows over a 10-second phase, on 1,000.
 *
 * <p>Both are measured with the default thresholds: an insert's latency (durability, timestamp
 * selection) is as much the point as the read's. Correctness: every insert adds a value above the
 * seeded minimum, so {@code min(a)} must stay 1. Guarantees: no failed or wrong answers.
 */
public final class InsertsSelects extends Scenario {
    public InsertsSelects() {
        setup("DROP TABLE IF EXISTS bench_ins_sel",
                "CREATE TABLE bench_ins_sel (a int)",
                "INSERT INTO bench_ins_sel SELECT g FROM generate_series(1, 1000) g");
        var insert = reuseConn("INSERT INTO bench_ins_sel VALUES (1001)");
        var select = reuseConn("SELECT min(a) FROM bench_ins_sel").expecting(ExpectedRows.row("1"));
        load(Duration.ofSeconds(10), openLoop(insert, periodic(10)), closedLoop(select));
        guarantee(insert, Stat.ERROR_RATE, 0);
        guarantee(select, Stat.ERROR_RATE, 0);
        cleanup("DROP TABLE bench_ins_sel");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
