package io.stillwater.engine.peek;

import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.coord.SystemRelationRows;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReads;
import io.stillwater.engine.compute.PeekHandle;
import io.stillwater.engine.compute.PeekKind;
import io.stillwater.engine.compute.PeekRequest;
import io.stillwater.engine.compute.PeekWork;
import io.stillwater.engine.params.ParameterSnapshot;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.ChunkSource;
import io.stillwater.engine.dataflow.FusedMfp;
import io.stillwater.engine.dataflow.PipelinedRead;
import io.stillwater.engine.dataflow.SnapshotSource;
import io.stillwater.engine.dataflow.SourceRows;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.params.ResultSizeLimit;
import java.util.Optional;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.dataflow.ArrangedInput;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import java.util.function.Function;

/**
 * Runs a {@link PeekPlan} over inputs pinned at one time ({@link PeekInputs}): builds the
 * read's {@link PeekWork} and asks the replica to serve it ({@link ComputeReads#serve}),
 * which places it on one of its runtimes (solo worker loop, maintenance, interactive), then
 * awaits the result, cancellably. Constants never reach a replica: they run here.
 *
 * <p><b>Streamed or materialized.</b> {@link #open} returns the read's rows as a {@link
 * ChunkSource}. A read that runs on the caller's thread (constants; peek dataflows, and
 * walks with offload off, on the interactive runtime, which is thread-per-read; the reads
 * of writes) produces them as they are pulled, holding a few chunks. A read that runs on
 * another thread (a solo replica's worker loop, the maintenance runtime, the offload pool)
 * is computed to its end there, within the read's memory budget and {@code
 * max_result_size} ({@link ReadLimits}), because that thread serves other work. Peek
 * dataflows run as a {@link PipelinedRead} either way.
 *
 * <p>Errors are data: before producing any row, a read fails with the least evaluation
 * error that any export it reads holds at the read time ({@link
 * CollectionReader.Snapshot#firstError()}), on every path. Errors of the read's own
 * expressions (the fast path's fused filter/project, the peek dataflow's operators) are
 * collected as rows are produced: a read fails once one is present, with the least found
 * so far (a materialized walk or lookup: the least of all).
 *
 * <p>Walks count cursor positions (fuel) and poll {@link Cancellation} every {@code
 * compute_index_peek_yield_granularity} positions. The caller owns and closes the inputs,
 * after the rows are closed or {@code run} returns or throws (by then the read no longer
 * touches them).
 */
public final class PeekExecutor {
    /** How many rows a fast-path visitor handles between cancellation checks. */
    private static final int CHECK_EVERY = 1024;

    /** The rows of built-in relations; null without an engine (plans then read none). */
    private final SystemRelationRows builtins;
    /** Read as they are when a read starts; the defaults without an engine. */
    private final SystemParameters parameters;

    /**
     * @param builtins   the rows of built-in relations, for plans that read them
     * @param parameters the live system parameters
     */
    public PeekExecutor(SystemRelationRows builtins, SystemParameters parameters) {
        this.builtins = builtins;
        this.parameters = parameters;
    }

    /** An executor without an engine (tests and tools): default parameters, no built-in relations. */
    public static PeekExecutor withoutEngine() { return new PeekExecutor(null, new SystemParameters()); }

    /** A read's rows (a bag: positive diffs) and the cursor positions its walks visited. */
    public record Result(Changes rows, long cursorPositions) {}

    /** What a read's work hands back: its rows (materialized, or produced as pulled) and its walk's positions. */
    private record Output(ChunkSource rows, long cursorPositions) {}

    /**
     * Runs {@code plan} at {@code in.asOf()} without a replica (constants and table reads;
     * {@code in} covers the plan's inputs; it is ignored, and may be null, for a {@link
     * PeekPlan.Constant}).
     */
    public Result run(PeekPlan plan, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        return run(ComputeReads.NONE, null, plan, in, ctx, cancel);
    }

    /**
     * Runs {@code plan} on {@code replica} (the session's), reading the system parameters
     * as they are now. {@code statement} names the read in the replica's peek history.
     * The whole result, without a memory budget (tests and tools; sessions use {@link #open}).
     */
    public Result run(ComputeReads replica, String statement, PeekPlan plan, PeekInputs in, EvalContext ctx,
                      Cancellation cancel) {
        return materialized(replica, statement, plan, in, ctx, cancel, false);
    }

