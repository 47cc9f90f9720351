package io.stillwater.pgwire.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.targets.EmbeddedServer;
import io.stillwater.targets.EmbeddedServerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The embedded target as slt and the benches find it: through the SPI, reached with pgjdbc only. */
class EmbeddedStillwaterFactoryTest {

    @Test
    void theServiceLoaderFindsThisModulesFactory() {
        assertThat(EmbeddedServerFactory.discover()).get().isInstanceOf(EmbeddedStillwaterFactory.class);
    }

    @Test
    void parameterDefaultsAreInPlaceAndTheServerRestartsOnItsDataAndCloseStopsIt() throws Exception {
        String urlAfterClose;
        try (EmbeddedServer s = new EmbeddedStillwaterFactory().start(Map.of("max_connections", "77"))) {
            assertThat(s.systemParameterDefaults()).containsExactly(Map.entry("max_connections", "77"));
            assertThat(s.user()).isEqualTo("materialize");
            assertThat(s.restartable()).isTrue();
            assertThat(s.inProcess()).isTrue();
            assertThat(show(s, "max_connections")).isEqualTo("77");
            try (Connection c = s.connect(); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (a int)");
                st.execute("INSERT INTO t VALUES (1), (2)");
            }

            s.restart();

            try (Connection c = s.connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT sum(a) FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("the same data directory after restart").isEqualTo(3);
            }
            assertThat(show(s, "max_connections")).as("the same defaults after restart").isEqualTo("77");
            urlAfterClose = s.jdbcUrl();
        }
        assertThatThrownBy(() -> DriverManager.getConnection(urlAfterClose, "materialize", "").close())
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    }

    @Test
    void anUnknownParameterOrABadValueFailsWithTheEnginesSqlstate() {
        EmbeddedStillwaterFactory f = new EmbeddedStillwaterFactory();
        assertThatThrownBy(() -> f.start(Map.of("no_such_parameter", "1")))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("unrecognized configuration parameter \"no_such_parameter\"")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42704"));
        assertThatThrownBy(() -> f.start(Map.of("enable_compute_interactive_runtime", "maybe")))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
    }

    private static String show(EmbeddedServer s, String name) throws SQLException {
        Properties admin = new Properties();
        admin.setProperty("user", "mz_system");
        try (Connection c = s.connect(admin); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW " + name)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }
}
