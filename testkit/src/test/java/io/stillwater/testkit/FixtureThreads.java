package io.stillwater.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * Threads that the guard tests' fixture classes start and leave running on purpose: each
 * parks until the test releases it, ignoring interrupts (as a thread stuck in a socket
 * read would), so only {@link #releaseAll} ends it. Shared by the Jupiter and jqwik guard
 * tests; their fixtures run one at a time through a nested launcher.
 */
final class FixtureThreads {
    static volatile CountDownLatch release = new CountDownLatch(1);
    /** The thread the last fixture left running (or got stuck in), if any. */
    static volatile Thread fixtureThread;

    private FixtureThreads() {}

    /** Parks until released. */
    static void awaitRelease() {
        CountDownLatch latch = release;
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // not for us: only release ends this thread
            }
        }
    }

    /** Releases every parked fixture thread, waits for the last one to end, and re-arms. */
    static void releaseAll() throws InterruptedException {
        release.countDown();
        Thread t = fixtureThread;
        if (t != null) t.join();
        release = new CountDownLatch(1);
        fixtureThread = null;
    }
}
