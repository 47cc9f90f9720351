package io.stillwater.targets;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A stand-in for {@code stillwater serve} that {@link ServeProcessTest} launches in a child JVM:
 * {@code FakeServe serve --port 0 --data-dir DIR [--fail-before-listening]}. It appends "started"
 * to {@code DIR/starts} (so a restart on the same directory is visible), prints how many starts the
 * directory has seen, then listens on a loopback port and logs "listening on 127.0.0.1:PORT" as the
 * real server does, and waits until it is signalled.
 */
public final class FakeServe {
    private FakeServe() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        List<String> a = List.of(args);
        if (!a.get(0).equals("serve") || !a.get(1).equals("--port") || !a.get(3).equals("--data-dir")) {
            System.out.println("usage: serve --port 0 --data-dir DIR");
            System.exit(2);
        }
        Path starts = Path.of(a.get(4)).resolve("starts");
        Files.createDirectories(starts.getParent());
        Files.writeString(starts, "started\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.println("start number " + Files.readAllLines(starts).size());
        if (a.contains("--fail-before-listening")) {
            System.out.println("cannot open the data directory");
            System.exit(3);
        }
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            System.out.println("listening on 127.0.0.1:" + s.getLocalPort());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE); // until SIGTERM or SIGKILL
        }
    }
}
