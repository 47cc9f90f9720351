package io.stillwater.testkit;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Where a watchdog's thread dump goes: standard error (Surefire copies it into the test
 * report) and {@code <dir>/<name>.txt}, where {@code dir} is the system property {@value
 * #DIR_PROPERTY} (the poms set it to {@code target/hang-dumps} of the module) or {@code
 * target/hang-dumps} of the working directory. Next to it, {@code <name>.all-threads.txt}
 * holds the JVM's own dump, which also lists virtual threads (no lock details).
 */
final class HangDumps {
    static final String DIR_PROPERTY = "stillwater.test.hangDumps";

    private HangDumps() {}

    static Path dir() { return Path.of(System.getProperty(DIR_PROPERTY, "target/hang-dumps")); }

    /**
     * Writes {@code headline} and a full dump of all threads; returns the file written, or
     * null if it could not be written (the dump still went to stderr).
     */
    static synchronized Path write(String name, String headline) {
        String text = headline + "\n" + "at " + Instant.now() + "\n\n" + ThreadDump.allThreads();
        System.err.println("==== " + text + "==== end of thread dump (" + name + ")");
        System.err.flush();
        String safe = name.replaceAll("[^A-Za-z0-9._$-]", "_");
        Path file;
        try {
            Path dir = Files.createDirectories(dir());
            file = Files.writeString(dir.resolve(safe + ".txt"), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("could not write the hang dump to " + dir() + ": " + e);
            return null;
        }
        Path withVirtual = file.resolveSibling(safe + ".all-threads.txt");
        try {
            Files.deleteIfExists(withVirtual); // dumpThreads refuses an existing file
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(
                    withVirtual.toAbsolutePath().toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
        } catch (IOException | RuntimeException e) {
            System.err.println("could not write " + withVirtual + ": " + e);
        }
        return file;
    }
}
