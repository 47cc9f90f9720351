package io.stillwater.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadDumpTest {
    private final Object monitor = new Object();

    @Test
    void showsEveryFrameTheLockAThreadIsBlockedOnAndItsOwner() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().name("dump-holder").start(() -> {
            synchronized (monitor) {
                held.countDown();
                awaitQuietly(release);
            }
        });
        held.await();
        Thread blocked = Thread.ofPlatform().name("dump-blocked").start(() -> deep(15));
        try {
            while (blocked.getState() != Thread.State.BLOCKED) Thread.onSpinWait(); // reaches the monitor at once

            String all = ThreadDump.allThreads();
            String one = ThreadDump.of(List.of(blocked));

            assertThat(all).contains("\"dump-holder\"", "\"dump-blocked\"");
            assertThat(one).contains("\"dump-blocked\" prio=5 id=" + blocked.threadId() + " BLOCKED on java.lang.Object@")
                    .contains("owned by \"dump-holder\" id=" + holder.threadId())
                    .contains("-  blocked on java.lang.Object@");
            assertThat(one.lines().filter(l -> l.contains("ThreadDumpTest.deep("))).hasSize(16);
            String holderSection = ThreadDump.of(List.of(holder));
            assertThat(holderSection).contains("-  locked java.lang.Object@");
        } finally {
            release.countDown();
            holder.join();
            blocked.join();
        }
    }

    private void deep(int depth) {
        if (depth > 0) {
            deep(depth - 1);
            return;
        }
        synchronized (monitor) {
            monitor.notifyAll(); // anything: the point is to block on entry
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
