package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A peek dataflow run in bounded chunks: the plan's operators (built by {@link
 * DataflowBuilder}, as for a maintained view) are driven as a pull pipeline of {@link
 * Stage}s instead of being stepped once over whole snapshots, so no operator's whole output
 * ever exists at once:
 * <ul>
 *   <li>inputs are read in chunks of {@code chunkRows} (one cursor per consumer of an input);</li>
 *   <li>linear operators (map/filter/project, union, negate) transform each chunk as it comes;</li>
 *   <li>joins build a hash table of one side and stream the other through it, emitting at
 *       most a chunk per pull ({@link HashJoinStage}); joins into an index probe it per row;</li>
 *   <li>stateful operators (reduce, distinct, threshold, top-k) absorb their whole input,
 *       consolidating as they go, and then emit their output (bounded by their state) in chunks.</li>
 * </ul>
 * Each {@link #next} does a bounded amount of work and checks cancellation, so a cancel or
 * statement timeout stops the read within one chunk's work at any point. Whatever a stage
 * holds across pulls is reserved from the read's {@link QueryMemory}: going past the
 * budget fails the read with 53200 instead of exhausting the heap.
 *
 * <p><b>Errors are data.</b> Evaluation errors go to a consolidated error collection. The
 * read fails with the least error found as soon as one is present at a chunk boundary
 * when errors cannot be retracted later (no operator that produces errors reads a
 * collection with retractions); with EXCEPT/INTERSECT underneath, only once the output
 * is complete. Either way rows emitted before an error may already have been consumed.
 *
 * <p>Not thread-safe: one thread at a time pulls it. {@link #close} releases every
 * stage's reservation (the caller closes the {@link QueryMemory} itself).
 */
public final class PipelinedRead implements ChunkSource {
    /** Rows per chunk unless a caller asks otherwise. */
    public static final int DEFAULT_CHUNK_ROWS = 4096;

    private final Stage root;
    private final ErrorCollection errors;
    private final boolean errorsFinal;
    private final Cancellation cancel;
    private final List<SqlType> types;
    private boolean done;
    private boolean closed;

    private PipelinedRead(Stage root, ErrorCollection errors, boolean errorsFinal, Cancellation cancel, List<SqlType> types) {
        this.root = root;
        this.errors = errors;
        this.errorsFinal = errorsFinal;
        this.cancel = cancel;
        this.types = types;
    }

    /**
     * Builds the read of {@code body} over {@code source} at {@code asOf}. Nothing is read
     * yet: the first {@link #next} starts pulling.
     */
    public static PipelinedRead open(PlanNode body, SnapshotSource source, long asOf, EvalContext ctx,
                                     Cancellation cancel, QueryMemory memory, int chunkRows) {
        if (chunkRows < 1) throw new IllegalArgumentException("chunkRows must be at least 1: " + chunkRows);
        Dataflow dataflow = new DataflowBuilder(ctx, cancel).withArrangements(id -> source.arranged(id, asOf)).build(body);
        ErrorCollection errors = new ErrorCollection();
        Stage.Context cx = new Stage.Context(chunkRows, cancel, memory, errors);
        Wiring w = new Wiring(dataflow, source, asOf, cx);
        Stage root = w.stageFor(dataflow.output());
        if (w.negative[dataflow.output()]) root = new Stage.Consolidate(cx, root);
        return new PipelinedRead(root, errors, w.errorsFinal, cancel, dataflow.types());
    }

    /** The output's column types. */
    public List<SqlType> types() { return types; }

    /**
     * The next rows of the result (a bag: every diff positive; a row may come in several
     * entries), never empty; null once the result is complete and no error is present.
     *
     * @throws io.stillwater.engine.error.SqlException an evaluation error, 53200 (memory
     *     budget), or 57014 (cancelled); the read is finished then, close it
     */
    @Override
    public Changes next() {
        if (done || closed) return null;
        while (true) {
            cancel.check();
            Changes c;
            try {
                c = root.next();
            } catch (RuntimeException e) {
                done = true;
                throw e;
            }
            if (c == null) {
                done = true;
                errors.failIfAny();
                return null;
            }
            if (errorsFinal) {
                var least = errors.least();
                if (least != null) {
                    done = true;
                    throw least.toException();
                }
            }
            if (!c.isEmpty()) return c;
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        root.close();
    }

    /** Turns the dataflow's nodes into stages, from the output down. */
    private static final class Wiring {
        private final Dataflow.Node[] nodes;
        private final SnapshotSource source;
        private final long asOf;
        private final Stage.Context cx;
        private final int[] consumers;
        /** Whether a node's output may carry retractions (negative diffs). */
        final boolean[] negative;
        /** No error-producing operator reads a collection with retractions: errors are final once seen. */
        boolean errorsFinal = true;
        private final Map<Integer, Stage.Tee> tees = new HashMap<>();
        private final Map<Integer, Integer> branchesTaken = new HashMap<>();
        private final Map<Long, SourceRows> opened = new HashMap<>();

        Wiring(Dataflow dataflow, SnapshotSource source, long asOf, Stage.Context cx) {
            this.nodes = dataflow.nodes();
            this.source = source;
            this.asOf = asOf;
            this.cx = cx;
            this.consumers = new int[nodes.length];
            this.negative = new boolean[nodes.length];
            for (Dataflow.Node n : nodes) for (int in : n.inputs()) consumers[in]++;
            consumers[dataflow.output()]++;
            for (int i = 0; i < nodes.length; i++) {
                Dataflow.Node n = nodes[i];
                boolean anyNegative = false;
                for (int in : n.inputs()) anyNegative |= negative[in];
                negative[i] = switch (n.op()) {
                    case null -> false;                        // snapshots: contents, positive
                    case NegateOperator o -> true;
                    case Absorbing o -> false;                 // one emit from empty state: positive
                    case ConstantOperator o -> false;
                    case GenerateSeriesOperator o -> false;
                    case RecursiveOperator o -> false;          // one step from empty state: positive
                    default -> anyNegative;                    // linear operators and joins pass retractions on
                };
                boolean producesErrors = n.op() instanceof MapFilterProject || n.op() instanceof FlatMapOperator || n.op() instanceof JoinOperator
                        || n.op() instanceof LookupJoinOperator;
                if (producesErrors && anyNegative) errorsFinal = false;
                if (n.op() instanceof TopKOperator t && !anyNegative) t.pruneBeyondWindow();
            }
        }

        /** The stage reading node {@code i} for one of its consumers. */
        Stage stageFor(int i) {
            Dataflow.Node n = nodes[i];
            if (n.op() == null) return scan(n.sourceId());
            if (consumers[i] <= 1) return create(n);
            Stage.Tee tee = tees.get(i);
            if (tee == null) {
                tee = new Stage.Tee(cx, create(n), consumers[i]); // may wire (and tee) nodes below first
                tees.put(i, tee);
            }
            int branch = branchesTaken.merge(i, 1, Integer::sum) - 1;
            return tee.branch(branch);
        }

        /** A source read once ({@link SnapshotSource#rows}) with a cursor per consumer. */
        private Stage scan(long sourceId) {
            SourceRows rows = opened.get(sourceId);
            if (rows == null) {
                rows = source.rows(sourceId, asOf);
                opened.put(sourceId, rows);
                Stage.Scan first = new Stage.Scan(cx, rows.cursor(cx.chunkRows(), cx.cancel()));
                first.reserve(rows.heapBytes()); // the snapshot copy, held until the first cursor closes
                return first;
            }
            return new Stage.Scan(cx, rows.cursor(cx.chunkRows(), cx.cancel()));
        }

        private Stage create(Dataflow.Node n) {
            int[] in = n.inputs();
            return switch (n.op()) {
                case MapFilterProject o -> new Stage.Linear(cx, o, stageFor(in[0]));
                case NegateOperator o -> new Stage.Linear(cx, o, stageFor(in[0]));
                case FlatMapOperator o -> new Stage.Linear(cx, o, stageFor(in[0]));
                case UnionOperator o -> {
                    Stage[] ins = new Stage[in.length];
                    for (int k = 0; k < in.length; k++) ins[k] = stageFor(in[k]);
                    yield new Stage.Concat(cx, ins);
                }
                case ConstantOperator o -> {
                    if (in.length != 0) throw new IllegalStateException("a one-shot constant has no inputs");
                    yield new Stage.Once(cx, o);
                }
                case GenerateSeriesOperator o -> new Stage.Series(cx, o);
                case LateralSeriesOperator o -> new Stage.Linear(cx, o, stageFor(in[0]));
                case JoinOperator o -> new HashJoinStage(cx, o, stageFor(in[0]), stageFor(in[1]));
                case LookupJoinOperator o -> new Stage.Lookup(cx, o, stageFor(in[0]));
                case ReduceOperator o -> new Stage.Absorb(cx, o, stageFor(in[0]));
                case ThresholdOperator o -> new Stage.Absorb(cx, o, stageFor(in[0]));
                case TopKOperator o -> new Stage.Absorb(cx, o, stageFor(in[0]));
                case WindowOperator o -> new Stage.Absorb(cx, o, stageFor(in[0]));
                case RecursiveOperator o -> {
                    Stage[] ins = new Stage[in.length];
                    for (int k = 0; k < in.length; k++) ins[k] = stageFor(in[k]);
                    yield new RecursiveStage(cx, o, ins);
                }
                default -> throw new IllegalStateException("no one-shot stage for " + n.op().getClass().getSimpleName());
            };
        }
    }
}
