package io.stillwater.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The live platform threads at one moment (by id: a thread id is never reused within a JVM),
 * so that the threads started after it can be found later. Virtual threads are not seen
 * ({@link Thread#getAllStackTraces()} lists platform threads only); a leaked virtual thread
 * that pins or parks a carrier shows up through the carrier pool only.
 */
record ThreadSnapshot(Set<Long> ids) {
    static ThreadSnapshot take() {
        return new ThreadSnapshot(liveThreads().stream().map(Thread::threadId).collect(Collectors.toUnmodifiableSet()));
    }

    /**
     * The threads started since this snapshot that are still alive after waiting for them
     * (joining each in turn) for at most {@code budget} in total, minus the {@link
     * KnownThreads known global ones}; ordered by name. Waiting lets a thread that a test
     * already told to stop (an executor shut down, an event loop closing) finish its last
     * steps without a false report.
     */
    List<Thread> stillRunningAfter(Duration budget) throws InterruptedException {
        long deadline = System.nanoTime() + budget.toNanos();
        List<Thread> running = new ArrayList<>();
        for (Thread t : startedSince()) {
            long left = deadline - System.nanoTime();
            if (left > 0) TimeUnit.NANOSECONDS.timedJoin(t, left);
            if (t.isAlive()) running.add(t);
        }
        running.sort(Comparator.comparing(Thread::getName));
        return running;
    }

    /** Live threads that were not alive at the snapshot and are not known global threads. */
    List<Thread> startedSince() {
        List<Thread> started = new ArrayList<>();
        for (Thread t : liveThreads()) {
            if (!ids.contains(t.threadId()) && t != Thread.currentThread() && !KnownThreads.mayOutliveClass(t)) {
                started.add(t);
            }
        }
        return started;
    }

    private static Set<Thread> liveThreads() { return Thread.getAllStackTraces().keySet(); }
}
