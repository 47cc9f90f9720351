package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * The floor of a read: ten closed loops of {@code SELECT 1}, each on its own connection. Measures
 * the per-statement cost of the wire layer, parsing and the trivial-plan path, with no data.
 *
 * <p>Thresholds: the defaults. In a closed loop qps is loops/avg, and the defaults gate both at
 * 1.2, so they agree. Guarantee: no failed or wrong answers (the reference's absolute qps and max
 * limits were for its own hardware and are left out: an absolute latency limit on a shared 2-core
 * machine measures the machine).
 */
public final class Read extends Scenario {
    public Read() {
        var read = reuseConn("SELECT 1").expecting(ExpectedRows.row("1"));
        load(Duration.ofSeconds(10), closedLoop(read, 10));
        guarantee(read, Stat.ERROR_RATE, 0);
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