    /**
     * Runs {@code plan} on the calling thread, not as a replica's read (no placement, no
     * peek history): for the reads of writes, which read table snapshots under the
     * coordinator's write lock. Introspection relations still come from {@code replica}.
     */
    public Result runHere(ComputeReads replica, PeekPlan plan, PeekInputs in, EvalContext ctx, Cancellation cancel) {
        return materialized(replica, null, plan, in, ctx, cancel, true);
    }

    private Result materialized(ComputeReads replica, String statement, PeekPlan plan, PeekInputs in, EvalContext ctx,
                                Cancellation cancel, boolean here) {
        Output out = execute(replica, statement, plan, in, ctx, cancel, ReadLimits.unlimited(), here);
        return new Result(ChunkSource.drain(out.rows()), out.cursorPositions());
    }

    /**
     * Starts the read of {@code plan} and returns its rows, which the caller pulls and must
     * close (closing ends the read: its pipeline, its place in the replica's peek history).
     * Where the read runs on the calling thread (constants, the reads of writes with {@code
     * here}, and peek dataflows on a two-runtime replica's interactive runtime, which is
     * thread-per-read) and {@code limits.stream()} is set, rows are produced as they are
     * pulled: nothing but a few chunks is held. Everywhere else (fast paths, solo
     * replicas' worker loop, the maintenance runtime, the offload pool) the read is
     * materialized where it runs, within {@code limits}' memory budget and result size,
     * because that thread serves other work and cannot wait for the client.
     */
    public ChunkSource open(ComputeReads replica, String statement, PeekPlan plan, PeekInputs in, EvalContext ctx,
                            Cancellation cancel, ReadLimits limits, boolean here) {
        return execute(replica, statement, plan, in, ctx, cancel, limits, here).rows();
    }

    private Output execute(ComputeReads replica, String statement, PeekPlan plan, PeekInputs in, EvalContext ctx,
                           Cancellation cancel, ReadLimits limits, boolean here) {
        cancel.check();
        if (limits.immediate() && !(plan instanceof PeekPlan.FastPathLookup)) {
            // Only a lookup is bounded; a walk, dataflow or constant (generate_series) may take long.
            throw new NotImmediate(plan.pathName());
        }
        if (plan instanceof PeekPlan.Constant c) {
            // Constants and table functions run on the calling thread: a long generate_series streams.
            PipelinedRead read = PipelinedRead.open(c.body(), (id, t) -> {
                throw new IllegalStateException("a plan without inputs read " + id);
            }, in == null ? 0 : in.asOf(), ctx, cancel, limits.memory(), PipelinedRead.DEFAULT_CHUNK_ROWS);
            return new Output(limits.stream() ? read : materialize(read, limits), 0);
        }
        FaultPoints.hit(FaultPoints.Point.PEEK);
        ParameterSnapshot params = parameters.snapshot();
        boolean onThisThread = here || replica.placement(kind(plan), params).orElse(null) == ComputeRuntime.INTERACTIVE;
        if (limits.immediate() && !onThisThread) throw new NotImmediate("a lookup queued on a solo replica's worker loop");
        // A walk past its inline budget moves to the offload pool when offload is on: it is
        // materialized there. With offload off it runs on this thread to its end, so it streams.
        boolean stream = limits.stream() && onThisThread && switch (plan) {
            case PeekPlan.PeekDataflow d -> true;
            case PeekPlan.FastPathWalk w -> here || !params.get(Params.ENABLE_COMPUTE_INDEX_PEEK_OFFLOAD);
            default -> false;
        };
        PeekRequest<Output> request = new PeekRequest<>(statement == null ? plan.pathName() : statement, kind(plan),
                plan.exports().size() == 1 ? plan.exports().keySet().iterator().next() : -1, in.asOf(), params, cancel,
                work(replica, plan, in, ctx, limits, stream));
        PeekHandle<Output> handle = here ? PeekHandle.runHere(request) : replica.serve(request);
        Output out = handle.await();
        return new Output(new Tracked(out.rows(), handle), out.cursorPositions());
    }

