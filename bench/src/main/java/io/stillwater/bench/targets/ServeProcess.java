package io.stillwater.bench.targets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Another Stillwater build running as {@code java -XX:+ExitOnOutOfMemoryError -jar JAR serve --port 0 --data-dir DIR
 * [--system-parameter-default a=b;c=d]}. Started by {@link #start}, which returns once the process
 * logged "listening on HOST:PORT"; {@link #close()} kills it. A reader thread (owned by this
 * object) drains the process's merged output for its whole life, so the process never blocks on
 * a full pipe, and keeps the last lines for error messages.
 */
final class ServeProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");
    private static final int TAIL_LINES = 30;
    /** How long a SIGTERMed process may take to shut down before it is killed. */
    private static final int GRACE_SECONDS = 30;

    private final Process process;
    private final Deque<String> tail = new ArrayDeque<>(); // guarded by itself
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    private ServeProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::drain, "bench-serve-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static ServeProcess start(Path jar, Path dataDir, SideParams params, long timeoutSeconds) throws IOException {
        // As ./stillwater runs serve: heap exhaustion ends the process (reported as the scenario's
        // failure with its output) instead of leaving a limping server to measure.
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+ExitOnOutOfMemoryError", "-jar", jar.toString(), "serve", "--port", "0",
                "--data-dir", dataDir.toString()));
        if (!params.isEmpty()) {
            // Only when asked: a build without the flag still serves parameter-free runs.
            cmd.add("--system-parameter-default");
            cmd.add(params.render());
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        ServeProcess s = new ServeProcess(p);
        try {
            s.port.get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            s.close();
            throw new IOException(jar + " serve did not log \"listening on\" within " + timeoutSeconds + " s; its output: "
                    + s.tail());
        } catch (ExecutionException e) {
            s.close();
            throw new IOException(jar + " serve exited with status " + s.exitStatus() + " before listening; its output: "
                    + s.tail());
        } catch (InterruptedException e) {
            s.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting " + jar);
        }
        return s;
    }

    int port() {
        return port.join();
    }

    /** The serve process's operating-system id. */
    long pid() {
        return process.pid();
    }

    private void drain() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (tail) {
                    if (tail.size() == TAIL_LINES) {
                        tail.removeFirst();
                    }
                    tail.addLast(line);
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

    private String tail() {
        try {
            process.waitFor(2, TimeUnit.SECONDS); // let the last lines arrive
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (tail) {
            return String.join(" | ", tail); // one line: failure texts are counted by their first line
        }
    }

    private String exitStatus() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "(still running)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(unknown)";
        }
    }

    /**
     * SIGTERM (a graceful shutdown: the server stops accepting, the engine closes its log), then
     * SIGKILL if it has not exited within {@value #GRACE_SECONDS} s. Returns once the process is gone,
     * so a restart on the same data directory never overlaps the old process.
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
