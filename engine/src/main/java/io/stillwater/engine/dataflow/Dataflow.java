package io.stillwater.engine.dataflow;

import java.util.Collections;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.types.SqlType;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A built graph of operators over updates, stepped one time at a time: the same object
 * serves a one-shot read (one step at the read time, then dropped) and a maintained view
 * (a step per input time). Built by {@link DataflowBuilder}.
 *
 * <p>Nodes are kept in topological order (every node after its inputs); a step runs them
 * in that order on plain objects, with no threads. A dataflow is not thread-safe: one
 * thread steps it, and its operators' state belongs to that thread.
 */
public final class Dataflow {
    /** A node: a source (op null, reading input {@code sourceId}) or an operator over earlier nodes. */
    record Node(Operator op, int[] inputs, long sourceId) {}

    private final Node[] nodes;
    private final int output;
    private final List<SqlType> types;
    private final Cancellation cancel;
    /** For each node, the last node that reads its output (so the output can be dropped after it). */
    private final int[] lastReader;
    private final Set<Long> sourceIds = new LinkedHashSet<>();
    private long lastTime = Long.MIN_VALUE;

    Dataflow(List<Node> nodes, int output, List<SqlType> types, Cancellation cancel) {
        this.nodes = nodes.toArray(Node[]::new);
        this.output = output;
        this.types = List.copyOf(types);
        this.cancel = cancel;
        this.lastReader = new int[this.nodes.length];
        for (int i = 0; i < this.nodes.length; i++) {
            Node n = this.nodes[i];
            if (n.op == null) sourceIds.add(n.sourceId);
            for (int in : n.inputs) lastReader[in] = i;
        }
        lastReader[output] = Integer.MAX_VALUE;
    }

    /** The stored collections this dataflow reads (the {@code Get} object ids). */
    public Set<Long> sourceIds() { return Collections.unmodifiableSet(sourceIds); }

    /** The output's column types. */
    public List<SqlType> types() { return types; }

    /** The nodes in topological order, for {@link PipelinedRead} (which runs them chunk by chunk instead of stepping). */
    Node[] nodes() { return nodes; }

    /** The index of the output node. */
    int output() { return output; }

    /**
     * Runs one time step: {@code inputChanges} maps source object ids to their changes at
     * {@code time} (absent means no change). Returns the output's changes and the error
     * collection's changes at {@code time}, not consolidated. Times must not decrease.
     */
    public Delta step(long time, Map<Long, Changes> inputChanges) {
        if (time < lastTime) {
            throw new IllegalArgumentException("time " + time + " is before the previous step " + lastTime);
        }
        lastTime = time;
        Changes[] outs = new Changes[nodes.length];
        Changes errors = new Changes(0);
        for (int i = 0; i < nodes.length; i++) {
            cancel.check();
            Node n = nodes[i];
            if (n.op == null) {
                Changes c = inputChanges.get(n.sourceId);
                outs[i] = c == null ? Changes.empty() : c;
                continue;
            }
            Changes[] ins = new Changes[n.inputs.length];
            for (int j = 0; j < ins.length; j++) ins[j] = outs[n.inputs[j]];
            outs[i] = n.op.step(ins, errors);
            for (int in : n.inputs) if (lastReader[in] == i) outs[in] = null;
        }
        return new Delta(outs[output], errors);
    }
}
