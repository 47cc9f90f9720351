package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.RawClient.Body;
import io.stillwater.pgwire.RawClient.Msg;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import io.stillwater.pgwire.tls.ServerTls;
import io.stillwater.pgwire.tls.TestCertificates;
import io.stillwater.pgwire.tls.TlsMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the wire: SSLRequest answered {@code S} and a real handshake, {@code --tls-mode
 * require} refusing plaintext with 28000, what PostgreSQL refuses around the negotiation
 * (plaintext pipelined after SSLRequest, a second SSLRequest), failed handshakes costing
 * only their own connection, and pgjdbc with {@code sslmode=verify-full} against a CA the
 * test generated.
 */
class TlsServerTest {
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static EmbeddedStillwater db;
    /** TLS required (what serve chooses when given a certificate). */
    static PgServer required;
    /** TLS offered, plaintext accepted too. */
    static PgServer allowed;

    @BeforeAll
    static void start() {
        certs = TestCertificates.create(dir);
        db = new EmbeddedStillwater();
        required = new PgServer(db.engine()::connect)
                .withTls(ServerTls.load(certs.serverCertificate(), certs.serverKey(), TlsMode.REQUIRE))
                .start("127.0.0.1", 0);
        allowed = new PgServer(db.engine()::connect)
                .withTls(ServerTls.load(certs.ecCertificate(), certs.ecKey(), TlsMode.ALLOW))
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (required != null) required.close();
        if (allowed != null) allowed.close();
        if (db != null) db.close();
    }

    private static SSLContext trustingOurCa() throws Exception { return TestCertificates.clientTrusting(certs.ca()); }

    /** Sends an SSLRequest, expects {@code S} and completes a handshake verifying "localhost". */
    private static RawClient tlsClient(PgServer server) throws Exception {
        RawClient c = new RawClient(server.boundPort());
        c.sendUntyped(new Body().int32(SSL_REQUEST).bytes());
        assertThat(c.readByte()).isEqualTo('S');
        c.startTls(trustingOurCa(), "localhost");
        return c;
    }

    private static void assertFatal(List<Msg> msgs, String sqlState, String messagePart) {
        assertThat(msgs).isNotEmpty();
        Map<Character, String> f = msgs.getLast().fields();
        assertThat(msgs.getLast().type()).isEqualTo('E');
        assertThat(f).containsEntry('S', "FATAL").containsEntry('C', sqlState);
        assertThat(f.get('M')).contains(messagePart);
    }

    private static void assertServesOverTls(PgServer server) throws Exception {
        try (RawClient c = tlsClient(server)) {
            assertThat(c.startup(Map.of("user", "materialize")).getLast().type()).isEqualTo('Z');
            c.send('Q', RawClient.query("SELECT 40 + 2"));
            List<Msg> reply = c.readUntilReady();
            assertThat(RawClient.types(reply)).isEqualTo("TDCZ");
        }
    }

    @Test
    void sslRequestIsAnsweredSAndTheSessionRunsEncrypted() throws Exception {
        try (RawClient c = tlsClient(required)) {
            assertThat(((SSLSocket) c.socket()).getSession().getProtocol()).isIn("TLSv1.3", "TLSv1.2");
            assertThat(c.startup(Map.of("user", "materialize")).getLast().type()).isEqualTo('Z');
            c.send('Q', RawClient.query("SELECT 40 + 2"));
            List<Msg> reply = c.readUntilReady();
            assertThat(RawClient.types(reply)).isEqualTo("TDCZ");
            assertThat(new String(reply.get(1).body(), java.nio.charset.StandardCharsets.UTF_8)).endsWith("42");
            // The server side sees this connection behind a completed TLS handshake.
            assertThat(required.encryptedConnections()).isPositive();
        }
    }

    @Test
    void tls12ClientIsServedToo() throws Exception {
        try (RawClient c = new RawClient(required.boundPort())) {
            c.sendUntyped(new Body().int32(SSL_REQUEST).bytes());
            assertThat(c.readByte()).isEqualTo('S');
            SSLContext tls12 = SSLContext.getInstance("TLSv1.2");
            tls12.init(null, trustManagers(), null);
            c.startTls(tls12, "localhost");
            assertThat(((SSLSocket) c.socket()).getSession().getProtocol()).isEqualTo("TLSv1.2");
            assertThat(c.startup(Map.of("user", "materialize")).getLast().type()).isEqualTo('Z');
        }
    }

    private static javax.net.ssl.TrustManager[] trustManagers() throws Exception {
        java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", certs.ca());
        javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
        tmf.init(trust);
        return tmf.getTrustManagers();
    }

    @Test
    void plaintextStartupIsRefusedWith28000WhenTlsIsRequired() throws Exception {
        try (RawClient c = new RawClient(required.boundPort())) {
            List<Msg> msgs = startupExpectingRefusal(c);
            assertFatal(msgs, "28000", "the server requires an encrypted connection (TLS)");
            assertThat(msgs.getLast().fields().get('H')).contains("sslmode=require");
        }
        assertServesOverTls(required);
    }

    /** A StartupMessage without TLS, returning what the server answers up to closing. */
    private static List<Msg> startupExpectingRefusal(RawClient c) throws Exception {
        Body b = new Body().int32(3 << 16).cstring("user").cstring("materialize").int8(0);
        c.sendUntyped(b.bytes());
        return c.readUntilClosed();
    }

