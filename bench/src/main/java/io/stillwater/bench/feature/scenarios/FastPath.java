package io.stillwater.bench.feature.scenarios;

import static io.stillwater.bench.feature.scenarios.ScriptBuilder.expect;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.insertSeries;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.script;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;

/**
 * SELECTs a target can answer from an index or a plain scan of one collection, without building a
 * dataflow: on Stillwater the fast path (a lookup of one key, or a walk with the filter fused into
 * the scan); on PostgreSQL a B-tree lookup or a sequential scan. Each table has N rows
 * {@code (f1, f2)} with {@code f2 = N + 1 - f1} and a plain index on {@code f1}, so every
 * scenario runs on PostgreSQL too. Quick reads are repeated inside the timed span.
 */
public abstract class FastPath extends FeatureScenario {

    /** The scenario's table: N rows, a B-tree / arrangement on f1. */
    static String table(String name, long n) {
        return script("CREATE TABLE " + name + " (f1 integer, f2 integer)",
                insertSeries(name, "g, " + (n + 1) + " - g", 1, n),
                "CREATE INDEX " + name + "_f1 ON " + name + " (f1)");
    }

    /**
     * A filter on the column that is not indexed: a full walk (scan) that returns one row; 10 walks.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): N = 10^5: 10 walks ~115 ms, setup 0.4 s.
     */
    public static final class FastPathFilterNoIndex extends FastPath {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("fp_noindex", n());
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(10, expect("SELECT f1, f2 FROM fp_noindex WHERE f2 = 1", n(), 1)));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("fp_noindex");
        }
    }

    /**
     * A lookup of one key of the index; 30 lookups.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): N = 10^5: 4-9 ms per lookup, 30 lookups
     * 130-280 ms.
     */
    public static final class FastPathFilterIndex extends FastPath {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("fp_index", n());
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(30, expect("SELECT f1, f2 FROM fp_index WHERE f1 = 1", 1, n())));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("fp_index");
        }
    }

    /**
     * The top rows by the indexed column: {@code ORDER BY f1 DESC LIMIT 1 OFFSET 99} reads the top
     * 100 and returns the 100th, so a wrong order shows; 4 reads.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): N = 10^5: ~70 ms per read (the walk
     * visits the whole index), 4 reads ~300 ms.
     */
    public static final class FastPathOrderByLimit extends FastPath {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("fp_orderby", n());
        }

        @Override
        public Body benchmark() {
            long hundredth = Math.max(1, n() - 99);
            return Body.script(repeatTimed(4, expect("SELECT f1 FROM fp_orderby ORDER BY f1 DESC LIMIT 1 OFFSET "
                    + (n() - hundredth), hundredth)));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("fp_orderby");
        }
    }

    /**
     * Any 100 rows ({@code LIMIT} without an order); 5 reads.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): N = 10^5: ~70 ms per read (the walk is
     * not cut short at 100 rows), 5 reads ~350 ms.
     */
    public static final class FastPathLimit extends FastPath {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String init() {
            return table("fp_limit", n());
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(5, "SELECT f1, f2 FROM fp_limit LIMIT 100"));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("fp_limit");
        }
    }
}
