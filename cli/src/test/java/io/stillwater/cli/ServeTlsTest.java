package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.tls.TlsMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code serve --tls-cert/--tls-key/--tls-mode}: a certificate made with the openssl
 * command docs/security.md gives is served (TLS required by default), flags that do not
 * fit are refused, and a bad key path stops a real serve process before it opens the data
 * directory.
 */
class ServeTlsTest {
    @TempDir
    static Path certs;
    static Path cert;
    static Path key;

    @BeforeAll
    static void makeCertificate() throws Exception {
        cert = certs.resolve("server.crt");
        key = certs.resolve("server.key");
        // docs/security.md's self-signed recipe, as an operator would run it
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    private static ServeCommand serve(Path dataDir, String... tlsArgs) {
        ServeCommand serve = new ServeCommand();
        List<String> args = new java.util.ArrayList<>(List.of("--port", "0", "--data-dir", dataDir.toString(), "--no-fsync"));
        args.addAll(List.of(tlsArgs));
        new CommandLine(serve).parseArgs(args.toArray(String[]::new));
        return serve;
    }

    private static int selectOne(int port, String params) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port
                + "/materialize?user=materialize&" + params);
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    @Test
    void aCertificateMakesTlsRequiredByDefault(@TempDir Path dir) throws Exception {
        try (ServeCommand.Running running = serve(dir, "--tls-cert", cert.toString(), "--tls-key", key.toString()).start()) {
            assertThat(running.server().tls().mode()).isEqualTo(TlsMode.REQUIRE);
            assertThat(selectOne(running.port(), "sslmode=require")).isEqualTo(1);
            assertThatThrownBy(() -> selectOne(running.port(), "sslmode=disable"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28000"));
        }
    }

    @Test
    void allowModeServesPlaintextTooAndNoCertificateMeansNoTls(@TempDir Path dir) throws Exception {
        try (ServeCommand.Running running = serve(dir.resolve("a"), "--tls-cert", cert.toString(),
                "--tls-key", key.toString(), "--tls-mode", "ALLOW").start()) {
            assertThat(running.server().tls().mode()).isEqualTo(TlsMode.ALLOW);
            assertThat(selectOne(running.port(), "sslmode=disable")).isEqualTo(1);
            assertThat(selectOne(running.port(), "sslmode=require")).isEqualTo(1);
        }
        try (ServeCommand.Running running = serve(dir.resolve("b")).start()) {
            assertThat(running.server().tls()).isNull();
            assertThatThrownBy(() -> selectOne(running.port(), "sslmode=require"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("does not support SSL");
        }
    }

    @Test
    void flagsThatDoNotFitAreRefusedBeforeTheEngineOpens(@TempDir Path dir) {
        assertThatThrownBy(() -> serve(dir, "--tls-cert", cert.toString()).start())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--tls-cert and --tls-key must be given together");
        assertThatThrownBy(() -> serve(dir, "--tls-mode", "require").start())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--tls-mode=require needs --tls-cert FILE and --tls-key FILE");
        assertThatThrownBy(() -> serve(dir, "--tls-cert", cert.toString(), "--tls-key", key.toString(),
                "--tls-mode", "disable").start())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--tls-mode=disable contradicts");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void serveProcessWithABadKeyPathRefusesToStart(@TempDir Path dir) throws IOException, InterruptedException {
        Path missing = dir.resolve("missing.key");
        Path data = dir.resolve("data");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StillwaterCli.class.getName(), "serve",
                "--port", "0", "--data-dir", data.toString(),
                "--tls-cert", cert.toString(), "--tls-key", missing.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("stillwater serve: could not load private key file \"" + missing + "\": no such file");
        assertThat(data).doesNotExist();
    }
}
