package io.stillwater.targets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Stillwater {@code serve} in a child JVM: {@code java [JVM options] (-jar JAR | -cp CP MAIN) serve
 * --port 0 --data-dir DIR [serve options]}. {@link #start} returns once the process logged
 * "listening on HOST:PORT"; {@link #stop()} sends SIGTERM (a graceful shutdown) and SIGKILLs after
 * {@value #GRACE_SECONDS} s; {@link #kill()} is a crash; {@link #restart()} stops it and starts the
 * same command on the same data directory.
 *
 * <p>Threads: each child has a reader thread (owned by this object, daemon) that drains its merged
 * stdout/stderr for the child's whole life, so the child never blocks on a full pipe, and keeps the
 * last {@value #KEPT_LINES} lines ({@link #output()}). Everything else is called by the one thread
 * that owns the server (a test, or the bench thread running a scenario), which alone replaces
 * {@link #child}.
 */
public final class ServeProcess implements LoopbackStillwater {
    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");
    /** Lines of output kept per child: enough for startup messages and a failure's context. */
    private static final int KEPT_LINES = 1000;
    /** Lines quoted in a start failure's message (one line: failure texts are counted by their first line). */
    private static final int QUOTED_LINES = 30;
    /** How long a SIGTERMed process may take to shut down before it is killed. */
    private static final int GRACE_SECONDS = 30;

    /**
     * What to run: the java command line up to {@code serve} ({@code launcher}: JVM options and
     * {@code -jar JAR} or {@code -cp CP MAIN}) and the serve options beyond {@code --port 0
     * --data-dir DIR}.
     *
     * @param name how messages call the build, e.g. the jar's path
     */
    public record Command(String name, List<String> launcher, List<String> serveOptions) {
        public Command {
            launcher = List.copyOf(launcher);
            serveOptions = List.copyOf(serveOptions);
        }

        /**
         * Another build's shaded jar, run as {@code ./stillwater} runs serve: heap exhaustion ends the
         * process instead of leaving a limping server behind.
         */
        public static Command jar(Path jar) {
            return new Command(jar.toString(), List.of("-XX:+ExitOnOutOfMemoryError", "-jar", jar.toString()), List.of());
        }

        /** {@code mainClass} on this JVM's class path (tests of the CLI itself), with {@code jvmOptions}. */
        public static Command classPath(String mainClass, List<String> jvmOptions) {
            List<String> l = new ArrayList<>(jvmOptions);
            l.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
            return new Command("serve", l, List.of());
        }

        /** This command with {@code options} appended after serve's own. */
        public Command withServeOptions(List<String> options) {
            List<String> all = new ArrayList<>(serveOptions);
            all.addAll(options);
            return new Command(name, launcher, all);
        }

        List<String> commandLine(Path dataDir) {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(launcher);
            cmd.addAll(List.of("serve", "--port", "0", "--data-dir", dataDir.toString()));
            cmd.addAll(serveOptions);
            return cmd;
        }
    }

    private final Command command;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Duration startTimeout;
    private Child child; // replaced only by the owning thread (restart); null after stop()

    private ServeProcess(Command command, Path dataDir, boolean ownsDataDir, Duration startTimeout) {
        this.command = command;
        this.dataDir = dataDir;
        this.ownsDataDir = ownsDataDir;
        this.startTimeout = startTimeout;
    }

    /** Starts {@code command} on {@code dataDir}, which the caller owns (it survives {@link #close()}). */
    public static ServeProcess start(Command command, Path dataDir, Duration startTimeout) throws IOException {
        ServeProcess s = new ServeProcess(command, dataDir, false, startTimeout);
        s.child = Child.start(command, dataDir, startTimeout);
        return s;
    }

    /** Starts {@code command} on a new temporary data directory, deleted by {@link #close()}. */
    public static ServeProcess startInTempDirectory(Command command, Duration startTimeout) throws IOException {
        Path dir = Files.createTempDirectory("stillwater-serve");
        ServeProcess s = new ServeProcess(command, dir, true, startTimeout);
        try {
            s.child = Child.start(command, dir, startTimeout);
        } catch (IOException | RuntimeException e) {
            TempDirectories.deleteRecursively(dir);
            throw e;
        }
        return s;
    }

    /** The port the running child logged. */
    @Override
    public int port() {
        return running().port.join();
    }

    public Path dataDir() {
        return dataDir;
    }

    @Override
    public boolean restartable() {
        return true;
    }

    /** Stops the child gracefully (as {@link #stop()}) and starts the same command on the same data directory. */
    @Override
    public void restart() throws IOException {
        stop();
        child = Child.start(command, dataDir, startTimeout);
    }

    @Override
    public OptionalLong processId() {
        return child == null ? OptionalLong.empty() : OptionalLong.of(child.process.pid());
    }

    /** The current (or last) child's exit code, once it has exited. */
    public OptionalInt exitCode() {
        Child c = child;
        return c == null || c.process.isAlive() ? OptionalInt.empty() : OptionalInt.of(c.process.exitValue());
    }

    /** The current child's output so far (its last {@value #KEPT_LINES} lines). */
    public List<String> output() {
        return running().lines();
    }

    /**
     * SIGTERM (the server stops accepting, the engine closes its log), then SIGKILL if the child has
     * not exited within {@value #GRACE_SECONDS} s. Returns once it is gone, so a restart on the same
     * data directory never overlaps the old process; idempotent.
     */
    public void stop() {
        if (child != null) {
            child.terminate();
        }
    }

    /** SIGKILL: no shutdown hook, no flush, exactly like a crash. Returns once the child is gone. */
    public void kill() {
        if (child != null) {
            child.process.destroyForcibly();
            child.await(60);
        }
    }

    /** {@link #stop()}, then deletes the data directory if this object created it. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            if (ownsDataDir) {
                TempDirectories.deleteRecursively(dataDir);
            }
        }
    }

    private Child running() {
        if (child == null) {
            throw new IllegalStateException(command.name() + " serve is not running");
        }
        return child;
    }

    /** One child process, its reader thread and the output that thread keeps. */
    private static final class Child {
        private final Process process;
        private final Deque<String> kept = new ArrayDeque<>(); // guarded by itself; written by the reader thread
        private final CompletableFuture<Integer> port = new CompletableFuture<>();

        private Child(Process process) {
            this.process = process;
        }

        static Child start(Command command, Path dataDir, Duration timeout) throws IOException {
            Process p = new ProcessBuilder(command.commandLine(dataDir)).redirectErrorStream(true).start();
            Child c = new Child(p);
            Thread reader = new Thread(c::drain, "serve-output-" + p.pid());
            reader.setDaemon(true);
            reader.start();
            try {
                c.port.get(timeout.toSeconds(), TimeUnit.SECONDS);
                return c;
            } catch (TimeoutException e) {
                c.terminate();
                throw new IOException(command.name() + " serve did not log \"listening on\" within " + timeout.toSeconds()
                        + " s; its output: " + c.quoted());
            } catch (ExecutionException e) {
                String status = c.await(5) ? String.valueOf(p.exitValue()) : "(still running)";
                c.terminate();
                throw new IOException(command.name() + " serve exited with status " + status
                        + " before listening; its output: " + c.quoted());
            } catch (InterruptedException e) {
                c.terminate();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting " + command.name() + " serve");
            }
        }

        private void drain() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (kept) {
                        if (kept.size() == KEPT_LINES) {
                            kept.removeFirst();
                        }
                        kept.addLast(line);
                    }
                    if (!port.isDone()) {
                        Matcher m = LISTENING.matcher(line);
                        if (m.find()) {
                            port.complete(Integer.parseInt(m.group(2)));
                        }
                    }
                }
            } catch (IOException e) {
                // the process went away; fall through
            }
            port.completeExceptionally(new IOException("the process ended"));
        }

        List<String> lines() {
            synchronized (kept) {
                return List.copyOf(kept);
            }
        }

        /** The last lines as one line, once the child's last output has arrived. */
        private String quoted() {
            await(2);
            List<String> all = lines();
            return String.join(" | ", all.subList(Math.max(0, all.size() - QUOTED_LINES), all.size()));
        }

        /** Whether the child exited within {@code seconds}. */
        boolean await(int seconds) {
            try {
                return process.waitFor(seconds, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !process.isAlive();
            }
        }

        void terminate() {
            process.destroy();
            if (!await(GRACE_SECONDS)) {
                process.destroyForcibly();
                await(10);
            }
        }
    }
}
