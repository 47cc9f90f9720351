package io.stillwater.testkit;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The last line of defence against a hung test JVM (one per module): the limit {@value
 * #TIMEOUT_PROPERTY} (seconds since the JVM started; the poms pass the value they also give
 * Surefire's {@code forkedProcessTimeoutInSeconds}). Surefire's own kill is not reliable: it
 * reports "There was a timeout in the fork" but leaves a JVM whose test ignores it running
 * (SUREFIRE-1722, seen with Surefire 3.5.2), so this watchdog enforces the limit itself. A
 * minute before it (a tenth of the limit for short limits) it writes a full thread dump to
 * stderr and {@code target/hang-dumps/test-jvm-<pid>.txt}; at the limit it halts the JVM, which
 * Surefire reports as a failed fork. Started once per JVM by the first guarded test class;
 * without the property it does nothing.
 */
final class ForkWatchdog {
    static final String THREAD_NAME = "testkit-fork-watchdog";
    static final String TIMEOUT_PROPERTY = "stillwater.test.forkTimeoutSeconds";
    /** The exit status of a JVM halted at its limit. */
    static final int HALT_STATUS = 97;

    private static boolean started; // guarded by ForkWatchdog.class

    private ForkWatchdog() {}

    static synchronized void ensureStarted() {
        if (started) return;
        started = true;
        long timeoutSeconds = Long.getLong(TIMEOUT_PROPERTY, 0);
        if (timeoutSeconds <= 0) return;
        Duration limit = Duration.ofSeconds(timeoutSeconds);
        Duration dumpAt = limit.minusSeconds(Math.min(60, timeoutSeconds / 10));
        Thread.ofPlatform().daemon().name(THREAD_NAME).start(() -> {
            try {
                sleepUntilUptime(dumpAt); // one-shot timers, not a polling loop
                String name = "test-jvm-" + ProcessHandle.current().pid();
                HangDumps.write(name, "fork watchdog: this test JVM has run " + dumpAt.toSeconds() + " s; it halts at "
                        + timeoutSeconds + " s (" + TIMEOUT_PROPERTY + ")");
                sleepUntilUptime(limit);
                System.err.println("fork watchdog: halting this test JVM after " + timeoutSeconds + " s ("
                        + TIMEOUT_PROPERTY + "); thread dump in " + HangDumps.dir().resolve(name + ".txt"));
                System.err.flush();
                Runtime.getRuntime().halt(HALT_STATUS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // nobody interrupts it; if someone does, stand down
            }
        });
    }

    private static void sleepUntilUptime(Duration uptime) throws InterruptedException {
        long left = uptime.toMillis() - ManagementFactory.getRuntimeMXBean().getUptime();
        if (left > 0) Thread.sleep(left);
    }
}
