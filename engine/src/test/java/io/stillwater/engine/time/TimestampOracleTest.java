package io.stillwater.engine.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TimestampOracleTest {
    @Test
    void writeTimestampsFollowTheClockAndNeverRepeat() {
        AtomicLong clock = new AtomicLong(1_000);
        TimestampOracle oracle = new TimestampOracle(clock::get);
        assertThat(oracle.writeTimestamp()).isEqualTo(1_000);
        assertThat(oracle.writeTimestamp()).isEqualTo(1_001); // same ms: last + 1
        clock.set(2_000);
        assertThat(oracle.writeTimestamp()).isEqualTo(2_000);
    }

    @Test
    void clockGoingBackwardsNeverMovesTimestampsBack() {
        AtomicLong clock = new AtomicLong(5_000);
        TimestampOracle oracle = new TimestampOracle(clock::get);
        long a = oracle.writeTimestamp();
        clock.set(4_000);
        long b = oracle.writeTimestamp();
        long c = oracle.writeTimestamp();
        assertThat(a).isEqualTo(5_000);
        assertThat(b).isEqualTo(5_001);
        assertThat(c).isEqualTo(5_002);
        clock.set(6_000);
        assertThat(oracle.writeTimestamp()).isEqualTo(6_000);
    }

    @Test
    void readTimestampIsTheLastAppliedWrite() {
        AtomicLong clock = new AtomicLong(100);
        TimestampOracle oracle = new TimestampOracle(clock::get);
        long first = oracle.readTimestamp(); // nothing written yet: now
        assertThat(first).isEqualTo(100);
        long w1 = oracle.writeTimestamp();
        assertThat(w1).isGreaterThan(first); // later writes come after earlier reads
        long w2 = oracle.writeTimestamp();
        assertThat(oracle.readTimestamp()).isEqualTo(first); // not applied yet
        oracle.applyWrite(w2);
        oracle.applyWrite(w1); // out of order: the read timestamp does not go back
        assertThat(oracle.readTimestamp()).isEqualTo(w2);
        clock.set(50);
        assertThat(oracle.readTimestamp()).isEqualTo(w2);
    }

    @Test
    void observeMakesLaterTimestampsGreater() {
        TimestampOracle oracle = new TimestampOracle(() -> 10);
        oracle.observe(1_000_000);
        assertThat(oracle.writeTimestamp()).isEqualTo(1_000_001);
        oracle.observe(5); // older: no effect
        assertThat(oracle.writeTimestamp()).isEqualTo(1_000_002);
        oracle.applyWrite(2_000_000); // an applied write also raises the floor
        assertThat(oracle.writeTimestamp()).isEqualTo(2_000_001);
        assertThat(oracle.readTimestamp()).isEqualTo(2_000_000);
    }

    @Test
    void concurrentCallersGetDistinctIncreasingTimestamps() throws Exception {
        // A clock that jitters backwards and forwards around a slowly rising value.
        AtomicLong ticks = new AtomicLong();
        TimestampOracle oracle = new TimestampOracle(() -> {
            long n = ticks.incrementAndGet();
            return 1_000 + n / 10 - (n % 7);
        });
        int threads = 4;
        int perThread = 20_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<long[]> results = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        AtomicLong readFailures = new AtomicLong();
        for (int i = 0; i < threads; i++) {
            long[] out = new long[perThread];
            results.add(out);
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    long lastRead = Long.MIN_VALUE;
                    for (int j = 0; j < perThread; j++) {
                        out[j] = oracle.writeTimestamp();
                        oracle.applyWrite(out[j]);
                        long r = oracle.readTimestamp();
                        // Monotonic reads, and at or after this thread's own applied write.
                        if (r < lastRead || r < out[j]) readFailures.incrementAndGet();
                        lastRead = r;
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            workers.add(th);
            th.start();
        }
        for (Thread th : workers) th.join();

        Set<Long> all = new HashSet<>();
        for (long[] out : results) {
            for (int j = 1; j < out.length; j++) assertThat(out[j]).isGreaterThan(out[j - 1]);
            for (long ts : out) all.add(ts);
        }
        assertThat(all).hasSize(threads * perThread);
        assertThat(readFailures.get()).isZero();
        long max = all.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(oracle.readTimestamp()).isEqualTo(max);
    }
}
