package io.stillwater.slt;

import io.stillwater.targets.EmbeddedServer;
import io.stillwater.targets.EmbeddedServerFactory;
import io.stillwater.targets.PgUrl;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * The default target: a fresh in-process Stillwater engine and wire server per file, started by
 * the {@link EmbeddedServerFactory} found on the class path (scripts set no system parameter
 * defaults). {@code reset-server} replaces the file's server with another fresh one.
 */
final class EmbeddedTargetProvider implements TargetProvider {
    private final EmbeddedServerFactory factory;

    EmbeddedTargetProvider(EmbeddedServerFactory factory) {
        this.factory = factory;
    }

    @Override
    public Target open(String fileName) throws SQLException {
        return new EmbeddedTarget(start());
    }

    private EmbeddedServer start() throws SQLException {
        try {
            return factory.start(Map.of());
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException("cannot start the embedded engine: " + e.getMessage(), "08001", e);
        }
    }

    @Override
    public String describe() {
        return "embedded Stillwater engine (" + factory.getClass().getName() + "), fresh per file";
    }

    @Override
    public void close() {}

    /** One file's server; used by the thread running the file, which alone replaces it on reset. */
    private final class EmbeddedTarget implements Target {
        private EmbeddedServer server;
        private JdbcConnector connector;

        EmbeddedTarget(EmbeddedServer server) {
            use(server);
        }

        private void use(EmbeddedServer s) {
            this.server = s;
            PgUrl url = PgUrl.parse(s.jdbcUrl());
            if (url.user().isEmpty()) {
                url = new PgUrl(url.hostPort(), url.database(), s.user(), s.password(), url.params());
            }
            this.connector = new JdbcConnector(url);
        }

        @Override
        public String describe() {
            return "embedded " + server.jdbcUrl();
        }

        @Override
        public Connection connect(String user, boolean simpleProtocol) throws SQLException {
            return connector.connect(user, simpleProtocol);
        }

        @Override
        public boolean canReset() {
            return true;
        }

        @Override
        public void reset() throws SQLException {
            server.close();
            use(start());
        }

        @Override
        public void close() {
            server.close();
        }
    }
}
