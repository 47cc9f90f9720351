package io.stillwater.bench.feature.scenarios;

import static io.stillwater.bench.feature.scenarios.ScriptBuilder.insertSeries;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.script;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureContext;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.scenario.Capability;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;

/**
 * Restarting the server: a graceful stop and a start on the same data, until it answers (empty) or
 * until its maintained objects answer correctly again (loaded: log replay plus rehydration). Only on
 * targets the bench launched (embedded, jar:); a shared url server is never restarted, so these are
 * skipped there.
 */
public abstract class Startup extends FeatureScenario {
    /** How long a restarted target may take to answer correctly before the measurement fails. */
    static final Duration READY_DEADLINE = Duration.ofMinutes(2);

    @Override
    public boolean restarts() {
        return true;
    }

    /**
     * Runs {@code query} (a single value) on fresh connections until it returns {@code expected}: a
     * strict serializable read waits for hydration by itself, so this normally answers at once; a
     * wrong value is read again (never slept on) until {@link #READY_DEADLINE}.
     */
    static void awaitValue(FeatureContext context, String query, long expected) throws Exception {
        long deadline = System.nanoTime() + READY_DEADLINE.toNanos();
        String last;
        do {
            try (Connection c = context.connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(query)) {
                last = rs.next() ? rs.getString(1) : "no row";
                if (String.valueOf(expected).equals(last)) {
                    return;
                }
            }
        } while (System.nanoTime() < deadline);
        throw new SQLException("after the restart `" + query + "` still answered " + last + " instead of " + expected
                + " after " + READY_DEADLINE.toSeconds() + " s");
    }

    /**
     * An empty server: restart, then {@code SELECT 1}.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): an embedded restart: ~45 ms.
     */
    public static final class StartupEmpty extends Startup {
        @Override
        public double defaultScale() {
            return 0;
        }

        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        public Body benchmark() {
            return Body.timed("restart; SELECT 1", context -> {
                context.restart();
                awaitValue(context, "SELECT 1", 1);
            });
        }
    }

    /**
     * A server holding a table of N rows, an indexed view and an indexed materialized view over it:
     * restart, then until the indexed view's count is N again (the table's log replayed and the
     * arrangements rehydrated).
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5 rows: ~230 ms per restart.
     */
    public static final class StartupLoaded extends Startup {
        @Override
        public double defaultScale() {
            return 5;
        }

        @Override
        public Set<Capability> requires() {
            return Set.of(Capability.ARRANGEMENTS);
        }

        @Override
        public String init() {
            return script("CREATE TABLE su_loaded (f1 integer, f2 integer)",
                    insertSeries("su_loaded", "g, g % 10", 1, n()),
                    "CREATE VIEW su_loaded_v AS SELECT f1, f2 FROM su_loaded WHERE f1 > 0",
                    "CREATE DEFAULT INDEX ON su_loaded_v",
                    "CREATE MATERIALIZED VIEW su_loaded_mv AS SELECT f2, count(*) AS c FROM su_loaded GROUP BY f2",
                    "CREATE DEFAULT INDEX ON su_loaded_mv");
        }

        @Override
        public Body benchmark() {
            long n = n();
            return Body.timed("restart; SELECT count(*) FROM su_loaded_v until it is " + n
                    + " (after CREATE TABLE su_loaded with " + n + " rows, indexed view su_loaded_v and indexed "
                    + "materialized view su_loaded_mv)", context -> {
                        context.restart();
                        awaitValue(context, "SELECT count(*) FROM su_loaded_v", n);
                    });
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("su_loaded");
        }
    }
}
