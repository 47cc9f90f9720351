package io.stillwater.bench.feature.scenarios;

import static io.stillwater.bench.feature.scenarios.ScriptBuilder.a;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.b;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.expect;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.insertSeries;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.script;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;

/**
 * Writes: how long INSERT and UPDATE take to be acknowledged (durably: the engine fsyncs its log
 * before it answers) and, where a read follows, until an index over the table reflects them. Plain
 * tables and {@code CREATE INDEX ON t (col)} only, so every scenario runs on PostgreSQL too.
 */
public abstract class Dml extends FeatureScenario {

    /**
     * One {@code INSERT ... SELECT} of N rows into an empty table without indexes.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows: 35-130 ms.
     */
    public static final class Insert extends Dml {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String before() {
            return script(ScriptBuilder.dropTables("dml_insert"), "CREATE TABLE dml_insert (f1 integer, f2 integer)");
        }

        @Override
        public Body benchmark() {
            return Body.script(script(b(a(insertSeries("dml_insert", "g, g", 1, n()))),
                    expect("SELECT count(*) FROM dml_insert", n())));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_insert");
        }
    }

    /**
     * N single-row INSERT statements, each its own transaction (so N log syncs).
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): ~2.5 ms per insert (a log sync each);
     * 50 inserts ~120 ms.
     */
    public static final class ManySmallInserts extends Dml {
        @Override
        public double defaultScale() {
            return 1.7;
        }

        @Override
        public String init() {
            return "CREATE TABLE dml_small_inserts (f1 integer)";
        }

        @Override
        public Body benchmark() {
            return Body.script(ScriptBuilder.timedSeries(n(), i -> "INSERT INTO dml_small_inserts VALUES (" + i + ")"));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_small_inserts");
        }
    }

    /**
     * N single-row INSERT statements inside one transaction: one commit.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^2.5 = 316 inserts in one
     * transaction: 120-250 ms (10^3: 0.5-1.7 s).
     */
    public static final class InsertBatch extends Dml {
        @Override
        public double defaultScale() {
            return 2.5;
        }

        @Override
        public String init() {
            return "CREATE TABLE dml_batch (f1 integer)";
        }

        @Override
        public Body benchmark() {
            StringBuilder sb = new StringBuilder(a("BEGIN")).append(";\n");
            for (long i = 1; i <= n(); i++) {
                sb.append("INSERT INTO dml_batch VALUES (").append(i).append(");\n");
            }
            sb.append(b("COMMIT")).append(";\n");
            return Body.script(sb.toString());
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_batch");
        }
    }

    /**
     * One INSERT whose VALUES list has N rows (parsing and planning a long statement).
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4 values: 100-380 ms (10^3: ~35 ms).
     */
    public static final class InsertMultiRow extends Dml {
        @Override
        public double defaultScale() {
            return 4;
        }

        @Override
        public String init() {
            return "CREATE TABLE dml_multi_row (f1 integer)";
        }

        @Override
        public Body benchmark() {
            return Body.script(b(a("INSERT INTO dml_multi_row VALUES " + ScriptBuilder.valuesList(n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_multi_row");
        }
    }

    /**
     * One UPDATE of all N rows of an indexed table, then a count that waits for the index to catch up.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4.5 rows: 200-580 ms, so 10^4.3.
     */
    public static final class Update extends Dml {
        @Override
        public double defaultScale() {
            return 4.3;
        }

        @Override
        public String init() {
            return script("CREATE TABLE dml_update (f1 integer, f2 integer)",
                    insertSeries("dml_update", "g, 0", 1, n()),
                    "CREATE INDEX dml_update_f1 ON dml_update (f1)");
        }

        @Override
        public Body benchmark() {
            return Body.script(script(a("UPDATE dml_update SET f2 = f2 + 1"),
                    b(expect("SELECT count(*) FROM dml_update", n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_update");
        }
    }

    /**
     * 10 single-row UPDATEs by key of an indexed table of N rows.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10 updates in 10^4 rows: ~100 ms.
     */
    public static final class ManySmallUpdates extends Dml {
        static final int UPDATES = 10;

        @Override
        public double defaultScale() {
            return 4;
        }

        @Override
        public String init() {
            return script("CREATE TABLE dml_small_updates (f1 integer, f2 integer)",
                    insertSeries("dml_small_updates", "g, 0", 1, n()),
                    "CREATE INDEX dml_small_updates_f1 ON dml_small_updates (f1)");
        }

        @Override
        public Body benchmark() {
            long step = Math.max(1, n() / UPDATES);
            return Body.script(ScriptBuilder.timedSeries(UPDATES,
                    i -> "UPDATE dml_small_updates SET f2 = f2 + 1 WHERE f1 = " + Math.min(n(), i * step)));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_small_updates");
        }
    }

    /**
     * An INSERT of N rows into an empty indexed table, then a count: the write and the index
     * catching up with it.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows: 90-375 ms.
     */
    public static final class InsertAndSelect extends Dml {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public String before() {
            return script(ScriptBuilder.dropTables("dml_insert_select"),
                    "CREATE TABLE dml_insert_select (f1 integer, f2 integer)",
                    "CREATE INDEX dml_insert_select_f1 ON dml_insert_select (f1)");
        }

        @Override
        public Body benchmark() {
            return Body.script(script(a(insertSeries("dml_insert_select", "g, g", 1, n())),
                    b(expect("SELECT count(*) FROM dml_insert_select", n()))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("dml_insert_select");
        }
    }
}
