package io.stillwater.slt;

import io.stillwater.targets.PgUrl;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.Driver;

/** Opens pgjdbc connections to one server address. Stateless; safe to share. */
final class JdbcConnector {
    private static final Driver DRIVER = new Driver();

    private final PgUrl url;

    JdbcConnector(PgUrl url) {
        this.url = url;
    }

    PgUrl url() {
        return url;
    }

    Connection connect(String user, boolean simpleProtocol) throws SQLException {
        Properties p = new Properties();
        String u = user == null || user.isEmpty() ? url.user() : user;
        if (!u.isEmpty()) {
            p.setProperty("user", u);
        }
        if (!url.password().isEmpty() && (user == null || user.isEmpty() || user.equals(url.user()))) {
            p.setProperty("password", url.password());
        }
        p.setProperty("ApplicationName", "stillwater-slt");
        if (simpleProtocol) {
            p.setProperty("preferQueryMode", "simple");
        }
        Connection c = DRIVER.connect(url.jdbcUrl(), p);
        if (c == null) {
            throw new SQLException("pgjdbc does not accept the URL " + url.jdbcUrl(), "08001");
        }
        return c;
    }
}
