package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.runner.TargetLauncher;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Memory of a launched target after a measurement, per metric, in MiB:
 * <ul>
 *   <li>in-process (embedded): {@link Metric#MEMORY_HEAP}, heap used after {@code System.gc()};
 *   <li>jar: MEMORY_HEAP after asking the process to collect ({@code jcmd PID GC.run}) read from
 *       {@code mz_internal.mz_process_memory}, and {@link Metric#MEMORY_RSS} from
 *       {@code /proc/PID/status} (VmRSS);
 *   <li>url: MEMORY_HEAP (heap after the last GC) when the target exposes
 *       {@code mz_internal.mz_process_memory}, else nothing.
 * </ul>
 * A metric the target does not expose is absent from the map, never 0. Called on the thread
 * measuring the side, between measurements (never inside a timed span).
 */
public final class MemoryProbe {
    private static final double MIB = 1048576.0;
    private static final String RELATION = "mz_internal.mz_process_memory";
    /** How long {@code jcmd GC.run} may take before the sample goes without the collection. */
    private static final long JCMD_TIMEOUT_SECONDS = 60;
    /** How long an in-process sample waits for requested collections to be counted. */
    private static final long SETTLE_MILLIS = 200;

    private MemoryProbe() {
    }

    public static Map<Metric, Double> sample(TargetLauncher.LaunchedTarget target) {
        Map<Metric, Double> out = new EnumMap<>(Metric.class);
        if (target.inProcess()) {
            out.put(Metric.MEMORY_HEAP, inProcessHeapAfterGc() / MIB);
            return out;
        }
        if (target.processId().isPresent()) {
            long pid = target.processId().getAsLong();
            collect(pid);
            heapAfterGc(target).ifPresent(b -> out.put(Metric.MEMORY_HEAP, b / MIB));
            residentSetBytes(pid).ifPresent(b -> out.put(Metric.MEMORY_RSS, b / MIB));
            return out;
        }
        heapAfterGc(target).ifPresent(b -> out.put(Metric.MEMORY_HEAP, b / MIB));
        return out;
    }

    /**
     * Heap used after two full collections of this JVM. {@code System.gc()} is synchronous for the
     * usual collectors, but objects with cleaners or finalizers are only freed by a later collection,
     * so a second one follows. A collector that runs explicit requests concurrently
     * (-XX:+ExplicitGCInvokesConcurrent) may return before its cycle is counted: then this waits,
     * polling the cheap collection counter, for up to {@value #SETTLE_MILLIS} ms. A JVM that ignores
     * the requests (-XX:+DisableExplicitGC) gives a less settled figure after that wait.
     */
    static long inProcessHeapAfterGc() {
        long before = collections();
        System.gc();
        System.gc();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
        while (collections() < before + 2 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    /** Asks process {@code pid} to run a full GC with the bench JVM's jcmd; skipped when there is none. */
    static boolean collect(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return false; // a JRE without tools: the heap figure is the one after the process's last GC
        }
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** heap_after_gc_bytes of the target's mz_process_memory; empty when it has no such relation. */
    static OptionalLong heapAfterGc(TargetLauncher.LaunchedTarget target) {
        try (Connection c = target.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT heap_after_gc_bytes FROM " + RELATION)) {
            if (rs.next()) {
                long v = rs.getLong(1);
                if (!rs.wasNull()) {
                    return OptionalLong.of(v);
                }
            }
        } catch (SQLException e) {
            // the target does not expose it (PostgreSQL, an older build): no heap metric
        }
        return OptionalLong.empty();
    }

    /** VmRSS of process {@code pid} in bytes, from /proc; empty where that is unreadable. */
    static OptionalLong residentSetBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring("VmRSS:".length()).strip().split("\\s+");
                    long v = Long.parseLong(f[0]);
                    return OptionalLong.of(f.length > 1 && f[1].equalsIgnoreCase("kB") ? v * 1024 : v);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return OptionalLong.empty();
    }
}
