package io.stillwater.targets;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster, for tests and for measurements that compare with PostgreSQL:
 * {@code initdb} into a temporary directory, {@code pg_ctl start} on a free port bound to
 * 127.0.0.1 with trust authentication and fsync off (the data is thrown away), and
 * {@link #close()}: {@code pg_ctl stop -m immediate} and delete the directory. The cluster's
 * superuser is {@code postgres}.
 *
 * <p>Binaries come from {@code $STILLWATER_PG_BIN}, else the newest
 * {@code /usr/lib/postgresql/<version>/bin}, else {@code pg_config --bindir}; when they are missing
 * {@link MissingPostgresException} says what to install (nothing is skipped silently). The server
 * refuses to run as root, so when the JVM is root every server command runs as the {@code postgres}
 * OS user through {@code runuser}, and the directory is chowned to it.
 *
 * <p>Not thread-safe: started and closed by one owner (a test class, a measurement).
 */
public final class ThrowawayPostgres implements RunningServer {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

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
    public static ThrowawayPostgres start() throws IOException, InterruptedException, MissingPostgresException {
        Path bin = findBinaries();
        Path dir = Files.createTempDirectory("stillwater-pg-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        ThrowawayPostgres pg = new ThrowawayPostgres(bin, dir, freePort());
        try {
            if (isRoot()) {
                Files.setOwner(dir, postgresOsUser(dir));
            }
            Path data = dir.resolve("data");
            pg.run(List.of(pg.bin("initdb"), "-D", data.toString(), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C", "--no-sync"));
            pg.run(List.of(pg.bin("pg_ctl"), "-D", data.toString(), "-l", dir.resolve("server.log").toString(), "-w",
                    "-t", Long.toString(TIMEOUT.toSeconds()), "-o",
                    "-p " + pg.port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"));
            pg.running = true;
            return pg;
        } catch (IOException | InterruptedException | MissingPostgresException | RuntimeException e) {
            pg.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** libpq-style URL of the {@code postgres} database as superuser {@code postgres}. */
    public String url() {
        return "postgresql://postgres@127.0.0.1:" + port + "/postgres";
    }

    /** pgjdbc URL of the {@code postgres} database; connect as {@link #user()}. */
    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    @Override
    public String user() {
        return "postgres";
    }

    /** {@code pgbench} next to the server binaries, else the one on the PATH. */
    public Optional<Path> pgbench() {
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
            TempDirectories.deleteRecursively(dir);
        }
    }

    /** The server binaries (or the OS user to run them as) are missing; the message says what to install. */
    public static final class MissingPostgresException extends Exception {
        public MissingPostgresException(String message) {
            super(message);
        }
    }

    private String bin(String name) {
        return binDir.resolve(name).toString();
    }

    private static UserPrincipal postgresOsUser(Path dir) throws MissingPostgresException {
        try {
            return dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
        } catch (IOException e) {
            throw new MissingPostgresException("running as root, but there is no 'postgres' OS user to run the "
                    + "PostgreSQL server as (the server refuses root); install the postgresql-15 package or run "
                    + "as a non-root user");
        }
    }

    /** {@code $STILLWATER_PG_BIN}, else the newest {@code /usr/lib/postgresql/<version>/bin}, else {@code pg_config --bindir}. */
    static Path findBinaries() throws MissingPostgresException {
        String env = System.getenv("STILLWATER_PG_BIN");
        if (env != null && !env.isBlank()) {
            Path p = Paths.get(env);
            if (hasServerBinaries(p)) {
                return p;
            }
            throw new MissingPostgresException("STILLWATER_PG_BIN=" + env + " has no initdb/pg_ctl");
        }
        Path root = Paths.get("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                Optional<Path> best = versions.map(v -> v.resolve("bin"))
                        .filter(ThrowawayPostgres::hasServerBinaries)
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
            if (p.waitFor() == 0 && hasServerBinaries(Paths.get(out))) {
                return Paths.get(out);
            }
        } catch (IOException ignored) {
            // no pg_config: reported below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new MissingPostgresException("PostgreSQL server binaries (initdb, pg_ctl) not found: install "
                + "PostgreSQL 15 (apt-get install postgresql-15, giving /usr/lib/postgresql/15/bin) "
                + "or set STILLWATER_PG_BIN to the directory holding initdb and pg_ctl");
    }

    private static boolean hasServerBinaries(Path dir) {
        return Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"));
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
            if (!p.waitFor(TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", full));
            }
            if (p.exitValue() != 0) {
                Path serverLog = dir.resolve("server.log");
                String serverTail = Files.exists(serverLog) ? "\nserver.log:\n" + tail(serverLog) : "";
                throw new IOException("command failed (exit " + p.exitValue() + "): " + String.join(" ", full)
                        + "\n" + tail(log) + serverTail);
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
}