    @Test
    void plaintextAndTlsAreBothServedWhenAllowed() throws Exception {
        try (RawClient c = new RawClient(allowed.boundPort())) {
            assertThat(c.startup(Map.of("user", "materialize")).getLast().type()).isEqualTo('Z');
        }
        assertServesOverTls(allowed);
    }

    @Test
    void plaintextPipelinedAfterSslRequestIsRefused() throws Exception {
        // CVE-2021-23214: bytes sent before the server's answer were not encrypted and may
        // have been injected by a man in the middle; PostgreSQL refuses them, and so do we.
        try (RawClient c = new RawClient(required.boundPort())) {
            byte[] ssl = new Body().int32(8).int32(SSL_REQUEST).bytes();
            byte[] startup = new Body().int32(3 << 16).cstring("user").cstring("materialize").int8(0).bytes();
            byte[] both = new Body().raw(ssl).int32(startup.length + 4).raw(startup).bytes();
            c.sendRaw(both);
            assertFatal(c.readUntilClosed(), "08P01", "received unencrypted data after SSL request");
        }
        assertServesOverTls(required);
    }

    @Test
    void secondSslRequestInsideTlsIsAProtocolViolation() throws Exception {
        try (RawClient c = tlsClient(required)) {
            c.sendUntyped(new Body().int32(SSL_REQUEST).bytes());
            assertFatal(c.readUntilClosed(), "08P01", "SSL negotiation was already done on this connection");
        }
    }

    @Test
    void gssEncRequestIsStillRefusedAndTlsFollows() throws Exception {
        try (RawClient c = new RawClient(required.boundPort())) {
            c.sendUntyped(new Body().int32(GSSENC_REQUEST).bytes());
            assertThat(c.readByte()).isEqualTo('N');
            c.sendUntyped(new Body().int32(SSL_REQUEST).bytes());
            assertThat(c.readByte()).isEqualTo('S');
            c.startTls(trustingOurCa(), "localhost");
            assertThat(c.startup(Map.of("user", "materialize")).getLast().type()).isEqualTo('Z');
        }
    }

    @Test
    void plaintextInsteadOfAHandshakeClosesOnlyThatConnection() throws Exception {
        try (RawClient c = new RawClient(required.boundPort())) {
            c.sendUntyped(new Body().int32(SSL_REQUEST).bytes());
            assertThat(c.readByte()).isEqualTo('S');
            c.sendUntyped(new Body().int32(3 << 16).cstring("user").cstring("materialize").int8(0).bytes());
            // Whatever the TLS layer answers (an alert or nothing), the server closes.
            assertThat(c.socket().getInputStream().readAllBytes().length).isLessThan(64);
        }
        assertServesOverTls(required);
    }

    @Test
    void clientTrustingAnotherCaRefusesTheServer() throws Exception {
        try (RawClient c = new RawClient(required.boundPort())) {
            c.sendUntyped(new Body().int32(SSL_REQUEST).bytes());
            assertThat(c.readByte()).isEqualTo('S');
            java.security.cert.X509Certificate other = (java.security.cert.X509Certificate)
                    java.security.cert.CertificateFactory.getInstance("X.509")
                            .generateCertificate(java.nio.file.Files.newInputStream(certs.otherCa()));
            SSLContext wrongCa = TestCertificates.clientTrusting(other);
            assertThatThrownBy(() -> c.startTls(wrongCa, "localhost")).isInstanceOf(SSLHandshakeException.class);
        }
        assertServesOverTls(required);
    }

    // ---- pgjdbc ----

    private static String jdbcUrl(PgServer server, String host, String params) {
        return "jdbc:postgresql://" + host + ":" + server.boundPort() + "/materialize?user=materialize&" + params;
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    @Test
    void pgjdbcConnectsWithVerifyFullAgainstTheTestCa() throws Exception {
        int before = required.encryptedConnections();
        try (Connection c = DriverManager.getConnection(jdbcUrl(required, "localhost",
                "ssl=true&sslmode=verify-full&sslrootcert=" + certs.caCertificate()))) {
            assertThat(selectOne(c)).isEqualTo(1);
            assertThat(required.encryptedConnections()).isGreaterThan(before);
        }
    }

    @Test
    void pgjdbcConnectsWithSslmodeRequire() throws Exception {
        try (Connection c = DriverManager.getConnection(jdbcUrl(required, "127.0.0.1", "sslmode=require"))) {
            assertThat(selectOne(c)).isEqualTo(1);
        }
    }

    @Test
    void pgjdbcVerifyFullFailsAgainstAnotherCaOrAnotherName() {
        assertThatThrownBy(() -> DriverManager.getConnection(jdbcUrl(required, "localhost",
                "sslmode=verify-full&sslrootcert=" + certs.otherCa())))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("SSL error");
        // The certificate names localhost and 127.0.0.1, not 127.0.0.2.
        assertThatThrownBy(() -> DriverManager.getConnection(jdbcUrl(required, "127.0.0.2",
                "sslmode=verify-full&sslrootcert=" + certs.caCertificate())))
                .isInstanceOf(SQLException.class);
    }

    @Test
    void pgjdbcWithoutTlsIsRefusedWith28000WhenTlsIsRequired() {
        assertThatThrownBy(() -> DriverManager.getConnection(jdbcUrl(required, "127.0.0.1", "sslmode=disable")))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("28000");
                    assertThat(e.getMessage()).contains("the server requires an encrypted connection (TLS)");
                });
    }
}
