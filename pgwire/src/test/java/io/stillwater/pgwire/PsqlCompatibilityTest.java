package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * psql (libpq) against the server, when psql is installed: it sends SSLRequest (and
 * GSSENCRequest) before startup and uses the simple query protocol.
 */
class PsqlCompatibilityTest {
    private static final Path PSQL = Path.of("/usr/bin/psql");
    private CannedSession.Probe probe;
    private PgServer server;

    @BeforeEach
    void start() {
        assertThat(Files.isExecutable(PSQL)).as("psql must be installed (apt-get install postgresql-client-15; .ci/run does)").isTrue();
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory()).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
    }

    private record Result(int exitCode, String out, String err) {}

    private Result psql(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(PSQL.toString(), "-X", "-h", "127.0.0.1",
                "-p", String.valueOf(server.boundPort()), "-U", "alice", "-d", "materialize"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PGCONNECT_TIMEOUT", "20");
        pb.environment().put("PGSSLMODE", "prefer");
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void psqlRunsQueriesAndReportsErrors() throws Exception {
        Result ok = psql("-At", "-c", "SELECT 42");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out().strip()).isEqualTo("42");

        Result err = psql("-v", "ON_ERROR_STOP=1", "-c", "SELECT 1/0");
        assertThat(err.exitCode()).isNotZero();
        assertThat(err.err()).contains("ERROR:  division by zero");
        assertThat(probe.databases).containsOnly("materialize");
    }
}
