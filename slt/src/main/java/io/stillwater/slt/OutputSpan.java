package io.stillwater.slt;

/**
 * Where a record's expected output sits in its file, as 0-based line indexes, so that
 * {@code --rewrite-results} can replace it. {@code separator} is the {@code ----} line, or -1
 * when the record has none (an empty expected result): then new output is inserted after
 * {@code sqlEnd} (the index after the last SQL line). {@code [start, end)} are the output lines
 * (for a {@code multiline} record the {@code EOF} line is not included).
 */
public record OutputSpan(int sqlEnd, int separator, int start, int end) {}