    /**
     * A read's rows as the session pulls them; closing (or an error) ends the read in the
     * replica's peek history, which shows a streamed read as running until then.
     */
    private static final class Tracked implements ChunkSource {
        private final ChunkSource rows;
        private final PeekHandle<?> handle;
        private Throwable failure;
        private boolean closed;

        Tracked(ChunkSource rows, PeekHandle<?> handle) {
            this.rows = rows;
            this.handle = handle;
        }

        @Override
        public Changes next() {
            try {
                return rows.next();
            } catch (RuntimeException | Error e) {
                if (failure == null) failure = e;
                throw e;
            }
        }

        @Override
        public void close() {
            if (closed) return;
            closed = true;
            try {
                rows.close();
            } finally {
                handle.streamEnded(failure);
            }
        }
    }

    /** The kind of read {@code plan} is, for placement (a read of introspection relations is one). */
    public static PeekKind kind(PeekPlan plan) {
        return switch (plan) {
            case PeekPlan.FastPathLookup l -> PeekKind.LOOKUP;
            case PeekPlan.FastPathWalk w -> PeekKind.WALK;
            case PeekPlan.PeekDataflow d -> d.systemRelations().stream().anyMatch(SystemRelations::isIntrospection)
                    ? PeekKind.INTROSPECTION : PeekKind.DATAFLOW;
            case PeekPlan.Constant c -> PeekKind.DATAFLOW;
        };
    }

    /**
     * The read's work over {@code in}, to run wherever {@code replica} places it. A {@code
     * stream}ed peek dataflow only opens its pipeline there (the caller's thread) and is
     * pulled afterwards; every other read is materialized by its work.
     */
    private PeekWork<Output> work(ComputeReads replica, PeekPlan plan, PeekInputs in, EvalContext ctx,
                                  ReadLimits limits, boolean stream) {
        return switch (plan) {
            case PeekPlan.FastPathLookup l -> new OneStep(c -> {
                failOnExportErrors(plan, in);
                return lookup(l, in, ctx, c, limits);
            }, false);
            case PeekPlan.FastPathWalk w -> new WalkWork(w, in, ctx, limits, stream);
            case PeekPlan.PeekDataflow d -> new OneStep(c -> {
                failOnExportErrors(plan, in);
                PipelinedRead read = PipelinedRead.open(d.body(), source(replica, d, in), in.asOf(), ctx, c,
                        limits.memory(), PipelinedRead.DEFAULT_CHUNK_ROWS);
                return new Output(stream ? read : materialize(read, limits), 0);
            }, stream);
            case PeekPlan.Constant c -> throw new IllegalArgumentException("constants are not served by a replica");
        };
    }

    /**
     * Reads all of {@code read} into memory: reserved from the read's budget, and counted
     * against {@code max_result_size} as it comes (when the limits say so). Closes {@code read}.
     */
    private static ChunkSource materialize(ChunkSource read, ReadLimits limits) {
        ResultSizeLimit.Tally tally = new ResultSizeLimit.Tally(limits.maxResultBytes());
        Changes all = new Changes();
        try (read) {
            for (Changes c = read.next(); c != null; c = read.next()) {
                limits.memory().reserve(HeapEstimate.chunk(c));
                for (int i = 0; i < c.size(); i++) tally.add(c.row(i), c.diff(i));
                all.addAll(c);
            }
        }
        return ChunkSource.slices(all, PipelinedRead.DEFAULT_CHUNK_ROWS);
    }

    /** A read done in one slice, whatever the budget. */
    private static final class OneStep implements PeekWork<Output> {
        private final Function<Cancellation, Output> body;
        private final boolean streams;
        private Output result;

        OneStep(Function<Cancellation, Output> body, boolean streams) {
            this.body = body;
            this.streams = streams;
        }

        @Override
        public boolean advance(long positions, long granularity, Cancellation cancel) {
            result = body.apply(cancel);
            return true;
        }

        @Override
        public Output result() { return result; }

        @Override
        public boolean streams() { return streams; }
    }

