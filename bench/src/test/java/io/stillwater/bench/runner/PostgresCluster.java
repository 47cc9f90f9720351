package io.stillwater.bench.runner;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A throwaway PostgreSQL cluster for tests: {@code initdb} into a temporary directory, start on
 * a free port bound to 127.0.0.1 with trust authentication, stop ({@code -m immediate}) and
 * delete afterwards. Self-contained so other modules can copy or share it.
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresCluster PG = new PostgresCluster();
 * ... PG.url()  // postgresql://postgres@127.0.0.1:PORT/postgres
 * }</pre>
 *
 * <p>Binaries come from {@code $STILLWATER_PG_BIN}, else the newest
 * {@code /usr/lib/postgresql/<version>/bin}, else {@code pg_config --bindir}. Missing binaries
 * fail the test with a message saying what to install: nothing is skipped silently. The
 * server refuses to run as root, so when the JVM is root every command runs as the
 * {@code postgres} OS user through {@code runuser}, and the directory is chowned to it.
 * The superuser of the cluster is always named {@code postgres}.
 */
public final class PostgresCluster implements BeforeAllCallback, AfterAllCallback {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private Path dir;
    private Path binDir;
    private int port;
    private boolean running;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    /** Initialises and starts the cluster; idempotent. */
    public synchronized void start() throws IOException, InterruptedException {
        if (running) {
            return;
        }
        binDir = findBinaries();
        dir = Files.createTempDirectory("stillwater-pg-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        if (isRoot()) {
            UserPrincipal postgres;
            try {
                postgres = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
            } catch (IOException e) {
                throw new IllegalStateException("running as root, but there is no 'postgres' OS user to run the "
                        + "PostgreSQL server as (the server refuses root); install the postgresql package or run "
                        + "the tests as a non-root user", e);
            }
            Files.setOwner(dir, postgres);
        }
        Path data = dir.resolve("data");
        run(List.of(bin("initdb"), "-D", data.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                "--locale=C", "--no-sync"));
        port = freePort();
        run(List.of(bin("pg_ctl"), "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w",
                "-t", Long.toString(START_TIMEOUT.toSeconds()), "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"));
        running = true;
    }

    /** Stops the server immediately and deletes its directory; idempotent. */
    public synchronized void stop() {
        if (dir == null) {
            return;
        }
        try {
            if (running) {
                run(List.of(bin("pg_ctl"), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop"));
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("PostgresCluster: stopping failed: " + e.getMessage());
        } finally {
            running = false;
            deleteTree(dir);
            dir = null;
        }
    }

    public int port() {
        return port;
    }

    /** libpq-style URL of the {@code postgres} database as superuser {@code postgres}. */
    public String url() {
        return "postgresql://postgres@127.0.0.1:" + port + "/postgres";
    }

    /** pgjdbc URL of the {@code postgres} database; connect as user {@code postgres}. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "");
    }

    private String bin(String name) {
        return binDir.resolve(name).toString();
    }

    private static Path findBinaries() {
        String env = System.getenv("STILLWATER_PG_BIN");
        if (env != null && !env.isBlank()) {
            Path p = Paths.get(env);
            if (Files.isExecutable(p.resolve("initdb")) && Files.isExecutable(p.resolve("pg_ctl"))) {
                return p;
            }
            throw new IllegalStateException("STILLWATER_PG_BIN=" + env + " has no initdb/pg_ctl");
        }
        Path root = Paths.get("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                var best = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                        .max(Comparator.comparingInt(b -> versionOf(b.getParent().getFileName().toString())));
                if (best.isPresent()) {
                    return best.get();
                }
            } catch (IOException ignored) {
                // fall through to pg_config
            }
        }
        try {
            Process p = new ProcessBuilder("pg_config", "--bindir").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.waitFor() == 0 && Files.isExecutable(Paths.get(out, "initdb"))) {
                return Paths.get(out);
            }
        } catch (IOException | InterruptedException ignored) {
            // reported below
        }
        throw new IllegalStateException("PostgreSQL server binaries (initdb, pg_ctl) not found: install "
                + "PostgreSQL 15 (e.g. apt-get install postgresql-15, giving /usr/lib/postgresql/15/bin) "
                + "or set STILLWATER_PG_BIN to the directory holding initdb and pg_ctl");
    }

    private static int versionOf(String name) {
        try {
            return Integer.parseInt(name.replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (isRoot()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path log = Files.createTempFile("stillwater-pg-cmd-", ".log");
        try {
            Process p = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile())
                    .directory(new File("/")).start();
            if (!p.waitFor(START_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", full));
            }
            if (p.exitValue() != 0) {
                String serverLog = dir != null && Files.exists(dir.resolve("server.log"))
                        ? "\nserver.log:\n" + tail(dir.resolve("server.log")) : "";
                throw new IOException("command failed (exit " + p.exitValue() + "): " + String.join(" ", full)
                        + "\n" + tail(log) + serverLog);
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("PostgresCluster: cannot delete " + root + ": " + e.getMessage());
        }
    }
}
