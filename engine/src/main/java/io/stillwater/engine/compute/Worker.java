package io.stillwater.engine.compute;

import io.stillwater.engine.arrange.Batcher;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.arrange.Spine;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.Dataflow;
import io.stillwater.engine.dataflow.DataflowBuilder;
import io.stillwater.engine.dataflow.Delta;
import io.stillwater.engine.dataflow.Exchange;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.ExprCompiler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance worker thread: worker {@code self} of {@code W}.
 *
 * <p><b>Ownership.</b> The thread owns everything reachable from {@link #dataflows}: its
 * copy of every dataflow's operators and their state, and part {@code self} of every
 * output trace (it is the single writer of those spines). Nothing else touches them;
 * readers only see the spines' published snapshots.
 *
 * <p><b>Scheduling.</b> It consumes its command queue, which holds the same commands in
 * the same order as every other worker's. A command is processed by every dataflow in
 * creation order (so a dataflow importing another's output finds that output at the same
 * time already produced), then every output frontier advances. Whether a dataflow steps
 * at a time depends only on the command (which tables changed, which upstream dataflows
 * stepped), never on this worker's share of the data, so all workers take part in the
 * same exchange rounds. Hydration runs as fueled activations: the input snapshot is fed
 * in chunks of {@code hydrationChunk} updates, each one step at the hydration time.
 *
 * <p><b>Failures.</b> Evaluation errors are data and never reach here. Anything else a
 * dataflow throws fails that dataflow only: it is logged, its exchange hub is aborted
 * (releasing peers blocked at a barrier, which then fail it too), its readers fail, and
 * the worker carries on with the next dataflow.
 */
final class Worker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

    private final int self;
    private final int workers;
    private final ComputeReplica.Tuning tuning;
    /** Told after each processed input (any outcome), so write admission sees maintenance progress. */
    private final MaintenanceBacklog backlog;
    private final BlockingQueue<Command> queue = new LinkedBlockingQueue<>();
    /** This worker's copies, in creation order. Worker thread only. */
    private final List<LocalDataflow> dataflows = new ArrayList<>();

    Worker(int self, int workers, ComputeReplica.Tuning tuning, MaintenanceBacklog backlog) {
        this.self = self;
        this.workers = workers;
        this.tuning = tuning;
        this.backlog = backlog;
    }

    /** Set when the replica closes: queued work is skipped, hydration stops between chunks. */
    private volatile boolean stopping;

    /** Any thread (the runtime enqueues under its lock, so all workers get one order). */
    void enqueue(Command c) { queue.add(c); }

    /** Any thread: skip what is queued, up to the {@link Command.Stop} that follows. */
    void stopSoon() { stopping = true; }

    /** A dataflow's inputs at one time, held back while it hydrates. */
    private record Pending(long time, Map<Long, Changes> inputs, Changes importedErrors) {}

    /** The frontier every processed command has advanced dataflows to. Worker thread only. */
    private long frontier = Long.MIN_VALUE;

    /** This worker's copy of one dataflow. Worker thread only. */
    private static final class LocalDataflow {
        final MaintainedDataflow shared;
        final Dataflow dataflow;
        final Exchange exchange; // null with one worker
        final Evaluator[] keyEvals; // null: arranged by the whole row
        final int[] keyColumns; // non-null when every key expression is a column
        boolean failed;
        /**
         * Non-null while hydrating: the inputs of commands the worker processed for other
         * dataflows between this one's hydration chunks, replayed once it has hydrated.
         */
        List<Pending> backlog;

        LocalDataflow(MaintainedDataflow shared, Dataflow dataflow, Exchange exchange, Evaluator[] keyEvals, int[] keyColumns) {
            this.shared = shared;
            this.dataflow = dataflow;
            this.exchange = exchange;
            this.keyEvals = keyEvals;
            this.keyColumns = keyColumns;
        }
    }

    @Override
    public void run() {
        while (true) {
            Command c;
            try {
                c = queue.take();
            } catch (InterruptedException e) {
                return; // closing
            }
            if (stopping && c != Command.Stop.INSTANCE) {
                if (c instanceof Command.Create cr) cr.dataflow().hydrationDone();
                if (c instanceof Command.Serve sv) sv.task().cancel(closing());
                continue;
            }
            try {
                switch (c) {
                    case Command.Stop s -> {
                        return;
                    }
                    case Command.Create cr -> create(cr.dataflow());
                    case Command.Input in -> processInput(in);
                    case Command.Advance a -> advanceAll(a.upper());
                    case Command.Teardown t -> dataflows.removeIf(ld -> ld.shared == t.dataflow());
                    case Command.Serve sv -> sv.task().runInline();
                }
            } catch (RuntimeException | Error e) {
                // Per-dataflow failures are handled below; this is a bug in the worker itself.
                LOG.error("compute worker {} failed processing {}", self, c.getClass().getSimpleName(), e);
            }
            if (queue.isEmpty()) idleMerge();
        }
    }

    /**
     * Nothing queued: spend some merge effort on this worker's trace parts (purely local
     * work, no exchange). Inserts already pay for merges; this only tidies while idle, so
     * a burst of small writes is not slowed by merging after each one.
     */
    private void idleMerge() {
        long fuel = tuning.exertFuel();
        if (fuel <= 0) return;
        for (LocalDataflow ld : dataflows) {
            if (ld.failed || ld.backlog != null) continue;
            try {
                ld.shared.trace.part(self).exert(fuel);
                ld.shared.trace.errorPart(self).exert(fuel);
            } catch (RuntimeException e) {
                fail(ld.shared, ld, e);
            }
        }
    }

    // ---------------------------------------------------------------- create and hydrate

    private void create(MaintainedDataflow m) {
        LocalDataflow ld;
        try {
            ld = build(m);
        } catch (RuntimeException | Error e) {
            // Building is deterministic: every worker fails the same way.
            fail(m, null, e);
            m.hydrationDone();
            return;
        }
        dataflows.add(ld);
        try {
            hydrate(ld);
        } catch (RuntimeException | Error e) {
            // Errors too (a stack overflow in an operator): peers must not wait forever.
            fail(m, ld, e);
        } finally {
            m.hydrationDone();
        }
    }

    private LocalDataflow build(MaintainedDataflow m) {
        Exchange exchange = m.hub == null ? null : m.hub.endpoint(self);
        DataflowBuilder b = new DataflowBuilder(m.ctx, Cancellation.NONE);
        if (exchange != null) b.partitioned(exchange);
        Dataflow df = b.build(m.spec.plan());
        List<Expr> key = m.trace.key();
        Evaluator[] evals = null;
        int[] cols = null;
        if (key != null) {
            evals = new Evaluator[key.size()];
            cols = new int[key.size()];
            for (int i = 0; i < evals.length; i++) {
                evals[i] = ExprCompiler.compile(key.get(i), m.ctx);
                if (cols != null && key.get(i) instanceof Expr.Column c) cols[i] = c.index();
                else cols = null;
            }
        }
        return new LocalDataflow(m, df, exchange, evals, cols);
    }

    private void hydrate(LocalDataflow ld) {
        MaintainedDataflow m = ld.shared;
        long asOf = m.asOf;
        List<Long> ids = new ArrayList<>();
        List<Changes> data = new ArrayList<>();
        Changes importedErrors = new Changes(0);
        List<ReadHold> holds = new ArrayList<>();
        try {
            for (long id : m.tableSources) {
                Changes full = m.tableContents(id);
                ids.add(id);
                data.add(workers == 1 ? full : myShare(full));
            }
            for (var e : m.imports.entrySet()) {
                ExportTrace up = e.getValue();
                checkImport(m, up);
                // Part `self` of the upstream trace: written by this very thread, so it is
                // at least as far as this command (commands run in order).
                Spine part = up.part(self);
                Spine errPart = up.errorPart(self);
                holds.add(part.acquireHold(asOf));
                holds.add(errPart.acquireHold(asOf));
                ids.add(e.getKey());
                data.add(part.snapshot().rowsAt(asOf, up::rowOf));
                importedErrors.addAll(errPart.snapshot().rowsAt(asOf, (k, v) -> k));
            }
        } finally {
            holds.forEach(ReadHold::close);
        }
        long total = 0;
        for (Changes c : data) total += c.size();
        long chunk = tuning.hydrationChunk();
        long chunks = Math.max(1, (total + chunk - 1) / chunk);
        if (m.hub != null) chunks = m.hub.allMax(self, chunks); // every worker steps as often

        Batcher out = new Batcher();
        Batcher err = new Batcher();
        addErrors(err, importedErrors, asOf);
        ld.backlog = new ArrayList<>();
        for (long k = 0; k < chunks; k++) {
            if (stopping) throw new IllegalStateException("the replica is closing");
            if (k > 0) interleave(ld);
            Map<Long, Changes> in = chunks == 1 ? whole(ids, data) : slice(ids, data, k * chunk, (k + 1) * chunk);
            Delta d = ld.dataflow.step(asOf, in);
            arrange(ld, d, asOf, out, err);
            if (self == 0) m.trace.hydrationSteps.incrementAndGet();
        }
        Spine part = m.trace.part(self);
        Spine errPart = m.trace.errorPart(self);
        part.insert(out.seal(asOf, asOf + 1));
        errPart.insert(err.seal(asOf, asOf + 1));
        // Catch up with what the other dataflows processed meanwhile, then join the frontier.
        List<Pending> backlog = ld.backlog;
        ld.backlog = null;
        for (Pending p : backlog) stepAndArrange(ld, p.time(), p.inputs(), p.importedErrors());
        advance(m.trace, part, frontier);
        advance(m.trace, errPart, frontier);
        m.trace.reportUpper(self, part.upper());
    }

    /**
     * Between two hydration chunks: processes the input and frontier commands queued
     * right now, for every other dataflow, and holds back the hydrating dataflow's inputs.
     * How many is agreed by all workers (the least any of them has queued; they all hold
     * the same commands in the same order), so every worker interleaves the same commands
     * at the same chunk and their exchange rounds still pair up. Stops at the first
     * command that is not an input or frontier advance (a create may import this dataflow).
     */
    private void interleave(LocalDataflow hydrating) {
        // Reads (Serve, on worker 0 only) do not count: only this worker has them, and
        // the count must be the same on every worker. They are served as they come up.
        long ready = 0;
        for (Command c : queue) {
            if (c instanceof Command.Serve) continue;
            if (!(c instanceof Command.Input || c instanceof Command.Advance)) break;
            ready++;
        }
        if (hydrating.shared.hub != null) ready = -hydrating.shared.hub.allMax(self, -ready);
        for (long i = 0; i < ready; ) {
            switch (queue.poll()) {
                case Command.Input in -> { processInput(in); i++; }
                case Command.Advance a -> { advanceAll(a.upper()); i++; }
                case Command.Serve sv -> sv.task().runInline();
                case null, default -> throw new IllegalStateException("the command queue changed under its worker");
            }
        }
        // Reads queued right behind: between two activations is where a worker serves them.
        while (queue.peek() instanceof Command.Serve) {
            Command c = queue.poll();
            if (c instanceof Command.Serve sv) sv.task().runInline();
        }
    }

    private static SqlException closing() {
        return new SqlException(SqlState.ADMIN_SHUTDOWN,
                "terminating connection due to administrator command");
    }

    private static Map<Long, Changes> whole(List<Long> ids, List<Changes> data) {
        Map<Long, Changes> in = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) in.put(ids.get(i), data.get(i));
        return in;
    }

    /** Positions {@code [from, to)} of the sources' concatenation. */
    private static Map<Long, Changes> slice(List<Long> ids, List<Changes> data, long from, long to) {
        Map<Long, Changes> in = new HashMap<>();
        long base = 0;
        for (int i = 0; i < ids.size(); i++) {
            Changes c = data.get(i);
            int lo = (int) Math.max(0, from - base);
            int hi = (int) Math.min(c.size(), to - base);
            if (lo < hi) {
                Changes part = new Changes(hi - lo);
                for (int j = lo; j < hi; j++) part.add(c.row(j), c.diff(j));
                in.put(ids.get(i), part);
            }
            base += c.size();
        }
        return in;
    }

    /** This worker's share of table changes: rows routed here by their hash (stable per row). */
    private Changes myShare(Changes all) {
        Changes mine = new Changes(all.size() / workers + 1);
        for (int i = 0; i < all.size(); i++) {
            Row r = all.row(i);
            if (Exchange.route(r.hashCode(), workers) == self) mine.add(r, all.diff(i));
        }
        return mine;
    }

    // ---------------------------------------------------------------- input and frontiers

    /** Processes one committed write and reports it to the backlog, whatever the outcome. */
    private void processInput(Command.Input in) {
        long start = System.nanoTime();
        try {
            input(in.time(), in.changes());
        } finally {
            backlog.processed(self, in.seq(), in.handedOverNanos(), System.nanoTime() - start);
        }
    }

    private void input(long time, Map<Long, Changes> changes) {
        Map<Long, Changes> myTables = new HashMap<>();
        Map<ExportTrace, Delta> produced = new HashMap<>();
        Set<ExportTrace> stepped = new HashSet<>();
        for (LocalDataflow ld : dataflows) {
            if (ld.failed) continue;
            MaintainedDataflow m = ld.shared;
            // The decision uses only what every worker knows: the command and which
            // upstream dataflows stepped, never this worker's share of the data.
            boolean step = false;
            for (long id : m.tableSources) step |= changes.containsKey(id);
            for (ExportTrace up : m.imports.values()) step |= stepped.contains(up);
            if (!step) continue;
            stepped.add(m.trace);
            try {
                Map<Long, Changes> in = new HashMap<>();
                Changes importedErrors = new Changes(0);
                for (long id : m.tableSources) {
                    Changes c = changes.get(id);
                    if (c != null) in.put(id, workers == 1 ? c : myTables.computeIfAbsent(id, x -> myShare(c)));
                }
                for (var e : m.imports.entrySet()) {
                    checkImport(m, e.getValue());
                    Delta up = produced.get(e.getValue());
                    if (up != null) {
                        in.put(e.getKey(), up.ok());
                        importedErrors.addAll(up.errors());
                    }
                }
                if (ld.backlog != null) { // hydrating (we are between its chunks): later
                    ld.backlog.add(new Pending(time, in, importedErrors));
                    continue;
                }
                produced.put(m.trace, stepAndArrange(ld, time, in, importedErrors));
            } catch (RuntimeException | Error e) {
                fail(m, ld, e);
            }
        }
        advanceAll(time + 1);
    }

    /**
     * Steps {@code ld} at {@code time} and arranges the output. Returns what this worker
     * arranged, with the imported errors: what an importing dataflow reads on this worker.
     */
    private Delta stepAndArrange(LocalDataflow ld, long time, Map<Long, Changes> in, Changes importedErrors) {
        MaintainedDataflow m = ld.shared;
        Spine part = m.trace.part(self);
        Spine errPart = m.trace.errorPart(self);
        if (time < part.upper()) {
            throw new IllegalStateException("input at " + time + " is before the dataflow's frontier " + part.upper());
        }
        Delta d = ld.dataflow.step(time, in);
        Batcher out = new Batcher();
        Batcher err = new Batcher();
        addErrors(err, importedErrors, time);
        Delta mine = arrange(ld, d, time, out, err);
        part.insert(out.seal(part.upper(), time + 1));
        errPart.insert(err.seal(errPart.upper(), time + 1));
        if (self == 0) m.trace.steps.incrementAndGet();
        Changes allErrors = new Changes(importedErrors.size() + mine.errors().size());
        allErrors.addAll(importedErrors).addAll(mine.errors());
        return new Delta(mine.ok(), allErrors);
    }

    private void advanceAll(long upper) {
        frontier = Math.max(frontier, upper);
        for (LocalDataflow ld : dataflows) {
            if (ld.failed || ld.backlog != null) continue;
            ExportTrace t = ld.shared.trace;
            try {
                advance(t, t.part(self), upper);
                advance(t, t.errorPart(self), upper);
                t.reportUpper(self, t.part(self).upper());
            } catch (RuntimeException | Error e) {
                fail(ld.shared, ld, e);
            }
        }
    }

    private void advance(ExportTrace trace, Spine s, long upper) {
        if (upper > s.upper()) s.advanceUpper(upper);
        if (s.upper() == Long.MIN_VALUE) return;
        // Readers that waited for the hydration picked their time before it finished
        // (possibly long ago): keep everything since the hydration time readable for a
        // lag's worth of wall-clock time after it became readable, so they can pin it.
        if (!trace.readableFor(tuning.compactionLagMillis())) return;
        // Keep a window of history for readers that picked a slightly older timestamp;
        // read holds protect anything older that a reader actually pinned.
        long since = s.upper() - 1 - tuning.compactionLagMillis();
        if (since > s.since()) s.setLogicalCompaction(since);
    }

    // ---------------------------------------------------------------- arranging output

    /**
     * Routes the step's output to the workers owning its keys and adds what this worker
     * receives to {@code out} (and this worker's errors to {@code err}) at {@code time}.
     * Returns what this worker arranged: the rows it received and the errors it recorded
     * (what a dataflow importing this one reads on this worker).
     */
    private Delta arrange(LocalDataflow ld, Delta d, long time, Batcher out, Batcher err) {
        Changes errors = new Changes(d.errors().size());
        errors.addAll(d.errors());
        Changes ok = d.ok();
        Changes received;
        if (ld.exchange == null) {
            received = ok;
        } else {
            Changes[] outgoing = new Changes[workers];
            for (int p = 0; p < workers; p++) outgoing[p] = new Changes(ok.size() / workers + 1);
            for (int i = 0; i < ok.size(); i++) {
                Row r = ok.row(i);
                Row k = keyOf(ld, r, ok.diff(i), errors);
                if (k != null) outgoing[Exchange.route(k.hashCode(), workers)].add(r, ok.diff(i));
            }
            received = ld.exchange.exchange(outgoing);
        }
        // With one worker the key is evaluated here for the first time (errors recorded);
        // with several it was evaluated by the sender, which recorded any error.
        boolean keyMayFail = ld.keyEvals != null && ld.keyColumns == null;
        boolean copy = ld.exchange == null && keyMayFail; // drop rows whose key failed
        Changes keyErrors = ld.exchange == null ? errors : new Changes(0);
        Changes kept = copy ? new Changes(received.size()) : received;
        for (int i = 0; i < received.size(); i++) {
            Row r = received.row(i);
            long diff = received.diff(i);
            Row k = keyOf(ld, r, diff, keyErrors);
            if (k == null) continue;
            if (ld.keyEvals == null) out.add(r, Row.EMPTY, time, diff);
            else out.add(k, r, time, diff);
            if (copy) kept.add(r, diff);
        }
        addErrors(err, errors, time);
        return new Delta(kept, errors);
    }

    /** The arrangement key of {@code r}, or null after recording its evaluation error. */
    private static Row keyOf(LocalDataflow ld, Row r, long diff, Changes errors) {
        if (ld.keyEvals == null) return r;
        if (ld.keyColumns != null) return r.project(ld.keyColumns);
        Object[] k = new Object[ld.keyEvals.length];
        try {
            for (int i = 0; i < k.length; i++) k[i] = ld.keyEvals[i].eval(r);
        } catch (SqlException e) {
            errors.add(Row.wrap(new Object[] {e.toEvalError()}), diff);
            return null;
        }
        return Row.wrap(k);
    }

    private static void addErrors(Batcher err, Changes errors, long time) {
        for (int i = 0; i < errors.size(); i++) err.add(errors.row(i), Row.EMPTY, time, errors.diff(i));
    }

    // ---------------------------------------------------------------- failure

    private static void checkImport(MaintainedDataflow m, ExportTrace up) {
        if (up.failed()) {
            throw new IllegalStateException("its input \"" + up.name() + "\" failed");
        }
    }

    private void fail(MaintainedDataflow m, LocalDataflow ld, Throwable e) {
        if (ld != null) ld.failed = true;
        if (e instanceof ExchangeHub.Aborted) {
            LOG.debug("worker {}: dataflow \"{}\" aborted by a peer", self, m.name());
        } else {
            LOG.error("worker {}: dataflow \"{}\" failed; its exports are no longer maintained", self, m.name(), e);
        }
        Throwable cause = e instanceof ExchangeHub.Aborted a && a.getCause() != null ? a.getCause() : e;
        m.abort(ExportTrace.failedError(m.name(), cause));
    }
}
