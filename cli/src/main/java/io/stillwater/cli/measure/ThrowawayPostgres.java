package io.stillwater.cli.measure;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster for measurements: {@code initdb} into a temporary directory,
 * started with {@code pg_ctl} on a free port bound to 127.0.0.1 with trust authentication,
 * stopped ({@code -m immediate}) and deleted by {@link #close()}. The main-code twin of the slt
 * module's test-only {@code PostgresCluster} (same binary lookup, same root handling), which
 * main code cannot reach.
 *
 * <p>The server refuses to run as root, so when the JVM is root every server command runs as the
 * {@code postgres} OS user through {@code runuser}, and the directory is chowned to it. The
 * cluster's superuser is {@code postgres}. fsync is off: the cluster holds throwaway data.
 */
final class ThrowawayPostgres implements AutoCloseable {
    private static final long TIMEOUT_SECONDS = 120;

    private final Path binDir;
    private final Path dir;
    private final int port;
    private boolean running;

    private ThrowawayPostgres(Path binDir, Path dir, int port) {
        this.binDir = binDir;
        this.dir = dir;
        this.port = port;
    }

    /**
     * Initialises and starts a cluster; on any failure, whatever was started is stopped and the
     * directory deleted before the exception propagates.
     *
     * @throws MissingPostgresException the server binaries (or, as root, the postgres OS user) are missing
     */
    static ThrowawayPostgres start() throws IOException, InterruptedException, MissingPostgresException {
        Path bin = findBinaries();
        Path dir = Files.createTempDirectory("stillwater-measure-pg-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        ThrowawayPostgres pg = new ThrowawayPostgres(bin, dir, freePort());
        try {
            if (isRoot()) {
                UserPrincipal postgres;
                try {
                    postgres = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
                } catch (IOException e) {
                    throw new MissingPostgresException("running as root, but there is no 'postgres' OS user to run "
                            + "the PostgreSQL server as (the server refuses root); install the postgresql-15 package "
                            + "or run as a non-root user");
                }
                Files.setOwner(dir, postgres);
            }
            Path data = dir.resolve("data");
            pg.run(List.of(pg.bin("initdb"), "-D", data.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C", "--no-sync"));
            pg.run(List.of(pg.bin("pg_ctl"), "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w",
                    "-t", Long.toString(TIMEOUT_SECONDS), "-o",
                    "-p " + pg.port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"));
            pg.running = true;
            return pg;
        } catch (IOException | InterruptedException | MissingPostgresException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    int port() {
        return port;
    }

    /** pgjdbc URL of the {@code postgres} database (connect as user {@code postgres}); prepared from the first use. */
    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?prepareThreshold=1";
    }

    /** {@code pgbench} next to the server binaries, else the one on the PATH. */
    Optional<Path> pgbench() {
        Path p = binDir.resolve("pgbench");
        if (Files.isExecutable(p)) {
            return Optional.of(p);
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path q = Paths.get(d, "pgbench");
            if (!d.isEmpty() && Files.isExecutable(q)) {
                return Optional.of(q);
            }
        }
        return Optional.empty();
    }

    /** Stops the server immediately and deletes its directory; idempotent. */
    @Override
    public void close() {
        try {
            if (running) {
                run(List.of(bin("pg_ctl"), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop"));
            }
        } catch (IOException e) {
            System.err.println("stopping the throwaway PostgreSQL failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = false;
            deleteTree(dir);
        }
    }

    /** The server binaries are not installed; the message says what to install. */
    static final class MissingPostgresException extends Exception {
        MissingPostgresException(String message) {
            super(message);
        }
    }

    private String bin(String name) {
        return binDir.resolve(name).toString();
    }

    /** {@code $STILLWATER_PG_BIN}, else the newest {@code /usr/lib/postgresql/<version>/bin}. */
    static Path findBinaries() throws MissingPostgresException {
        String env = System.getenv("STILLWATER_PG_BIN");
        if (env != null && !env.isBlank()) {
            Path p = Paths.get(env);
            if (Files.isExecutable(p.resolve("initdb")) && Files.isExecutable(p.resolve("pg_ctl"))) {
                return p;
            }
            throw new MissingPostgresException("STILLWATER_PG_BIN=" + env + " has no initdb/pg_ctl");
        }
        Path root = Paths.get("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                Optional<Path> best = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                        .max(Comparator.comparingInt(b -> versionOf(b.getParent().getFileName().toString())));
                if (best.isPresent()) {
                    return best.get();
                }
            } catch (IOException ignored) {
                // reported below
            }
        }
        throw new MissingPostgresException("PostgreSQL server binaries (initdb, pg_ctl) not found: install "
                + "PostgreSQL 15 (apt-get install postgresql-15, giving /usr/lib/postgresql/15/bin) "
                + "or set STILLWATER_PG_BIN to the directory holding initdb and pg_ctl");
    }

    private static int versionOf(String name) {
        try {
            return Integer.parseInt(name.replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (isRoot()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Path log = Files.createTempFile("stillwater-measure-pg-cmd-", ".log");
        try {
            Process p = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile())
                    .directory(new File("/")).start();
            if (!p.waitFor(TIMEOUT_SECONDS + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", full));
            }
            if (p.exitValue() != 0) {
                Path serverLog = dir.resolve("server.log");
                String tail = Files.exists(serverLog) ? "\nserver.log:\n" + tail(serverLog) : "";
                throw new IOException("command failed (exit " + p.exitValue() + "): " + String.join(" ", full)
                        + "\n" + tail(log) + tail);
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
            System.err.println("cannot delete " + root + ": " + e.getMessage());
        }
    }
}
