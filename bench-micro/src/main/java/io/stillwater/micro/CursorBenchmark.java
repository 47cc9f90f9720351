package io.stillwater.micro;

import io.stillwater.engine.arrange.Cursor;
import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.arrange.TraceSnapshot;
import io.stillwater.engine.data.Row;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Cursors over a two-int table's default index of {@code rows} rows, as a peek reads it:
 *
 * <ul>
 *   <li>{@link #seekPointLookup}: {@link TraceSnapshot#lookup} of a random existing key (a
 *       binary search per batch, then the key's values accumulated at the read time): the
 *       arrangement's share of a point lookup;</li>
 *   <li>{@link #scanAll}: {@link TraceSnapshot#forEachAt} over every row (a full walk, the
 *       arrangement's share of an unindexed filter); time per whole scan;</li>
 *   <li>{@link #stepKeys}: the raw cursor stepping over every key, no accumulation; time per whole scan.</li>
 * </ul>
 *
 * {@code batches} is how many batches the rows were inserted in; the spine merges some of them,
 * so a snapshot holds one to a few batches (more batches: more binary searches per seek).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CursorBenchmark {
    @Param({"100000"})
    public int rows;

    @Param({"1", "7"})
    public int batches;

    private TraceSnapshot snapshot;
    private long readTime;
    private SplittableRandom random;

    @Setup(Level.Trial)
    public void build() {
        Spine spine = Updates.filledSpine(rows, batches);
        snapshot = spine.snapshot();
        readTime = snapshot.upper() - 1;
        random = new SplittableRandom(7);
    }

    @Benchmark
    public void seekPointLookup(Blackhole bh) {
        Row key = Updates.key(random.nextInt(rows));
        snapshot.lookup(key, readTime, (k, v, d) -> bh.consume(v));
    }

    @Benchmark
    public long scanAll() {
        long[] count = {0};
        snapshot.forEachAt(readTime, (k, v, d) -> count[0] += d);
        return count[0];
    }

    /** Each key goes to {@code bh}: a loop that only counts would be folded away by the JIT over one batch. */
    @Benchmark
    public long stepKeys(Blackhole bh) {
        Cursor c = snapshot.cursor();
        long n = 0;
        while (c.keyValid()) {
            bh.consume(c.key());
            n++;
            c.stepKey();
        }
        return n;
    }
}
