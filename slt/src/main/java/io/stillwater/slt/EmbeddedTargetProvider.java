package io.stillwater.slt;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The default target: a fresh in-process Stillwater engine and wire server per file, started
 * by the {@link EmbeddedTargetFactory} found on the class path.
 */
final class EmbeddedTargetProvider implements TargetProvider {
    private final EmbeddedTargetFactory factory;

    EmbeddedTargetProvider(EmbeddedTargetFactory factory) {
        this.factory = factory;
    }

    /** The first factory ServiceLoader finds, if any. */
    static Optional<EmbeddedTargetFactory> discover() {
        return ServiceLoader.load(EmbeddedTargetFactory.class).findFirst();
    }

    @Override
    public Target open(String fileName) throws SQLException {
        return new EmbeddedTarget(start());
    }

    private EmbeddedTargetFactory.EmbeddedServer start() throws SQLException {
        try {
            return factory.start();
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

    private final class EmbeddedTarget implements Target {
        private EmbeddedTargetFactory.EmbeddedServer server;
        private JdbcConnector connector;

        EmbeddedTarget(EmbeddedTargetFactory.EmbeddedServer server) {
            use(server);
        }

        private void use(EmbeddedTargetFactory.EmbeddedServer s) {
            this.server = s;
            PgUrl url = PgUrl.parse(s.jdbcUrl());
            if (url.user().isEmpty()) {
                url = new PgUrl(url.hostPort(), url.database(), s.defaultUser(), url.password(), url.params());
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
