package io.stillwater.bench.feature.scenarios;

import static io.stillwater.bench.feature.scenarios.ScriptBuilder.a;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.b;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.expect;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.insertSeries;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.script;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.scenario.Capability;
import java.util.Set;

/**
 * Queries that need a dataflow: sorts, aggregates and joins computed from scratch by one read (on
 * Stillwater a one-shot peek dataflow; these run on PostgreSQL too), and the same operators kept up
 * to date incrementally by an indexed materialized view while writes arrive (the
 * {@link Maintained} scenarios, which need {@link Capability#ARRANGEMENTS}). Every count carries an
 * expectation, so a wrong (say, empty) answer fails instead of timing fast.
 */
public abstract class Dataflow extends FeatureScenario {

    /** A table of N rows {@code (f1, f2)}, f1 = 1..N, f2 = f1 % groups. */
    static String table(String name, long n, long groups) {
        return script("CREATE TABLE " + name + " (f1 integer, f2 integer)",
                insertSeries(name, "g, g % " + groups, 1, n));
    }

    /**
     * Incremental maintenance: an indexed materialized view over a table, timed from a write to the
     * read of the view that reflects it (a strict serializable read waits until the view has caught
     * up). {@code before()} puts the table back and ends with a read of the view, so maintenance of
     * the untimed reset never spills into the timed span.
     */
    public abstract static class Maintained extends Dataflow {
        @Override
        public Set<Capability> requires() {
            return Set.of(Capability.ARRANGEMENTS);
        }
    }

