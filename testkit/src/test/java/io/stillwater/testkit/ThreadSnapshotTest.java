package io.stillwater.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadSnapshotTest {
    @Test
    void aThreadStartedAfterTheSnapshotAndStillRunningIsReported() throws Exception {
        ThreadSnapshot before = ThreadSnapshot.take();
        CountDownLatch stop = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().name("stillwater-compute-0").start(() -> await(stop));
        try {
            assertThat(before.stillRunningAfter(Duration.ofMillis(50))).containsExactly(worker);
        } finally {
            stop.countDown();
            worker.join();
        }
        assertThat(before.stillRunningAfter(Duration.ZERO)).isEmpty();
    }

    @Test
    void aThreadThatEndsWhileWaitedForIsNotReported() throws Exception {
        ThreadSnapshot before = ThreadSnapshot.take();
        CountDownLatch stop = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().name("pgwire-conn-1").start(() -> await(stop));
        try (ExecutorService checker = Executors.newSingleThreadExecutor()) {
            CompletableFuture<List<Thread>> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return before.stillRunningAfter(Duration.ofMinutes(1));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, checker);
            stop.countDown(); // the worker ends while (or before) the check waits for it
            assertThat(running.get()).isEmpty();
        }
        worker.join();
    }

    @Test
    void threadsAliveAtTheSnapshotAndKnownGlobalThreadsAreNotReported() throws Exception {
        CountDownLatch stop = new CountDownLatch(1);
        Thread old = Thread.ofPlatform().name("stillwater-idle-tick").start(() -> await(stop));
        ThreadSnapshot before = ThreadSnapshot.take();
        Thread global = Thread.ofPlatform().name("ForkJoinPool.commonPool-worker-7").start(() -> await(stop));
        try {
            assertThat(before.startedSince()).doesNotContain(old, global);
        } finally {
            stop.countDown();
            old.join();
            global.join();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
