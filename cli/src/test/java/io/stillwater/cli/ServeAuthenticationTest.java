package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.cli.ListeningRules.Verdict;
import io.stillwater.pgwire.auth.AuthMethod;
import io.stillwater.targets.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;
import picocli.CommandLine;

/**
 * {@code serve --auth / --allow-insecure-remote / --bootstrap-superuser-password-file}: who
 * may listen where, the refusal's message and exit code, the warning of an insecure remote
 * listener, and password authentication reaching the wire server.
 */
class ServeAuthenticationTest {
    @Test
    void loopbackAllowsEveryMethodButClearTextWithoutTls() {
        for (String host : List.of("127.0.0.1", "localhost", "::1")) {
            assertThat(ListeningRules.check(host, AuthMethod.TRUST, false, false)).as(host).isEqualTo(new Verdict.Allowed());
            assertThat(ListeningRules.check(host, AuthMethod.SCRAM_SHA_256, false, false)).isEqualTo(new Verdict.Allowed());
        }
        assertThat(ListeningRules.check("127.0.0.1", AuthMethod.PASSWORD, false, true))
                .isInstanceOfSatisfying(Verdict.Refused.class, r -> assertThat(r.reason())
                        .contains("--auth password").contains("--tls-mode require").contains("scram-sha-256"));
        assertThat(ListeningRules.check("127.0.0.1", AuthMethod.PASSWORD, true, false)).isEqualTo(new Verdict.Allowed());
    }

    @Test
    void aRemoteAddressNeedsPasswordsAndTlsOrTheExplicitInsecureFlag() {
        assertThat(ListeningRules.check("0.0.0.0", AuthMethod.SCRAM_SHA_256, true, false)).isEqualTo(new Verdict.Allowed());
        assertThat(ListeningRules.check("0.0.0.0", AuthMethod.TRUST, false, false))
                .isInstanceOfSatisfying(Verdict.Refused.class, r -> assertThat(r.reason())
                        .contains("0.0.0.0").contains("--auth scram-sha-256").contains("--tls-mode require")
                        .contains("--allow-insecure-remote"));
        assertThat(ListeningRules.check("0.0.0.0", AuthMethod.SCRAM_SHA_256, false, false))
                .isInstanceOfSatisfying(Verdict.Refused.class, r -> assertThat(r.reason())
                        .doesNotContain("Add --auth").contains("--tls-mode require"));
        assertThat(ListeningRules.check("0.0.0.0", AuthMethod.TRUST, true, false))
                .isInstanceOfSatisfying(Verdict.Refused.class, r -> assertThat(r.reason())
                        .contains("--auth scram-sha-256").doesNotContain("--tls-mode"));
        assertThat(ListeningRules.check("0.0.0.0", AuthMethod.TRUST, false, true))
                .isInstanceOfSatisfying(Verdict.Insecure.class, w -> assertThat(w.warning())
                        .contains("--allow-insecure-remote").contains("can connect as any role"));
    }

    @Test
    void serveRefusesAnInsecureRemoteListenerWithExitCode1AndNoDataDirectory(@TempDir Path dir) {
        Path data = dir.resolve("data");
        CliRun run = CliRun.of("serve", "--listen", "0.0.0.0", "--port", "0", "--data-dir", data.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("stillwater serve: refusing to start: listening on 0.0.0.0")
                .contains("--auth scram-sha-256").contains("--allow-insecure-remote");
        assertThat(data).doesNotExist();

        CliRun password = CliRun.of("serve", "--auth", "password", "--port", "0", "--data-dir", data.toString());
        assertThat(password.exitCode()).isEqualTo(1);
        assertThat(password.err()).contains("--auth password sends passwords in clear text");

        CliRun unknown = CliRun.of("serve", "--auth", "md5", "--data-dir", data.toString());
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown authentication method \"md5\"")
                .contains("trust, scram-sha-256, password");
    }

    @Test
    void allowInsecureRemoteStartsWithAWarning(@TempDir Path dir) throws Exception {
        ServeProcess.Command cmd = ServeProcess.Command.classPath(StillwaterCli.class.getName(), List.of())
                .withServeOptions(List.of("--listen", "0.0.0.0", "--allow-insecure-remote"));
        try (ServeProcess p = ServeProcess.start(cmd, dir.resolve("data"), Duration.ofSeconds(120))) {
            assertThat(p.output()).anySatisfy(l -> assertThat(l).contains("WARN").contains("--allow-insecure-remote")
                    .contains("0.0.0.0"));
        }
    }

    @Test
    void scramReachesTheWireServerAndTheSuperuserWithoutPasswordIsLockedOut(@TempDir Path dir) throws Exception {
        ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync",
                "--auth", "scram-sha-256");
        try (ServeCommand.Running running = serve.start()) {
            assertThat(running.server().authentication().method()).isEqualTo(AuthMethod.SCRAM_SHA_256);
            // A loaded machine can take longer than pgjdbc's default 10 s to answer a startup.
            String url = "jdbc:postgresql://127.0.0.1:" + running.port() + "/materialize?connectTimeout=60";
            assertThatThrownBy(() -> DriverManager.getConnection(url, "mz_system", "anything").close())
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("28P01");
                        assertThat(e.getServerErrorMessage().getMessage())
                                .isEqualTo("password authentication failed for user \"mz_system\"");
                    });
        }
    }

    @Test
    void theMockSecretPersistsInTheDataDirectorySoUnknownRolesSaltsSurviveRestarts(@TempDir Path dir) throws Exception {
        byte[][] secrets = new byte[2][];
        for (int i = 0; i < 2; i++) {
            ServeCommand serve = new ServeCommand();
            new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.toString(), "--no-fsync",
                    "--auth", "scram-sha-256");
            try (ServeCommand.Running running = serve.start()) {
                secrets[i] = running.server().authentication().mockSecret();
            }
        }
        assertThat(secrets[1]).isEqualTo(secrets[0]).hasSize(32);
        assertThat(java.nio.file.Files.getPosixFilePermissions(dir.resolve(MockAuthSecret.FILE_NAME)))
                .containsExactlyInAnyOrder(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        Files.writeString(dir.resolve(MockAuthSecret.FILE_NAME), "not hex\n");
        assertThatThrownBy(() -> MockAuthSecret.loadOrCreate(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is damaged");
    }

    @Test
    void anEmptyOrMissingBootstrapPasswordFileIsRefusedBeforeTheEngineOpens(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("pw"), "\n");
        for (Path file : List.of(empty, dir.resolve("missing"))) {
            ServeCommand serve = new ServeCommand();
            new CommandLine(serve).parseArgs("--port", "0", "--data-dir", dir.resolve("data").toString(),
                    "--bootstrap-superuser-password-file", file.toString());
            assertThatThrownBy(serve::start).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--bootstrap-superuser-password-file").hasMessageContaining(file.toString());
        }
        assertThat(dir.resolve("data")).doesNotExist();
        assertThat(SuperuserBootstrap.readPasswordFile(Files.writeString(dir.resolve("ok"), "s3cret\nignored\n")))
                .satisfies(v -> assertThat(v.verifyClientProof(new byte[0], new byte[32])).isFalse());
    }
}