    /**
     * A fast-path walk in slices: the first checks the export's errors and opens the walk.
     * Materialized, it walks to its end (in slices, possibly offloaded); {@code stream}ed,
     * it hands itself over at once and walks a chunk of cursor positions per pull.
     */
    private static final class WalkWork implements PeekWork<Output> {
        private final PeekPlan.FastPathWalk plan;
        private final PeekInputs in;
        private final EvalContext ctx;
        private final ReadLimits limits;
        private final boolean stream;
        private RowSink sink;
        private CollectionReader.Walk walk;

        WalkWork(PeekPlan.FastPathWalk plan, PeekInputs in, EvalContext ctx, ReadLimits limits, boolean stream) {
            this.plan = plan;
            this.in = in;
            this.ctx = ctx;
            this.limits = limits;
            this.stream = stream;
        }

        @Override
        public boolean advance(long positions, long granularity, Cancellation cancel) {
            if (walk == null) {
                failOnExportErrors(plan, in);
                // The walk checks every `granularity` positions; the sink need not.
                sink = new RowSink(FusedMfp.compile(plan.body(), ctx), Cancellation.NONE,
                        stream ? ReadLimits.unlimited() : limits);
                walk = in.export(plan.export().exportId()).walker(sink);
                if (stream) {
                    streamed = new StreamedWalk(cancel, granularity);
                    return true;
                }
            }
            return walk.advance(positions, granularity, cancel);
        }

        private StreamedWalk streamed;

        @Override
        public Output result() {
            if (streamed != null) return new Output(streamed, 0);
            return new Output(ChunkSource.slices(sink.finish(), PipelinedRead.DEFAULT_CHUNK_ROWS), walk.positions());
        }

        @Override
        public boolean streams() { return stream; }

        /** The walk as the session pulls it: a chunk of cursor positions per pull, nothing kept. */
        private final class StreamedWalk implements ChunkSource {
            private final Cancellation cancel;
            private final long granularity;
            private boolean done;

            StreamedWalk(Cancellation cancel, long granularity) {
                this.cancel = cancel;
                this.granularity = granularity;
            }

            @Override
            public Changes next() {
                if (done) return null;
                done = walk.advance(PipelinedRead.DEFAULT_CHUNK_ROWS, granularity, cancel);
                return sink.take(); // fails with the least error found so far
            }

            @Override
            public void close() { done = true; }
        }
    }

    /** Throws the least error held at asOf by any export the plan reads. */
    static void failOnExportErrors(PeekPlan plan, PeekInputs in) {
        EvalError least = null;
        for (long exportId : plan.exports().keySet()) {
            EvalError e = in.export(exportId).firstError().orElse(null);
            if (e != null && (least == null || e.compareTo(least) < 0)) least = e;
        }
        if (least != null) throw least.toException();
    }

    private Output lookup(PeekPlan.FastPathLookup l, PeekInputs in, EvalContext ctx, Cancellation cancel, ReadLimits limits) {
        CollectionReader.Snapshot s = in.export(l.export().exportId());
        RowSink sink = new RowSink(FusedMfp.compile(l.body(), ctx), cancel, limits);
        for (Row key : l.keys()) {
            cancel.check();
            s.lookup(key, sink);
        }
        return new Output(ChunkSource.slices(sink.finish(), PipelinedRead.DEFAULT_CHUNK_ROWS), sink.visited);
    }

