package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;

/**
 * A {@link RecursiveOperator} in a pipelined one-shot read: pulls every input to the end,
 * runs the fixpoint once (the operator reports its state's size as it grows, which is
 * reserved from the read's memory budget, so a runaway recursion fails with 53200), then
 * emits the result in chunks.
 */
final class RecursiveStage extends Stage {
    private final RecursiveOperator op;
    private final Stage[] inputs;
    private Changes result;
    private int emitted;

    RecursiveStage(Context cx, RecursiveOperator op, Stage[] inputs) {
        super(cx);
        this.op = op;
        this.inputs = inputs;
        op.memoryHook(this::holdExactly);
    }

    @Override
    Changes next() {
        if (result == null) {
            Changes[] all = new Changes[inputs.length];
            for (int k = 0; k < inputs.length; k++) {
                all[k] = new Changes(0);
                for (Changes c = inputs[k].next(); c != null; c = inputs[k].next()) {
                    cx.cancel().check();
                    all[k].addAll(c);
                }
                inputs[k].close();
            }
            result = cx.step(op, all);
        }
        if (emitted >= result.size()) {
            holdExactly(0);
            return null;
        }
        int n = Math.min(cx.chunkRows(), result.size() - emitted);
        Changes out = new Changes(n);
        for (int i = 0; i < n; i++) out.add(result.row(emitted + i), result.diff(emitted + i));
        emitted += n;
        return out;
    }

    @Override
    void close() {
        for (Stage s : inputs) s.close();
        super.close();
    }
}
