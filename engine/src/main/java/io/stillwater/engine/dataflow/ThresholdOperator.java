package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.memory.HeapEstimate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Clamps multiplicities: {@link Mode#DISTINCT} outputs each row with a positive
 * accumulated count once; {@link Mode#POSITIVE} outputs it {@code max(0, count)} times
 * (the core of EXCEPT ALL). State: per row its accumulated input count and the count its
 * output was last computed from. Only rows whose count changed are looked at, and the
 * output changes by the difference of the clamped old and new counts.
 */
final class ThresholdOperator extends Operator implements Absorbing {
    enum Mode { DISTINCT, POSITIVE }

    /** A row's state: {@code now} is its accumulated count, {@code emitted} the count its output reflects. */
    private static final class Entry {
        long now;
        long emitted;
        boolean touched;
    }

    /** A map entry, the Entry object and its fields. */
    private static final long ENTRY_BYTES = HeapEstimate.MAP_ENTRY + 40;

    private final Mode mode;
    private final HashMap<Row, Entry> counts = new HashMap<>();
    /** Rows whose count changed since the last complete emit, in first-change order. */
    private final List<Row> touched = new ArrayList<>();
    private int emitted;
    private long stateBytes;

    ThresholdOperator(Mode mode, Cancellation cancel) {
        super(cancel);
        this.mode = mode;
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        absorb(inputs[0], errors);
        Changes out = emit(Integer.MAX_VALUE, errors);
        emit(Integer.MAX_VALUE, errors); // completes the round
        return out == null ? Changes.empty() : out;
    }

    @Override
    public void absorb(Changes in, Changes errors) {
        long rowBytes = in.isEmpty() ? 0 : HeapEstimate.chunk(in) / in.size();
        for (int i = 0; i < in.size(); i++) {
            tick(i);
            Row r = in.row(i);
            Entry e = counts.get(r);
            if (e == null) {
                e = new Entry();
                counts.put(r, e);
                stateBytes += ENTRY_BYTES + rowBytes;
            }
            e.now += in.diff(i);
            if (!e.touched) {
                e.touched = true;
                touched.add(r);
            }
        }
    }

    @Override
    public Changes emit(int max, Changes errors) {
        if (emitted == touched.size()) {
            touched.clear();
            emitted = 0;
            return null;
        }
        int end = (int) Math.min(touched.size(), (long) emitted + Math.max(1, max));
        Changes out = new Changes(end - emitted);
        for (int i = emitted; i < end; i++) {
            tick(i);
            Row r = touched.get(i);
            touched.set(i, null);
            Entry e = counts.get(r);
            e.touched = false;
            long diff = clamp(e.now) - clamp(e.emitted);
            if (diff != 0) out.add(r, diff);
            e.emitted = e.now;
            if (e.now == 0) {
                counts.remove(r);
                stateBytes = Math.max(0, stateBytes - ENTRY_BYTES - HeapEstimate.row(r));
            }
        }
        emitted = end;
        return out;
    }

    @Override
    public long stateBytes() { return stateBytes; }

    private long clamp(long count) {
        return mode == Mode.DISTINCT ? (count > 0 ? 1 : 0) : Math.max(0, count);
    }
}