    private SnapshotSource source(ComputeReads replica, PeekPlan.PeekDataflow d, PeekInputs in) {
        return new SnapshotSource() {
            @Override
            public Changes read(long id, long t) {
                CollectionReader imported = d.imports().get(id);
                if (imported != null) return in.export(imported.exportId()).contents(Cancellation.NONE);
                if (d.systemRelations().contains(id)) return builtinRows(id, replica);
                return in.table(id);
            }

            /** An imported export is walked in chunks, one walk per consumer: never copied whole. */
            @Override
            public SourceRows rows(long id, long t) {
                CollectionReader imported = d.imports().get(id);
                if (imported == null) {
                    // A stored table is walked in chunks; built-in relations are computed whole.
                    if (!d.systemRelations().contains(id) && in.hasTable(id)) return in.tableRows(id);
                    return SourceRows.of(read(id, t));
                }
                CollectionReader.Snapshot snapshot = in.export(imported.exportId());
                return new SourceRows() {
                    @Override
                    public ChunkSource cursor(int chunkRows, Cancellation cancel) { return new WalkChunks(snapshot, chunkRows, cancel); }

                    @Override
                    public long heapBytes() { return 0; }
                };
            }

            /** An imported index keyed by plain columns: joins probe it rather than copy it. */
            @Override
            public Optional<ArrangedInput> arranged(long id, long t) {
                CollectionReader imported = d.imports().get(id);
                if (imported == null) return Optional.empty();
                int[] keyColumns = new int[imported.key().size()];
                for (int i = 0; i < keyColumns.length; i++) {
                    if (!(imported.key().get(i) instanceof Expr.Column c)) return Optional.empty();
                    keyColumns[i] = c.index();
                }
                CollectionReader.Snapshot snapshot = in.export(imported.exportId());
                return Optional.of(new ArrangedInput() {
                    @Override
                    public int[] keyColumns() { return keyColumns.clone(); }

                    @Override
                    public void lookup(Row key, Visitor visitor) { snapshot.lookup(key, visitor::accept); }
                });
            }
        };
    }

    private Changes builtinRows(long id, ComputeReads replica) {
        if (builtins == null) throw new IllegalStateException("built-in relation " + id + " read without an engine");
        return builtins.rows(id, replica);
    }

    /** An export's rows at the read time, walked a chunk of cursor positions per pull. */
    private static final class WalkChunks implements ChunkSource {
        private final CollectionReader.Walk walk;
        private final int chunkRows;
        private final Cancellation cancel;
        private Changes chunk = new Changes();
        private boolean done;

        WalkChunks(CollectionReader.Snapshot snapshot, int chunkRows, Cancellation cancel) {
            this.walk = snapshot.walker((row, diff) -> chunk.add(row, diff));
            this.chunkRows = chunkRows;
            this.cancel = cancel;
        }

        @Override
        public Changes next() {
            if (done) return null;
            done = walk.advance(chunkRows, chunkRows, cancel);
            Changes out = chunk;
            chunk = new Changes();
            return out;
        }

        @Override
        public void close() { done = true; }
    }

    /**
     * Applies the fused chain to visited rows, keeping the least evaluation error. The rows
     * it keeps are reserved from the read's budget and counted against its result size as
     * they come, every {@link #CHECK_EVERY} rows.
     */
    private static final class RowSink implements CollectionReader.RowVisitor {
        private final FusedMfp mfp;
        /** The current slice's cancellation (a walk's slices may run on different threads). */
        Cancellation cancel;
        private final ReadLimits limits;
        private final ResultSizeLimit.Tally tally;
        private Changes out = new Changes();
        private EvalError least;
        long visited;

        RowSink(FusedMfp mfp, Cancellation cancel, ReadLimits limits) {
            this.mfp = mfp;
            this.cancel = cancel;
            this.limits = limits;
            this.tally = new ResultSizeLimit.Tally(limits.maxResultBytes());
        }

        @Override
        public void accept(Row row, long diff) {
            if ((++visited % CHECK_EVERY) == 0) cancel.check();
            if (visited > ReadLimits.IMMEDIATE_ROWS && limits.immediate()) {
                throw new NotImmediate("the lookup visits more than " + ReadLimits.IMMEDIATE_ROWS + " rows");
            }
            Row r;
            try {
                r = mfp.apply(row);
            } catch (SqlException e) {
                EvalError err = e.toEvalError();
                if (least == null || err.compareTo(least) < 0) least = err;
                return;
            }
            if (r == null) return;
            out.add(r, diff);
            // Limits fail the read at once (53200), unlike evaluation errors, which are data.
            tally.add(r, diff);
            if (out.size() % CHECK_EVERY == 0) {
                // every CHECK_EVERY rows kept, reserve them (sized by the current row)
                limits.memory().reserve(CHECK_EVERY * (HeapEstimate.row(r) + HeapEstimate.ENTRY));
            }
        }

        Changes finish() {
            if (least != null) throw least.toException();
            return out;
        }

        /** The rows kept since the last take (a streamed walk's chunk); fails once an error was found. */
        Changes take() {
            if (least != null) throw least.toException();
            Changes rows = out;
            out = new Changes();
            return rows;
        }
    }
}
