package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.PgServer;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import io.stillwater.pgwire.tls.ServerTls;
import io.stillwater.pgwire.tls.TestCertificates;
import io.stillwater.pgwire.tls.TlsMode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * psql and psycopg2 (libpq, OpenSSL) over TLS against a server whose certificate a
 * throwaway test CA signed: {@code sslmode=verify-full} with that CA as {@code
 * sslrootcert} and {@code host=localhost}, {@code sslmode=require}, a client trusting
 * another CA refused, and plaintext refused with 28000 when TLS is required.
 */
class TlsClientsTest {
    @TempDir
    static Path dir;
    static TestCertificates certs;
    static EmbeddedStillwater db;
    static PgServer server;

    @BeforeAll
    static void start() {
        certs = TestCertificates.create(dir);
        db = new EmbeddedStillwater();
        server = new PgServer(db.engine()::connect)
                .withTls(ServerTls.load(certs.serverCertificate(), certs.serverKey(), TlsMode.REQUIRE))
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    private static String conninfo(String host, String ssl) {
        return "host=" + host + " port=" + server.boundPort() + " user=materialize dbname=materialize " + ssl;
    }

    private static String verifyFull(Path rootCert) {
        return conninfo("localhost", "sslmode=verify-full sslrootcert=" + rootCert);
    }

    @Test
    void psqlVerifyFullConnectsOverTlsAndConninfoSaysSo() throws Exception {
        String out = ClientProcess.psqlConnecting(verifyFull(certs.caCertificate()), "SELECT 6 * 7 AS answer;\n\\conninfo\n")
                .ok();
        assertThat(out).contains("42");
        // libpq's own report of the connection: protocol and cipher come from OpenSSL.
        assertThat(out).containsPattern("SSL connection \\(protocol: TLSv1\\.[23], cipher: [A-Z0-9_-]+");
    }

    @Test
    void psqlRequireConnectsWithoutVerifying() throws Exception {
        String out = ClientProcess.psqlConnecting(conninfo("127.0.0.1", "sslmode=require"), "\\conninfo\n").ok();
        assertThat(out).contains("SSL connection");
    }

    @Test
    void psqlTrustingAnotherCaRefusesTheServer() throws Exception {
        ClientProcess.Result r = ClientProcess.psqlConnecting(verifyFull(certs.otherCa()), "SELECT 1;\n");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("certificate verify failed");
    }

    @Test
    void psqlWithoutTlsIsRefusedWith28000() throws Exception {
        ClientProcess.Result r = ClientProcess.psqlConnecting(conninfo("127.0.0.1", "sslmode=disable"), "SELECT 1;\n");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("FATAL:  the server requires an encrypted connection (TLS)")
                .contains("sslmode=require");
    }

    @Test
    void psycopg2VerifyFullQueriesOverTls() throws Exception {
        String out = ClientProcess.psycopg2WithDsn(verifyFull(certs.caCertificate()), """
                import os, psycopg2
                conn = psycopg2.connect(os.environ["DSN"])
                conn.autocommit = True
                cur = conn.cursor()
                cur.execute("SELECT 'over tls'")
                print(cur.fetchone()[0])
                print("ssl_in_use", conn.info.ssl_in_use, conn.info.ssl_attribute("protocol"))
                conn.close()
                """).ok();
        assertThat(out).contains("over tls").containsPattern("ssl_in_use True TLSv1\\.[23]");
    }

    @Test
    void psycopg2WithoutTlsGets28000() throws Exception {
        String out = ClientProcess.psycopg2WithDsn(conninfo("127.0.0.1", "sslmode=disable"), """
                import os, psycopg2
                try:
                    psycopg2.connect(os.environ["DSN"])
                    print("connected")
                except psycopg2.OperationalError as e:
                    print("refused:", str(e).strip().splitlines()[0])
                """).ok();
        assertThat(out).startsWith("refused:").contains("FATAL:  the server requires an encrypted connection (TLS)");
    }
}