    /**
     * A full sort of N rows (all returned, in order, to the client).
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows: 70-280 ms.
     */
    public static final class OrderBy extends Dataflow {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("df_order_by", n(), 10);
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a("SELECT f1, f2 FROM df_order_by ORDER BY f2, f1 DESC")));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_order_by");
        }
    }

    /**
     * {@code count(DISTINCT f1)} over N distinct values.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 values: 30-70 ms.
     */
    public static final class CountDistinct extends Dataflow {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("df_count_distinct", n(), 10);
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a(expect("SELECT count(DISTINCT f1) FROM df_count_distinct", n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_count_distinct");
        }
    }

    /**
     * {@code min} and {@code max} of N values, computed from scratch.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 values: 50-240 ms.
     */
    public static final class MinMax extends Dataflow {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("df_min_max", n(), 10);
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a(expect("SELECT min(f1), max(f1) FROM df_min_max", 1, n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_min_max");
        }
    }

    /**
     * {@code min}/{@code max} as an indexed materialized view over N rows; timed: 10 rounds of an
     * INSERT of a new maximum, each followed by the read of the view showing it. {@code before()}
     * deletes them again.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows: 10 rounds ~100 ms (one
     * round: ~7 ms, too quick to time alone).
     */
    public static final class MinMaxMaintained extends Maintained {
        static final int ROUNDS = 10;

        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return script(table("df_min_max_m", n(), 10),
                    "CREATE MATERIALIZED VIEW df_min_max_mv AS SELECT min(f1) AS lo, max(f1) AS hi FROM df_min_max_m",
                    "CREATE DEFAULT INDEX ON df_min_max_mv");
        }

        @Override
        public String before() {
            return script("DELETE FROM df_min_max_m WHERE f1 > " + n(),
                    expect("SELECT lo, hi FROM df_min_max_mv", 1, n()));
        }

        @Override
        public Body benchmark() {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= ROUNDS; i++) {
                String insert = "INSERT INTO df_min_max_m VALUES (" + (n() + i) + ", 0)";
                String read = expect("SELECT lo, hi FROM df_min_max_mv", 1, n() + i);
                sb.append(script(i == 1 ? a(insert) : insert, i == ROUNDS ? b(read) : read));
            }
            return Body.script(sb.toString());
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_min_max_m");
        }
    }

    /**
     * {@code GROUP BY} into N/10 groups (count and sum each), computed from scratch.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows into 10^4 groups: 30-140 ms.
     */
    public static final class GroupBy extends Dataflow {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("df_group_by", n(), groups(n()));
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a(expect("SELECT count(*), sum(c) FROM (SELECT f2, count(*) AS c, sum(f1) AS s "
                    + "FROM df_group_by GROUP BY f2) AS g", groups(n()), n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_group_by");
        }
    }

    /** N/10 groups, at least 1. */
    static long groups(long n) {
        return Math.max(1, n / 10);
    }

    /**
     * The same {@code GROUP BY} kept by an indexed materialized view; timed: an INSERT of N/100 rows
     * into existing groups, then the read of the view's totals showing them.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows: adding N/100 took 10-90 ms, so N/20.
     */
    public static final class GroupByMaintained extends Maintained {
        @Override
        public double defaultScale() {
            return 5;
        }

        private long added() {
            return Math.max(1, n() / 20);
        }

        @Override
        public String init() {
            return script(table("df_group_by_m", n(), groups(n())),
                    "CREATE MATERIALIZED VIEW df_group_by_mv AS SELECT f2, count(*) AS c, sum(f1) AS s "
                            + "FROM df_group_by_m GROUP BY f2",
                    "CREATE DEFAULT INDEX ON df_group_by_mv");
        }

        @Override
        public String before() {
            return script("DELETE FROM df_group_by_m WHERE f1 > " + n(),
                    expect("SELECT count(*), sum(c) FROM df_group_by_mv", groups(n()), n()));
        }

        @Override
        public Body benchmark() {
            return Body.script(script(
                    a(insertSeries("df_group_by_m", "g, g % " + groups(n()), n() + 1, n() + added())),
                    b(expect("SELECT count(*), sum(c) FROM df_group_by_mv", groups(n()), n() + added()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_group_by_m");
        }
    }

    /**
     * A cross join of two inputs of sqrt(N) rows each: N result rows, counted.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^6 result rows: 0.4-1.2 s; 10^5.5: 100-440 ms.
     */
    public static final class CrossJoin extends Dataflow {
        @Override
        public double defaultScale() {
            return 5.5;
        }

        private long side() {
            return Math.max(1, Math.round(Math.sqrt(n())));
        }

        @Override
        public String init() {
            return table("df_cross", side(), 10);
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a(expect("SELECT count(*) FROM df_cross AS a1, df_cross AS a2", side() * side()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_cross");
        }
    }

    /**
     * A three-way equi-join whose every input is indexed on the join key (what Materialize plans as
     * a delta join, reading the existing arrangements): N rows each, N matches.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5: 160-900 ms; 10^4.5: 45-400 ms, setup 0.5 s.
     */
    public static final class DeltaJoin extends Dataflow {
        @Override
        public double defaultScale() {
            return 4.5;
        }

        @Override
        public String init() {
            return script(table("df_delta1", n(), 10), "CREATE INDEX df_delta1_f1 ON df_delta1 (f1)",
                    table("df_delta2", n(), 10), "CREATE INDEX df_delta2_f1 ON df_delta2 (f1)",
                    table("df_delta3", n(), 10), "CREATE INDEX df_delta3_f1 ON df_delta3 (f1)");
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a(expect("SELECT count(*) FROM df_delta1 "
                    + "JOIN df_delta2 ON df_delta1.f1 = df_delta2.f1 "
                    + "JOIN df_delta3 ON df_delta2.f1 = df_delta3.f1", n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_delta1", "df_delta2", "df_delta3");
        }
    }

    /**
     * A two-way equi-join of unindexed inputs (the join builds its own arrangements): N rows each,
     * N matches.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4.5: 25-90 ms (10^5: 0.2-1.2 s).
     */
    public static final class DifferentialJoin extends Dataflow {
        @Override
        public double defaultScale() {
            return 4.5;
        }

        @Override
        public String init() {
            return script(table("df_diff1", n(), 10), table("df_diff2", n(), 10));
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a(expect("SELECT count(*) FROM df_diff1 JOIN df_diff2 ON df_diff1.f1 = df_diff2.f1",
                    n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_diff1", "df_diff2");
        }
    }

    /**
     * A full outer join of N rows with N rows, half of them matching: 1.5 N result rows, counted.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4.5: 65-170 ms (10^5: 0.2-1.1 s).
     */
    public static final class FullOuterJoin extends Dataflow {
        @Override
        public double defaultScale() {
            return 4.5;
        }

        @Override
        public String init() {
            long half = n() / 2;
            return script("CREATE TABLE df_outer1 (f1 integer)", insertSeries("df_outer1", "g", 1, n()),
                    "CREATE TABLE df_outer2 (f1 integer)", insertSeries("df_outer2", "g", half + 1, half + n()));
        }

        @Override
        public Body benchmark() {
            long half = n() / 2;
            return Body.script(b(a(expect("SELECT count(*), count(df_outer1.f1), count(df_outer2.f1) FROM df_outer1 "
                    + "FULL OUTER JOIN df_outer2 ON df_outer1.f1 = df_outer2.f1", n() + half, n(), n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_outer1", "df_outer2");
        }
    }

    /**
     * Accumulable reductions (count, sum) over N/4 groups of a table, kept by an indexed
     * materialized view; timed: an UPDATE of every row (N retractions and N insertions flowing into
     * the groups), then the read of the view's totals.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4.5 rows: 50-180 ms.
     */
    public static final class AccumulateReductions extends Maintained {
        @Override
        public double defaultScale() {
            return 4.5;
        }

        private long groupCount() {
            return Math.max(1, n() / 4);
        }

        @Override
        public String init() {
            return script("CREATE TABLE df_accumulate (a integer, b integer)",
                    insertSeries("df_accumulate", "g % " + groupCount() + ", 0", 1, n()),
                    "CREATE MATERIALIZED VIEW df_accumulate_mv AS SELECT a, count(*) AS c, sum(b) AS s, count(b) AS cb "
                            + "FROM df_accumulate GROUP BY a",
                    "CREATE DEFAULT INDEX ON df_accumulate_mv");
        }

        @Override
        public Body benchmark() {
            return Body.script(script(a("UPDATE df_accumulate SET b = b + 1"),
                    b(expect("SELECT count(*), sum(c) FROM df_accumulate_mv", groupCount(), n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_accumulate");
        }
    }

    /**
     * A large retraction: an indexed materialized view of 10^k rows (k = SCALE rounded: the cross
     * product of k copies of a ten-row table) loses all of them when the ten rows are deleted;
     * timed: the DELETE, then the count of the view reaching 0. {@code before()} reinserts the ten
     * rows and waits until the view holds all rows again.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4 rows: 15-30 ms; 10^5: 0.2-0.9 s.
     */
    public static final class Retraction extends Maintained {
        @Override
        public double defaultScale() {
            return 4;
        }

        private int copies() {
            return (int) Math.max(1, Math.round(scale()));
        }

        private long rows() {
            return Math.round(Math.pow(10, copies()));
        }

        @Override
        public String init() {
            StringBuilder value = new StringBuilder();
            StringBuilder from = new StringBuilder();
            long weight = 1;
            for (int i = 1; i <= copies(); i++) {
                value.append(i == 1 ? "" : " + ").append(weight == 1 ? "" : weight + " * ")
                        .append("a").append(i).append(".f1");
                from.append(i == 1 ? "" : ", ").append("df_retraction_ten AS a").append(i);
                weight *= 10;
            }
            return script("CREATE TABLE df_retraction_ten (f1 integer)",
                    "CREATE MATERIALIZED VIEW df_retraction_mv AS SELECT " + value + " AS f1 FROM " + from,
                    "CREATE DEFAULT INDEX ON df_retraction_mv");
        }

        @Override
        public String before() {
            return script("DELETE FROM df_retraction_ten",
                    "INSERT INTO df_retraction_ten VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)",
                    expect("SELECT count(*) FROM df_retraction_mv", rows()));
        }

        @Override
        public Body benchmark() {
            return Body.script(script(a("DELETE FROM df_retraction_ten"),
                    b(expect("SELECT count(*) FROM df_retraction_mv", 0))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("df_retraction_ten");
        }
    }
}
