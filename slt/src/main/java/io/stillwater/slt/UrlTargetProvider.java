package io.stillwater.slt;

import io.stillwater.targets.PgUrl;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The {@code --url} target: an existing server. Scripts assume an empty database and reuse
 * table names (select1 and select2 both create t1), so each file runs in a database of its own
 * ({@code CREATE DATABASE slt_<random>}), dropped afterwards. When the server refuses to create
 * databases, files share the URL's database and the run says so once.
 * {@code reset-server} is not possible here.
 */
final class UrlTargetProvider implements TargetProvider {
    private final JdbcConnector admin;
    private final PrintStream log;
    private boolean sharedDatabase;

    UrlTargetProvider(PgUrl url, PrintStream log) {
        this.admin = new JdbcConnector(url);
        this.log = log;
    }

    @Override
    public Target open(String fileName) throws SQLException {
        if (!sharedDatabase) {
            String db = "slt_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
            try (Connection c = admin.connect("", false); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE " + db);
                return new UrlTarget(new JdbcConnector(admin.url().withDatabase(db)), db);
            } catch (SQLException e) {
                if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                    throw e; // cannot reach the server at all
                }
                sharedDatabase = true;
                log.println("warning: cannot create a database per file (" + SqlError.of(e).summary()
                        + "); all files share " + admin.url() + " and see each other's tables");
            }
        }
        return new UrlTarget(admin, "");
    }

    @Override
    public String describe() {
        return admin.url().toString() + (sharedDatabase ? " (shared database)" : " (a fresh database per file)");
    }

    @Override
    public void close() {}

    private final class UrlTarget implements Target {
        private final JdbcConnector connector;
        private final String ownDatabase;

        UrlTarget(JdbcConnector connector, String ownDatabase) {
            this.connector = connector;
            this.ownDatabase = ownDatabase;
        }

        @Override
        public String describe() {
            return connector.url().toString();
        }

        @Override
        public Connection connect(String user, boolean simpleProtocol) throws SQLException {
            return connector.connect(user, simpleProtocol);
        }

        @Override
        public boolean canReset() {
            return false;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a --url target cannot be reset");
        }

        @Override
        public void close() {
            if (ownDatabase.isEmpty()) {
                return;
            }
            try (Connection c = admin.connect("", false); Statement st = c.createStatement()) {
                try {
                    st.execute("DROP DATABASE IF EXISTS " + ownDatabase + " WITH (FORCE)");
                } catch (SQLException e) {
                    // Servers without WITH (FORCE) (e.g. Materialize): the file's connections are closed already.
                    st.execute("DROP DATABASE IF EXISTS " + ownDatabase);
                }
            } catch (SQLException e) {
                log.println("warning: could not drop database " + ownDatabase + ": " + SqlError.of(e).summary());
            }
        }
    }
}
