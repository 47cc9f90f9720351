package io.stillwater.engine.dataflow;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Evaluator;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code generate_series(start, stop [, step])}: a constant collection computed from
 * constant arguments at the dataflow's first step. As in PostgreSQL, a NULL argument
 * gives no rows, a zero step is error 22023, and integer series stop before
 * overflowing. An error is data: it goes to the error collection.
 */
final class GenerateSeriesOperator extends Operator {
    private final List<Evaluator> args;
    private final SqlType type;
    private final ZoneId zone;
    private boolean emitted;

    GenerateSeriesOperator(List<Evaluator> args, SqlType type, EvalContext ctx, Cancellation cancel) {
        super(cancel);
        if (args.size() < 2 || args.size() > 3) throw new IllegalArgumentException("generate_series takes 2 or 3 arguments");
        boolean temporal = type.kind() == TypeKind.TIMESTAMP || type.kind() == TypeKind.TIMESTAMPTZ;
        if (!temporal && !type.kind().isInteger() && type.kind() != TypeKind.NUMERIC) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                    "function generate_series(" + type.displayName() + ") does not exist");
        }
        if (temporal && args.size() != 3) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                    "function generate_series(" + type.displayName() + ", " + type.displayName() + ") does not exist");
        }
        this.args = List.copyOf(args);
        this.type = type;
        this.zone = ctx.timeZone();
    }

    @Override
    Changes step(Changes[] inputs, Changes errors) {
        Changes out = new Changes();
        for (Changes c = nextChunk(Integer.MAX_VALUE, errors); c != null; c = nextChunk(Integer.MAX_VALUE, errors)) {
            out.addAll(c);
        }
        return out;
    }

    /** The values still to produce; null before the first chunk. */
    private Iterator<Object> values;

    /**
     * The next at most {@code max} rows of the series, or null once it is complete (a
     * pipelined read pulls a long series chunk by chunk; {@link #step} takes all of it).
     * An error evaluating the arguments goes to {@code errors}, and the series is empty.
     */
    Changes nextChunk(int max, Changes errors) {
        if (values == null) {
            if (emitted) return null;
            emitted = true;
            try {
                values = start();
            } catch (SqlException e) {
                errors.add(errorRow(e), 1);
                return null;
            }
        }
        if (!values.hasNext()) return null;
        Changes out = new Changes(Math.min(max, 1024));
        int i = 0;
        while (out.size() < max && values.hasNext()) {
            tick(i++);
            out.add(Row.wrap(new Object[] {values.next()}), 1);
        }
        return out;
    }

    /** Evaluates the arguments and returns the series' values, produced as they are iterated. */
    private Iterator<Object> start() {
        return valuesFor(Row.EMPTY);
    }

    /**
     * The series whose arguments are evaluated over {@code row} (LATERAL: the arguments
     * read an outer row; see {@link LateralSeriesOperator}). Errors are thrown.
     */
    Iterator<Object> valuesFor(Row row) {
        Object start = args.get(0).eval(row);
        Object stop = args.get(1).eval(row);
        Object step = args.size() > 2 ? args.get(2).eval(row) : null;
        if (start == null || stop == null || (args.size() > 2 && step == null)) return Collections.emptyIterator();
        return switch (type.kind()) {
            case NUMERIC -> numeric(toDecimal(start), toDecimal(stop), step == null ? BigDecimal.ONE : toDecimal(step));
            case TIMESTAMP, TIMESTAMPTZ -> temporal(start, stop, (Interval) step);
            default -> integers(((Number) start).longValue(), ((Number) stop).longValue(),
                    step == null ? 1 : ((Number) step).longValue());
        };
    }

    private static SqlException zeroStep() {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
    }

    /** Values from {@code first} while {@code more} holds, each the {@code advance} of the last (null: stop). */
    private static <T> Iterator<Object> series(T first, Predicate<T> more,
                                                          UnaryOperator<T> advance) {
        return new Iterator<>() {
            private T next = first != null && more.test(first) ? first : null;

            public boolean hasNext() { return next != null; }

            public Object next() {
                if (next == null) throw new NoSuchElementException();
                T v = next;
                T after = advance.apply(v);
                next = after != null && more.test(after) ? after : null;
                return v;
            }
        };
    }

    private Iterator<Object> integers(long start, long stop, long step) {
        if (step == 0) throw zeroStep();
        TypeKind k = type.kind();
        Iterator<Object> longs = series(start, v -> step > 0 ? v <= stop : v >= stop, v -> {
            try {
                return Math.addExact(v, step);
            } catch (ArithmeticException overflow) {
                return null;
            }
        });
        return new Iterator<>() {
            public boolean hasNext() { return longs.hasNext(); }

            public Object next() {
                long v = (Long) longs.next();
                return k == TypeKind.BIGINT ? (Object) v : k == TypeKind.SMALLINT ? (Object) (short) v : (Object) (int) v;
            }
        };
    }

    private static BigDecimal toDecimal(Object v) {
        return v instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) v).longValue());
    }

    private static Iterator<Object> numeric(BigDecimal start, BigDecimal stop, BigDecimal step) {
        if (step.signum() == 0) throw zeroStep();
        return series(start, v -> step.signum() > 0 ? v.compareTo(stop) <= 0 : v.compareTo(stop) >= 0, v -> v.add(step));
    }

    private Iterator<Object> temporal(Object start, Object stop, Interval step) {
        int dir = step.compareTo(Interval.ZERO);
        if (dir == 0) throw zeroStep();
        if (start instanceof LocalDateTime s && stop instanceof LocalDateTime e) {
            return series(s, v -> dir > 0 ? !v.isAfter(e) : !v.isBefore(e), v -> plus(v, step));
        }
        Instant s = (Instant) start, e = (Instant) stop;
        return series(s, v -> dir > 0 ? !v.isAfter(e) : !v.isBefore(e),
                v -> v.atZone(zone).plusMonths(step.months()).plusDays(step.days()).toInstant()
                        .plus(step.micros(), ChronoUnit.MICROS));
    }

    /**
     * timestamp + interval as PostgreSQL adds it: months (clamped to month end), days, then
     * time. For timestamptz the months and days move in the session's time zone and the
     * time part is absolute, so a day across a DST change is still one calendar day.
     */
    private static LocalDateTime plus(LocalDateTime t, Interval i) {
        return t.plusMonths(i.months()).plusDays(i.days()).plus(i.micros(), ChronoUnit.MICROS);
    }
}
