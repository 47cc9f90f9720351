package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.expr.EvalContext;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintained dataflow as the replica knows it: what it computes, what it reads, where
 * its output goes. Immutable after construction, except the hydration inputs (shared by
 * the workers, released by the last one to finish hydrating). Each worker builds its own
 * copy of the operators ({@link Worker}); this object holds only what the copies share:
 * the exchange hub and the output trace.
 *
 * @param tableSources the plan's Gets that read tables (fed by input commands)
 * @param imports      the plan's Gets that read collections compute holds, by collection
 *                     id: those read the trace's output (hydration: its contents at asOf)
 */
final class MaintainedDataflow {
    private static final Logger LOG = LoggerFactory.getLogger(MaintainedDataflow.class);

    final long id;
    final DataflowSpec spec;
    final long asOf;
    final Set<Long> tableSources;
    final Map<Long, ExportTrace> imports;
    final ExportTrace trace;
    /** Null with one worker: nothing to exchange. */
    final ExchangeHub hub;
    final EvalContext ctx;

    private final InputSnapshot inputs;
    private final AtomicInteger hydrating;
    private final AtomicBoolean inputsClosed = new AtomicBoolean();
    private final ConcurrentHashMap<Long, Changes> tableContents = new ConcurrentHashMap<>();

    MaintainedDataflow(long id, DataflowSpec spec, InputSnapshot inputs, Set<Long> tableSources,
                       Map<Long, ExportTrace> imports, ExportTrace trace, int workers, EvalContext ctx) {
        this.id = id;
        this.spec = spec;
        this.asOf = inputs.asOf();
        this.inputs = inputs;
        this.tableSources = Set.copyOf(tableSources);
        this.imports = Map.copyOf(imports);
        this.trace = trace;
        this.hub = workers > 1 ? new ExchangeHub(workers) : null;
        this.ctx = ctx;
        this.hydrating = new AtomicInteger(workers);
    }

    String name() { return spec.name(); }

    /**
     * Table {@code id}'s contents at {@link #asOf}, read once and shared by the workers
     * (each takes its partition). Worker threads.
     */
    Changes tableContents(long tableId) {
        return tableContents.computeIfAbsent(tableId, t -> inputs.tables().read(t, asOf));
    }

    /** A worker finished (or failed) hydrating; the last one releases the input snapshot. */
    void hydrationDone() {
        if (hydrating.decrementAndGet() == 0) {
            tableContents.clear();
            closeInputs();
        }
    }

    /** Releases the input snapshot's read holds, once. */
    void closeInputs() {
        if (!inputsClosed.compareAndSet(false, true)) return;
        try {
            inputs.close();
        } catch (RuntimeException e) {
            LOG.warn("releasing the inputs of dataflow \"{}\" failed", name(), e);
        }
    }

    /** Fails the dataflow everywhere: releases peers blocked at its exchanges and fails its readers. */
    void abort(RuntimeException cause) {
        if (hub != null) hub.abort(cause);
        trace.fail(cause);
    }
}
