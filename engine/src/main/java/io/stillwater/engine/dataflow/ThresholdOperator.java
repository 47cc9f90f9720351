package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;

/**
 * Clamps multiplicities: {@link Mode#DISTINCT} outputs each row with a positive
 * accumulated count once; {@link Mode#POSITIVE} outputs it {@code max(0, count)} times
 * (the core of EXCEPT ALL). State: the accumulated input counts. At each step only rows
 * whose count changed are looked at, and the output changes by the difference of the
 * clamped old and new counts.
 */
final class ThresholdOperator extends Operator {
    enum Mode { DISTINCT, POSITIVE }

    private final Mode mode;
    private final Counts counts = new Counts();

    ThresholdOperator(Mode mode, Cancellation cancel) {
        super(cancel);
        this.mode = mode;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes in = inputs[0];
        Changes out = new Changes(in.size());
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            long d = in.diff(i);
            long now = counts.update(r, d);
            long before = now - d;
            long diff = clamp(now) - clamp(before);
            if (diff != 0) out.add(r, diff);
        }
        return out;
    }

    private long clamp(long count) {
        return mode == Mode.DISTINCT ? (count > 0 ? 1 : 0) : Math.max(0, count);
    }
}
