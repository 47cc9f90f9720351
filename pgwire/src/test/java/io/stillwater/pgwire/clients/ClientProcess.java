package io.stillwater.pgwire.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a real PostgreSQL client as a child process against a server on 127.0.0.1: psql
 * (libpq) or Debian's python3 with psycopg2. Tests use these instead of imitating a client,
 * because what a client really sends (its catalog queries, COPY sub-protocol, cursors,
 * implicit BEGIN) is what has to work.
 *
 * <p>Both clients must be installed ({@code postgresql-client-15}, {@code python3-psycopg2};
 * {@code .ci/run} installs them): a missing client fails the test instead of skipping it.
 */
public final class ClientProcess {
    /** psql of PostgreSQL 15. */
    public static final Path PSQL = Path.of("/usr/bin/psql");
    /** Debian's python3, which has python3-psycopg2 (a pyenv python on PATH may not). */
    public static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final long TIMEOUT_SECONDS = 120;

    private ClientProcess() {}

    /** What a client process printed and how it exited. */
    public record Result(int exitCode, String out, String err) {
        /** The output, failing the test with stderr when the client did not exit 0. */
        public String ok() {
            assertThat(exitCode).as("client exited %d; stderr:%n%s%nstdout:%n%s", exitCode, err, out).isZero();
            return out;
        }
    }

    /**
     * psql {@code -X} (no ~/.psqlrc) connected to {@code database} as {@code user}; {@code stdin}
     * is fed to it (null for none).
     */
    public static Result psql(int port, String user, String database, String stdin, String... args)
            throws IOException, InterruptedException {
        assertThat(Files.isExecutable(PSQL)).as("psql must be installed (apt-get install postgresql-client-15)").isTrue();
        List<String> cmd = new ArrayList<>(List.of(PSQL.toString(), "-X", "-h", "127.0.0.1",
                "-p", String.valueOf(port), "-U", user, "-d", database));
        cmd.addAll(List.of(args));
        return run(cmd, stdin);
    }

    /**
     * psql {@code -X} connected with a whole libpq connection string {@code conninfo} (e.g.
     * {@code host=localhost port=P sslmode=verify-full sslrootcert=ca.pem ...}), whose
     * settings win over the environment's.
     */
    public static Result psqlConnecting(String conninfo, String stdin, String... args)
            throws IOException, InterruptedException {
        assertThat(Files.isExecutable(PSQL)).as("psql must be installed (apt-get install postgresql-client-15)").isTrue();
        List<String> cmd = new ArrayList<>(List.of(PSQL.toString(), "-X", "-d", conninfo));
        cmd.addAll(List.of(args));
        return run(cmd, stdin);
    }

    /** As {@link #psycopg2(int, String, String, String)}, with the whole DSN given. */
    public static Result psycopg2WithDsn(String dsn, String script) throws IOException, InterruptedException {
        assertThat(Files.isExecutable(PYTHON)).as("python3 must be installed at " + PYTHON).isTrue();
        ProcessBuilder pb = new ProcessBuilder(PYTHON.toString(), "-c", script);
        pb.environment().put("DSN", dsn + " connect_timeout=20");
        Result r = run(pb, null);
        assertThat(r.err()).as("python3-psycopg2 must be installed (apt-get install python3-psycopg2)")
                .doesNotContain("No module named 'psycopg2'");
        return r;
    }

    /**
     * Runs a Python script with psycopg2. The script gets the connection string in the
     * environment variable {@code DSN} ({@code host=127.0.0.1 port=P user=U dbname=D}) and should
     * print what the test asserts on and exit non-zero (an uncaught exception does) on failure.
     */
    public static Result psycopg2(int port, String user, String database, String script)
            throws IOException, InterruptedException {
        assertThat(Files.isExecutable(PYTHON)).as("python3 must be installed at " + PYTHON).isTrue();
        ProcessBuilder pb = new ProcessBuilder(PYTHON.toString(), "-c", script);
        pb.environment().put("DSN", "host=127.0.0.1 port=" + port + " user=" + user + " dbname=" + database
                + " connect_timeout=20");
        Result r = run(pb, null);
        assertThat(r.err()).as("python3-psycopg2 must be installed (apt-get install python3-psycopg2)")
                .doesNotContain("No module named 'psycopg2'");
        return r;
    }

    private static Result run(List<String> cmd, String stdin) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PGCONNECT_TIMEOUT", "20");
        pb.environment().put("PGSSLMODE", "prefer");
        return run(pb, stdin);
    }

    private static Result run(ProcessBuilder pb, String stdin) throws IOException, InterruptedException {
        Process p = pb.start();
        // Drain both pipes concurrently so a chatty client never blocks on a full pipe.
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        try (var in = p.getOutputStream()) {
            if (stdin != null) in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("client did not finish within " + TIMEOUT_SECONDS + " s: " + pb.command());
        }
        return new Result(p.exitValue(), out.join(), err.join());
    }

    private static String drain(InputStream s) {
        try (s) {
            return new String(s.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(could not read: " + e.getMessage() + ")";
        }
    }
}
