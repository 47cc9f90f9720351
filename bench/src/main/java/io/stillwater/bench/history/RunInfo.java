package io.stillwater.bench.history;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The metadata of one bench run: when, what was compared with what, on which machine.
 *
 * @param loadPhaseOverride the {@code --load-phase-duration} that replaced every load phase's
 *     declared duration, or null when each phase ran for its declared duration
 * @param host facts about the machine (see {@link #hostFacts()}), sorted by key
 */
public record RunInfo(Instant started, Instant finished, RunMode mode, String frameworkVersion, SideInfo thisSide,
        SideInfo otherSide, int runsPerSide, Duration loadPhaseOverride, Map<String, String> host) {

    /** The bench framework's version, stored with every run (bump when statistics change meaning). */
    public static final String FRAMEWORK_VERSION = "1.0.0";

    public RunInfo {
        if (runsPerSide < 1) {
            throw new IllegalArgumentException("runs per side must be at least 1, got " + runsPerSide);
        }
        host = Collections.unmodifiableMap(new TreeMap<>(host));
    }

    public Optional<Duration> loadPhaseDuration() {
        return Optional.ofNullable(loadPhaseOverride);
    }

    /** Facts about this machine and JVM that make two runs comparable or not. */
    public static Map<String, String> hostFacts() {
        Map<String, String> m = new TreeMap<>();
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("arch", System.getProperty("os.arch"));
        m.put("cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("max_heap_mb", Long.toString(Runtime.getRuntime().maxMemory() / (1024 * 1024)));
        try {
            m.put("hostname", InetAddress.getLocalHost().getHostName());
        } catch (IOException e) {
            m.put("hostname", "unknown");
        }
        return m;
    }
}
