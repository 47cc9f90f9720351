package io.stillwater.engine.data;

/** A row and a multiplicity change, without a time: one element of {@link Changes}. */
public record RowDiff(Row row, long diff) {}
