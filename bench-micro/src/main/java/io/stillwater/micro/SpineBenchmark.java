package io.stillwater.micro;

import io.stillwater.engine.arrange.Batch;
import io.stillwater.engine.arrange.Spine;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The spine (an arrangement's trace), on the updates of a two-int table's default index:
 *
 * <ul>
 *   <li>{@link #sealBatch}: sorting and consolidating {@value #BATCH_SIZE} random inserts into one
 *       columnar {@link Batch} (what every maintained arrangement does per step), time per batch;</li>
 *   <li>{@link #insertBatches}: inserting {@value #BATCHES} such batches into a fresh spine, time
 *       per batch, including the merge work each insert pays (the fueled merges);</li>
 *   <li>{@link #compactAndMerge}: a spine holding {@value #BATCHES} batches at distinct times
 *       compacted to the last time and merged down to one batch ({@code setLogicalCompaction} +
 *       {@code exert} until reduced): time per update merged.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SpineBenchmark {
    static final int BATCHES = 64;
    static final int BATCH_SIZE = 1024;

    /** Keys drawn from this range: as many keys as updates, so about a third of the updates repeat a key and consolidate. */
    private int keySpace;

    private List<Batch> batches;
    private SplittableRandom random;

    @Setup(Level.Trial)
    public void build() {
        keySpace = BATCHES * BATCH_SIZE;
        random = new SplittableRandom(42);
        batches = new ArrayList<>();
        for (int t = 0; t < BATCHES; t++) batches.add(Updates.randomBatch(random, BATCH_SIZE, keySpace, t));
    }

    /**
     * A fresh spine for each compaction, filled outside the timed span; a state of its own, so the
     * per-invocation setup (and its allocation, which {@code -prof gc} counts) touches only
     * {@link #compactAndMerge}. The batches are immutable, so they are shared, not copied.
     */
    @State(Scope.Thread)
    public static class SpineToCompact {
        Spine spine;

        @Setup(Level.Invocation)
        public void fill(SpineBenchmark bench) {
            spine = bench.filledWithAllBatches();
        }
    }

    Spine filledWithAllBatches() {
        Spine spine = new Spine(0);
        for (Batch b : batches) spine.insert(b);
        return spine;
    }

    @Benchmark
    public Batch sealBatch() {
        return Updates.randomBatch(random, BATCH_SIZE, keySpace, 0);
    }

    @Benchmark
    @OperationsPerInvocation(BATCHES)
    public long insertBatches() {
        Spine spine = new Spine(0);
        for (Batch b : batches) spine.insert(b);
        return spine.snapshot().updateCount();
    }

    @Benchmark
    @OperationsPerInvocation(BATCHES * BATCH_SIZE)
    public long compactAndMerge(SpineToCompact toCompact) {
        Spine spine = toCompact.spine;
        spine.setLogicalCompaction(BATCHES - 1);
        while (!spine.isReduced()) spine.exert((long) BATCHES * BATCH_SIZE);
        return spine.snapshot().updateCount();
    }
}
