package io.stillwater.bench.targets;

import io.stillwater.bench.scenario.Capability;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Properties;
import java.util.Set;

/**
 * Finds out what a running target can do by asking it, so the same rules hold for every kind of
 * target and for every build (an older jar lacks what a newer one has). Each probe is a read-only
 * query; a probe that fails means "lacks". Plain PostgreSQL ends with {@code INDEXES} only.
 */
public final class CapabilityProbe {
    /** The administrative user of Materialize and Stillwater; ALTER SYSTEM runs as this user. */
    public static final String ADMIN_USER = "mz_system";

    private CapabilityProbe() {
    }

    /**
     * @throws SQLException the target cannot be reached as {@code user} at all
     */
    public static Set<Capability> probe(String jdbcUrl, String user, String password) throws SQLException {
        Set<Capability> out = EnumSet.noneOf(Capability.class);
        try (Connection c = connect(jdbcUrl, user, password)) {
            if (succeeds(c, "SELECT 1 FROM mz_catalog.mz_indexes LIMIT 0")) {
                out.add(Capability.ARRANGEMENTS);
                out.add(Capability.INDEXES);
            } else if (succeeds(c, "SELECT 1 FROM pg_catalog.pg_indexes LIMIT 0")) {
                out.add(Capability.INDEXES);
            }
            if (succeeds(c, "SELECT 1 FROM mz_catalog.mz_clusters LIMIT 0")) {
                out.add(Capability.CLUSTERS);
            }
            if (succeeds(c, "SELECT 1 FROM mz_introspection.mz_active_peeks LIMIT 0")) {
                out.add(Capability.INTROSPECTION);
            }
            if (succeeds(c, "SHOW enable_compute_interactive_runtime")) {
                out.add(Capability.INTERACTIVE_RUNTIME);
            }
        }
        try (Connection admin = connect(jdbcUrl, ADMIN_USER, password)) {
            // max_result_size is a Materialize/Stillwater system parameter PostgreSQL lacks.
            if (succeeds(admin, "SHOW max_result_size")) {
                out.add(Capability.SYSTEM_PARAMETERS);
            }
        } catch (SQLException e) {
            // no such role, or not allowed: no ALTER SYSTEM
        }
        return out;
    }

    static Connection connect(String jdbcUrl, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "10");
        Connection c = DriverManager.getConnection(jdbcUrl, p);
        c.setAutoCommit(true);
        return c;
    }

    private static boolean succeeds(Connection c, String sql) {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
