package io.stillwater.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The one throwaway PostgreSQL starter against the real server binaries (postgresql-15; see test.sh). */
class ThrowawayPostgresTest {

    @Test
    void startsAReachableServerAsPostgresAndCloseStopsIt() throws Exception {
        String url;
        try (ThrowawayPostgres pg = ThrowawayPostgres.start()) {
            url = pg.jdbcUrl();
            assertThat(pg.url()).isEqualTo("postgresql://postgres@127.0.0.1:" + pg.port() + "/postgres");
            try (Connection c = pg.connect(); Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT current_user, current_setting('fsync'), current_setting('listen_addresses')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("postgres");
                assertThat(rs.getString(2)).as("throwaway data").isEqualTo("off");
                assertThat(rs.getString(3)).isEqualTo("127.0.0.1");
            }
            assertThat(pg.restartable()).isFalse();
        }
        assertThatThrownBy(() -> DriverManager.getConnection(url, "postgres", "").close())
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    }
}
