package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;

/**
 * An input of a one-shot read that is already arranged by key at the read time (an
 * index, pinned by the reader). A join whose equi keys cover the arrangement's key probes
 * it per row instead of copying its contents into a hash table, so an indexed input is
 * never re-arranged.
 */
public interface ArrangedInput {
    /** The columns of the collection that form the arrangement's key, in key order. */
    int[] keyColumns();

    /** Every row whose key equals {@code key} (values in key order), with its positive multiplicity. */
    void lookup(Row key, Visitor visitor);

    @FunctionalInterface
    interface Visitor {
        void accept(Row row, long diff);
    }
}
