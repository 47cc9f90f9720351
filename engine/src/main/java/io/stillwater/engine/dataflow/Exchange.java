package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.Datums;

/**
 * One worker's end of a data-parallel dataflow's exchange channel: how a worker's copy of
 * a dataflow sends updates to the worker that owns their key and receives its own.
 *
 * <p>Contract: every one of the {@link #peers()} workers running a copy of the dataflow
 * calls {@link #exchange} the same number of times, in the same order (they step the
 * same times through the same node list), so the n-th call of every worker forms one
 * round. A call is a barrier: it returns once every peer has deposited its round.
 *
 * <p>Routing ({@link #route}) is a stable function of the key's values (consistent with
 * {@link Row#equals}), so every update of one key, at every time, meets the same
 * operator instance: a keyed operator's state partitions cleanly across workers.
 */
public interface Exchange {
    /** The number of workers. */
    int peers();

    /** This worker's index, {@code 0 <= self() < peers()}. */
    int self();

    /**
     * Deposits {@code outgoing[p]} for every peer {@code p} (this worker's own share
     * included) and returns everything the peers deposited for this worker in this round.
     * Blocks until every peer has deposited. Fails (unchecked) if the dataflow was aborted.
     */
    Changes exchange(Changes[] outgoing);

    /** The worker owning key hash {@code hash} among {@code peers} (a mixed hash, so sequential keys spread). */
    static int route(int hash, int peers) {
        int h = hash * 0x9E3779B9;
        h ^= h >>> 16;
        return Math.floorMod(h, peers);
    }

    /** {@link Row#hashCode()} of {@code row.project(columns)} without building the projection. */
    static int hashColumns(Row row, int[] columns) {
        int h = 1;
        for (int c : columns) h = 31 * h + Datums.hash(row.get(c));
        return h;
    }

    /** Splits {@code in} by {@code route(hash(key))}: the buffers an exchange round sends. */
    static Changes[] partition(Changes in, int[] keyColumns, int peers) {
        Changes[] out = new Changes[peers];
        for (int p = 0; p < peers; p++) out[p] = new Changes(in.size() / peers + 1);
        for (int i = 0; i < in.size(); i++) {
            Row r = in.row(i);
            int h = keyColumns == null ? r.hashCode() : hashColumns(r, keyColumns);
            out[route(h, peers)].add(r, in.diff(i));
        }
        return out;
    }
}
