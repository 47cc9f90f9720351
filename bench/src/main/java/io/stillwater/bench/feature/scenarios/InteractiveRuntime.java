package io.stillwater.bench.feature.scenarios;

import static io.stillwater.bench.feature.scenarios.ScriptBuilder.expect;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.insertSeries;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.script;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.scenario.Capability;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads that a replica with an interactive runtime serves apart from maintenance (peek dataflows,
 * introspection, lookups next to many maintained indexes), to compare with
 * {@code enable_compute_interactive_runtime} on and off: every scenario depends on that parameter
 * (the report prints its effective value on each side) and needs a target that has it
 * ({@link Capability#INTERACTIVE_RUNTIME}).
 */
public abstract class InteractiveRuntime extends FeatureScenario {
    static final String PARAMETER = "enable_compute_interactive_runtime";

    @Override
    public final Set<String> dependsOnParams() {
        return Set.of(PARAMETER);
    }

    @Override
    public final Set<Capability> requires() {
        EnumSet<Capability> all = EnumSet.of(Capability.INTERACTIVE_RUNTIME);
        all.addAll(alsoRequires());
        return all;
    }

    /** What the scenario needs besides {@link Capability#INTERACTIVE_RUNTIME}. */
    Set<Capability> alsoRequires() {
        return Set.of(Capability.ARRANGEMENTS);
    }

    /**
     * 10 x a join of two indexed materialized views of N rows each (a peek dataflow over two arrangements).
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10 joins at 10^4.5: 280-600 ms, so 10^4.2.
     */
    public static final class PeekDataflowJoin extends InteractiveRuntime {
        static final int REPEAT = 10;

        @Override
        public double defaultScale() {
            return 4.2;
        }

        @Override
        public String init() {
            return script("CREATE TABLE ir_join (f1 integer)", insertSeries("ir_join", "g", 1, n()),
                    "CREATE MATERIALIZED VIEW ir_join_mv1 AS SELECT f1 FROM ir_join",
                    "CREATE DEFAULT INDEX ON ir_join_mv1",
                    "CREATE MATERIALIZED VIEW ir_join_mv2 AS SELECT f1, f1 % 10 AS f2 FROM ir_join",
                    "CREATE DEFAULT INDEX ON ir_join_mv2");
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(REPEAT, expect("SELECT count(*) FROM ir_join_mv1 JOIN ir_join_mv2 "
                    + "ON ir_join_mv1.f1 = ir_join_mv2.f1", n())));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("ir_join");
        }
    }

    /**
     * 10^SCALE reads of {@code mz_introspection.mz_dataflow_arrangement_sizes} on a replica with 10 indexes.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 100 reads ~110 ms.
     */
    public static final class IntrospectionRead extends InteractiveRuntime {
        static final int INDEXES = 10;

        @Override
        public double defaultScale() {
            return 2;
        }

        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        Set<Capability> alsoRequires() {
            return Set.of(Capability.ARRANGEMENTS, Capability.INTROSPECTION);
        }

        @Override
        public String init() {
            StringBuilder sb = new StringBuilder(script("CREATE TABLE ir_introspect (f1 integer, f2 integer)",
                    insertSeries("ir_introspect", "g, g % 10", 1, 1000)));
            for (int i = 0; i < INDEXES; i++) {
                sb.append("CREATE INDEX ir_introspect_").append(i).append(" ON ir_introspect (f1 + ").append(i)
                        .append(");\n");
            }
            return sb.toString();
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed((int) n(),
                    "SELECT id, name, records FROM mz_introspection.mz_dataflow_arrangement_sizes"));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("ir_introspect");
        }
    }

    /**
     * 200 views {@code mi_v_i} ({@code f1 % 200 = i}) over one table of N rows, each with a default
     * index, and {@code mi_all_v}: an indexed count over their UNION ALL.
     */
    public abstract static class ManyIndexes extends InteractiveRuntime {
        static final int INDEXES = 200;

        @Override
        public String init() {
            StringBuilder sb = new StringBuilder(script("CREATE TABLE mi (f1 integer)",
                    insertSeries("mi", "g", 1, n())));
            StringBuilder union = new StringBuilder();
            for (int i = 0; i < INDEXES; i++) {
                sb.append("CREATE VIEW mi_v_").append(i).append(" AS SELECT f1 FROM mi WHERE f1 % ").append(INDEXES)
                        .append(" = ").append(i).append(";\n");
                sb.append("CREATE DEFAULT INDEX ON mi_v_").append(i).append(";\n");
                union.append(i == 0 ? "" : " UNION ALL ").append("SELECT f1 FROM mi_v_").append(i);
            }
            sb.append("CREATE VIEW mi_all_v AS SELECT count(*) AS c FROM (").append(union).append(") AS u;\n");
            sb.append("CREATE DEFAULT INDEX ON mi_all_v;\n");
            return sb.toString();
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("mi");
        }
    }

    /**
     * 100 lookups in one of the 200 indexed views while all of them are idle (the reference times
     * one lookup; one lookup is a few milliseconds, mostly noise, so it is repeated).
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4 rows: setup (401 DDL statements)
     * ~3 s, 100 lookups 100-250 ms.
     */
    public static final class ManyIndexesIdle extends ManyIndexes {
        @Override
        public double defaultScale() {
            return 4;
        }

        @Override
        public Body benchmark() {
            long key = Math.min(n(), INDEXES);
            return Body.script(repeatTimed(100, expect("SELECT f1 FROM mi_v_" + (key % INDEXES) + " WHERE f1 = " + key,
                    key)));
        }
    }

    /**
     * Restart, then until {@code mi_all_v} counts N again: 201 arrangements rehydrated.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4 rows: 0.5-0.9 s per restart, and
     * as much at 10^3 (the 201 dataflows dominate).
     */
    public static final class ManyIndexesRestart extends ManyIndexes {
        @Override
        public double defaultScale() {
            return 4;
        }

        @Override
        public boolean restarts() {
            return true;
        }

        @Override
        public Body benchmark() {
            long n = n();
            return Body.timed("restart; SELECT c FROM mi_all_v until it is " + n, context -> {
                context.restart();
                Startup.awaitValue(context, "SELECT c FROM mi_all_v", n);
            });
        }
    }

    /**
     * 100 lookups in a view with 200 indexes on the same key (199 re-exports of one arrangement);
     * its own setup instead of the 200 views.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^4 rows: setup 0.7 s, 100 lookups 80-130 ms.
     */
    public static final class ManyReexportsIdle extends ManyIndexes {
        @Override
        public double defaultScale() {
            return 4;
        }

        @Override
        public String init() {
            StringBuilder sb = new StringBuilder(script("CREATE TABLE mr (f1 integer)", insertSeries("mr", "g", 1, n()),
                    "CREATE VIEW mr_v AS SELECT f1 FROM mr"));
            for (int i = 0; i < INDEXES; i++) {
                sb.append("CREATE INDEX mr_v_").append(i).append(" ON mr_v (f1);\n");
            }
            return sb.toString();
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed(100, expect("SELECT f1 FROM mr_v WHERE f1 = 1", 1)));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("mr");
        }
    }
}
