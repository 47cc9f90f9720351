package io.stillwater.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A time limit on one piece of test code running on one thread (a jqwik property; Jupiter
 * methods use Jupiter's own {@code @Timeout} machinery, see {@link SuiteGuardExtension}). When
 * the limit passes first, the watchdog writes a full thread dump ({@link HangDumps}) and
 * interrupts the thread. One daemon thread serves the whole JVM.
 */
final class HangWatchdog {
    static final String THREAD_NAME = "testkit-hang-watchdog";

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, THREAD_NAME);
        t.setDaemon(true);
        return t;
    });

    private HangWatchdog() {}

    /** One armed limit; {@link #disarm()} exactly once, on the guarded thread, when the guarded code returns. */
    static final class Armed {
        /** Counted down when the watchdog has fired: dumped and interrupted. */
        private final CountDownLatch fired = new CountDownLatch(1);
        private ScheduledFuture<?> timer;

        /**
         * Stops the watchdog; true if it fired (the code overran its limit). Then it also
         * waits for the watchdog to finish and clears the interrupt it sent, which was meant
         * for the guarded code, not for what the thread runs next.
         */
        boolean disarm() {
            if (timer.cancel(false)) return false;
            boolean interrupted;
            do {
                try {
                    fired.await();
                    interrupted = false;
                } catch (InterruptedException e) {
                    interrupted = true; // the watchdog's own interrupt; keep waiting for it to finish
                }
            } while (interrupted);
            Thread.interrupted();
            return true;
        }
    }

    /** After {@code limit}, dumps all threads as {@code name} and interrupts {@code target}. */
    static Armed arm(Duration limit, String name, Thread target) {
        Armed armed = new Armed();
        armed.timer = TIMER.schedule(() -> {
            try {
                HangDumps.write(name, "hang guard: " + name + " ran longer than " + limit
                        + "; interrupting thread \"" + target.getName() + "\"");
                target.interrupt();
            } finally {
                armed.fired.countDown();
            }
        }, limit.toNanos(), TimeUnit.NANOSECONDS);
        return armed;
    }
}
