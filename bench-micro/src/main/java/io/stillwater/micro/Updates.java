package io.stillwater.micro;

import io.stillwater.engine.arrange.Batch;
import io.stillwater.engine.arrange.Batcher;
import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.data.Row;
import java.util.SplittableRandom;

/**
 * The updates the spine and cursor benchmarks arrange: a two-int table {@code t(a int, b int)}
 * under an index on {@code a}, so key {@code (a)} and value {@code (a, b)} with {@code b = 2a}
 * (both packed by the batches into int columns; cursors and lookups materialize rows from them).
 */
final class Updates {
    private Updates() {}

    static Row key(int a) {
        return Row.of(a);
    }

    static Row val(int a) {
        return Row.of(a, 2 * a);
    }

    /** {@code n} inserts of random keys in {@code [0, keySpace)} at time {@code time}, sealed as one batch. */
    static Batch randomBatch(SplittableRandom random, int n, int keySpace, long time) {
        Batcher b = new Batcher(n);
        for (int i = 0; i < n; i++) {
            int a = random.nextInt(keySpace);
            b.add(key(a), val(a), time, 1);
        }
        return b.seal(time, time + 1);
    }

    /** A spine holding keys {@code 0..rows-1} (one insert each), inserted in {@code batches} batches at times 0, 1, ... */
    static Spine filledSpine(int rows, int batches) {
        Spine spine = new Spine(0);
        int per = Math.max(1, rows / batches);
        long time = 0;
        for (int start = 0; start < rows; start += per, time++) {
            Batcher b = new Batcher(per);
            for (int a = start; a < Math.min(rows, start + per); a++) {
                b.add(key(a), val(a), time, 1);
            }
            spine.insert(b.seal(time, time + 1));
        }
        return spine;
    }
}
