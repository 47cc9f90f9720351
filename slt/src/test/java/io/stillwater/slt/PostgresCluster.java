package io.stillwater.slt;

import io.stillwater.targets.ThrowawayPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A throwaway PostgreSQL cluster per test class: the JUnit lifecycle around the one
 * {@link ThrowawayPostgres} (which does the initdb, start, stop and delete, and says what to
 * install when the binaries are missing). Shared with bench and cli tests through this module's
 * test jar.
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresCluster PG = new PostgresCluster();
 * ... PG.url()  // postgresql://postgres@127.0.0.1:PORT/postgres
 * }</pre>
 */
public final class PostgresCluster implements BeforeAllCallback, AfterAllCallback {
    private ThrowawayPostgres pg; // set by beforeAll, cleared by afterAll: the test class's lifecycle thread

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        pg = ThrowawayPostgres.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (pg != null) {
            pg.close();
            pg = null;
        }
    }

    public int port() {
        return running().port();
    }

    /** libpq-style URL of the {@code postgres} database as superuser {@code postgres}. */
    public String url() {
        return running().url();
    }

    /** pgjdbc URL of the {@code postgres} database; connect as user {@code postgres}. */
    public String jdbcUrl() {
        return running().jdbcUrl();
    }

    public Connection connect() throws SQLException {
        return running().connect();
    }

    private ThrowawayPostgres running() {
        if (pg == null) {
            throw new IllegalStateException("the PostgreSQL cluster is not running: register it with @RegisterExtension");
        }
        return pg;
    }
}
