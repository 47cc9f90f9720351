package io.stillwater.bench.runner;

import io.stillwater.bench.scenario.Capability;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.Set;

/**
 * Something the bench runs scenarios against, reached only through JDBC: an embedded engine, a
 * launched jar or an existing server all look like this. Connections are autocommit.
 */
public interface Target {
    String jdbcUrl();

    /** The user ordinary actions connect as. */
    String user();

    default String password() {
        return "";
    }

    Set<Capability> capabilities();

    default Connection connect() throws SQLException {
        return connect(user());
    }

    /** A connection as {@code user} (system parameter phases use an administrative user). */
    default Connection connect(String user) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password());
        Connection c = DriverManager.getConnection(jdbcUrl(), p);
        c.setAutoCommit(true);
        return c;
    }

    static Target of(String jdbcUrl, String user, Set<Capability> capabilities) {
        record Simple(String jdbcUrl, String user, Set<Capability> capabilities) implements Target {
            Simple {
                capabilities = Set.copyOf(capabilities);
            }
        }
        return new Simple(jdbcUrl, user, capabilities);
    }
}
