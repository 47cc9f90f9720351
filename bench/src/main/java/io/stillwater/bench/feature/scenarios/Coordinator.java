package io.stillwater.bench.feature.scenarios;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * The fixed cost of a statement and of a connection, with no data involved: parsing, planning,
 * timestamp selection and the wire round trip; connection startup and authentication.
 */
public abstract class Coordinator extends FeatureScenario {

    /**
     * {@code SELECT 1}, 10^SCALE times in one timed span.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): ~0.5 ms per SELECT 1; 100 ~50 ms.
     */
    public static final class QueryLatency extends Coordinator {
        @Override
        public double defaultScale() {
            return 2;
        }

        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        public Body benchmark() {
            return Body.script(repeatTimed((int) n(), "SELECT 1"));
        }
    }

    /**
     * 10^SCALE (20) times: open a connection, run {@code SELECT 1}, close it.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): ~6 ms per connection; 20 ~125 ms (50
     * took 0.85 s on a busy host).
     */
    public static final class ConnectionLatency extends Coordinator {
        @Override
        public double defaultScale() {
            return 1.3;
        }

        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        public Body benchmark() {
            long times = n();
            return Body.timed(times + " x (connect; SELECT 1; close)", context -> {
                for (long i = 0; i < times; i++) {
                    try (Connection c = context.connect(); Statement st = c.createStatement();
                            ResultSet rs = st.executeQuery("SELECT 1")) {
                        if (!rs.next() || rs.getInt(1) != 1) {
                            throw new IllegalStateException("SELECT 1 did not return 1");
                        }
                    }
                }
            });
        }
    }
}
