package io.stillwater.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real {@code stillwater serve} process (a child JVM on this test's classpath), for
 * tests that must kill the server the way a crash does.
 */
final class ServeProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on [^\\s:]+:(\\d+)");

    private final Process process;
    private final int port;
    private final List<String> output = new CopyOnWriteArrayList<>();

    private ServeProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static ServeProcess start(Path dataDir) throws IOException, InterruptedException {
        return start(dataDir, List.of());
    }

    /** As {@link #start(Path)}, with {@code jvmOptions} on the child's java command line (before the class). */
    static ServeProcess start(Path dataDir, List<String> jvmOptions) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"),
                StillwaterCli.class.getName(), "serve", "--listen", "127.0.0.1", "--port", "0",
                "--data-dir", dataDir.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) port.complete(Integer.parseInt(m.group(1)));
                }
            } catch (IOException ignored) {
                // process ended
            }
            port.completeExceptionally(new IllegalStateException("serve exited before listening: " + lines));
        }, "serve-output");
        reader.setDaemon(true);
        reader.start();
        try {
            ServeProcess sp = new ServeProcess(p, port.get(120, TimeUnit.SECONDS));
            sp.output.addAll(lines);
            return sp;
        } catch (Exception e) {
            p.destroyForcibly();
            throw new IllegalStateException("serve did not start: " + lines, e);
        }
    }

    int port() { return port; }

    Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/materialize?user=materialize");
    }

    /** SIGKILL: no shutdown hook, no flush, exactly like a crash. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    List<String> output() { return output; }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) kill();
    }
}
