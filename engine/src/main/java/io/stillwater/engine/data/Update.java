package io.stillwater.engine.data;

/**
 * One change to a collection: {@code row}'s multiplicity changes by {@code diff} at
 * {@code time} (milliseconds since the epoch). A collection at time {@code t} is the
 * sum of all updates with {@code time <= t}.
 */
public record Update(Row row, long time, long diff) {}
