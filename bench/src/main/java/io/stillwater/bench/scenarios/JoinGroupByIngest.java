package io.stillwater.bench.scenarios;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.stats.Stat;
import java.time.Duration;

/**
 * Insert throughput into a table that feeds an indexed join + group-by view, and that view's
 * freshness under the load (what {@code stillwater measure views} parts (b) and (c) printed before
 * they became this scenario). Four closed loops, each on its own connection, insert 100-row
 * batches into {@code bench_jg_orders} as fast as they are acknowledged; the view
 *
 * <pre>
 * bench_jg_totals = SELECT c.region, count(*) AS n, sum(o.amount) AS total
 *                   FROM bench_jg_orders o JOIN bench_jg_customers c ON o.customer = c.id
 *                   GROUP BY c.region
 * </pre>
 *
 * is indexed on {@code region}, so every acknowledged batch is maintained through the join and
 * the reduction. Meanwhile a closed loop reads the view strict serializably at region -1, which
 * no write touches: such a read waits until the index has caught up with every committed write,
 * so its latency is the view's lag (insert-to-visible) plus a small read.
 *
 * <p>Thresholds: the defaults on both (the inserts' qps is the throughput: 100 rows per query).
 * Correctness: region -1 holds the one seeded order (n = 1, total = 0) throughout. Guarantees: no
 * failed or wrong answers on either. Needs maintained indexes on views ({@code ARRANGEMENTS}).
 */
public final class JoinGroupByIngest extends Scenario {
    static final int CUSTOMERS = 1_000;
    static final int REGIONS = 10;
    static final int BATCH_ROWS = 100;

    public JoinGroupByIngest() {
        requires(Capability.ARRANGEMENTS);
        setup("DROP TABLE IF EXISTS bench_jg_orders CASCADE",
                "DROP TABLE IF EXISTS bench_jg_customers CASCADE",
                "CREATE TABLE bench_jg_customers (id int, region int)",
                "CREATE TABLE bench_jg_orders (id bigint, customer int, amount int)",
                "INSERT INTO bench_jg_customers SELECT g, g % " + REGIONS + " FROM generate_series(0, "
                        + (CUSTOMERS - 1) + ") g",
                "INSERT INTO bench_jg_customers VALUES (-1, -1)", // the probe customer: only the seed order
                "INSERT INTO bench_jg_orders VALUES (0, -1, 0)",
                "CREATE VIEW bench_jg_totals AS SELECT c.region, count(*) AS n, sum(o.amount) AS total "
                        + "FROM bench_jg_orders o JOIN bench_jg_customers c ON o.customer = c.id GROUP BY c.region",
                "CREATE INDEX bench_jg_totals_region ON bench_jg_totals (region)",
                "SELECT n FROM bench_jg_totals WHERE region = -1"); // hydrated before the load
        var insert = reuseConn("INSERT INTO bench_jg_orders SELECT g, g % " + CUSTOMERS + ", g % 100 "
                + "FROM generate_series(1, " + BATCH_ROWS + ") g");
        var fresh = reuseConn("SELECT n, total FROM bench_jg_totals WHERE region = -1",
                "SET transaction_isolation = 'strict serializable'").expecting(ExpectedRows.row("1", "0"));
        load(Duration.ofSeconds(10), closedLoop(insert, 4), closedLoop(fresh));
        guarantee(insert, Stat.ERROR_RATE, 0);
        guarantee(fresh, Stat.ERROR_RATE, 0);
        cleanup("DROP TABLE bench_jg_orders CASCADE", "DROP TABLE bench_jg_customers CASCADE");
    }

    @Override
    public String version() {
        return "1.0.0";
    }
}
