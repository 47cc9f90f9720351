package io.stillwater.testkit;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The last line of defence: Surefire kills a test JVM that runs longer than
 * {@code forkedProcessTimeoutInSeconds} (the poms set it from {@code
 * stillwater.test.forkTimeoutSeconds} and pass the same value here as a system property).
 * A killed JVM leaves no clue, so shortly before that moment this watchdog writes a full
 * thread dump to stderr and {@code target/hang-dumps/test-jvm-<pid>.txt}. Started once
 * per JVM by the first guarded test class; without the property it does nothing.
 */
final class ForkWatchdog {
    static final String THREAD_NAME = "testkit-fork-watchdog";
    static final String TIMEOUT_PROPERTY = "stillwater.test.forkTimeoutSeconds";

    private static boolean started; // guarded by ForkWatchdog.class

    private ForkWatchdog() {}

    static synchronized void ensureStarted() {
        if (started) return;
        started = true;
        long timeoutSeconds = Long.getLong(TIMEOUT_PROPERTY, 0);
        if (timeoutSeconds <= 0) return;
        // dump a minute before the kill (a tenth of the limit for short limits)
        Duration dumpAt = Duration.ofSeconds(timeoutSeconds - Math.min(60, timeoutSeconds / 10));
        Duration left = dumpAt.minusMillis(ManagementFactory.getRuntimeMXBean().getUptime());
        Thread.ofPlatform().daemon().name(THREAD_NAME).start(() -> {
            try {
                Thread.sleep(Math.max(0, left.toMillis())); // a one-shot timer, not a polling loop
            } catch (InterruptedException e) {
                return;
            }
            HangDumps.write("test-jvm-" + ProcessHandle.current().pid(), "fork watchdog: this test JVM has run "
                    + dumpAt.toSeconds() + " s; Surefire kills it at " + timeoutSeconds + " s ("
                    + TIMEOUT_PROPERTY + ")");
        });
    }
}
