package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The wire server speaks the same protocol over each socket transport, and reports the one it uses. */
class TransportTest {
    @ParameterizedTest
    @EnumSource(Transport.class)
    void pgjdbcQueriesOverEachTransport(Transport transport) throws Exception {
        // epoll is asked for explicitly only where it loads (Linux x86-64): elsewhere that is refused.
        if (transport == Transport.EPOLL) assumeThat(Transport.epollUnavailability()).isNull();
        CannedSession.Probe probe = new CannedSession.Probe();
        try (PgServer server = new PgServer(probe.factory()).withTransport(transport).start("127.0.0.1", 0)) {
            Transport expected = transport == Transport.AUTO
                    ? (Transport.epollUnavailability() == null ? Transport.EPOLL : Transport.NIO) : transport;
            assertThat(server.transport()).isEqualTo(expected);
            String url = "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize?user=alice";
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
        }
    }
}
