package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * Connection setup: ten closed loops that each open a new connection, run {@code SELECT 1} and
 * close it. The timed span is connect (startup, authentication, parameter status) plus the query.
 *
 * <p>Thresholds: the defaults (closed loop: qps and avg agree at 1.2). Guarantee: no failed or wrong
 * answers; a refused connection is a failure, not a slow success.
 */
public final class ConnectRead extends Scenario {
    public ConnectRead() {
        var read = standalone("SELECT 1").expecting(ExpectedRows.row("1"));
        load(Duration.ofSeconds(10), closedLoop(read, 10));
        guarantee(read, Stat.ERROR_RATE, 0);
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
