package io.stillwater.engine.types;

import java.math.BigInteger;

/**
 * A PostgreSQL interval: months, days and microseconds are kept apart because a month
 * has no fixed number of days and a day no fixed number of seconds (DST).
 *
 * <p>Ordering and equality follow PostgreSQL: intervals compare by their length with
 * 30-day months and 24-hour days, so {@code '1 month' = '30 days'}. {@link #equals} is
 * that SQL equality too, so two equal intervals group together.
 */
public record Interval(int months, int days, long micros) implements Comparable<Interval> {
    public static final long MICROS_PER_DAY = 86_400_000_000L;
    public static final Interval ZERO = new Interval(0, 0, 0);

    /** Length in microseconds with 30-day months; used for ordering and hashing. */
    public BigInteger span() {
        return BigInteger.valueOf(months).multiply(BigInteger.valueOf(30))
                .add(BigInteger.valueOf(days))
                .multiply(BigInteger.valueOf(MICROS_PER_DAY))
                .add(BigInteger.valueOf(micros));
    }

    @Override
    public int compareTo(Interval o) { return span().compareTo(o.span()); }

    @Override
    public boolean equals(Object o) { return o instanceof Interval i && compareTo(i) == 0; }

    @Override
    public int hashCode() { return span().hashCode(); }
}
