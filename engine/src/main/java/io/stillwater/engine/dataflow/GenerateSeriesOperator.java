package io.stillwater.engine.dataflow;

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
        if (emitted) return Changes.empty();
        emitted = true;
        Changes out = new Changes();
        try {
            Object start = args.get(0).eval(Row.EMPTY);
            Object stop = args.get(1).eval(Row.EMPTY);
            Object step = args.size() > 2 ? args.get(2).eval(Row.EMPTY) : null;
            if (start == null || stop == null || (args.size() > 2 && step == null)) return out;
            switch (type.kind()) {
                case NUMERIC -> numeric(toDecimal(start), toDecimal(stop), step == null ? BigDecimal.ONE : toDecimal(step), out);
                case TIMESTAMP, TIMESTAMPTZ -> temporal(start, stop, (Interval) step, out);
                default -> integers(((Number) start).longValue(), ((Number) stop).longValue(),
                        step == null ? 1 : ((Number) step).longValue(), out);
            }
        } catch (SqlException e) {
            errors.add(errorRow(e), 1);
            return Changes.empty();
        }
        return out;
    }

    private static SqlException zeroStep() {
        return new SqlException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
    }

    private void integers(long start, long stop, long step, Changes out) {
        if (step == 0) throw zeroStep();
        TypeKind k = type.kind();
        int i = 0;
        for (long v = start; step > 0 ? v <= stop : v >= stop; ) {
            tick(i++);
            out.add(Row.wrap(new Object[] {k == TypeKind.BIGINT ? (Object) v : k == TypeKind.SMALLINT ? (Object) (short) v : (Object) (int) v}), 1);
            try {
                v = Math.addExact(v, step);
            } catch (ArithmeticException overflow) {
                break;
            }
        }
    }

    private static BigDecimal toDecimal(Object v) {
        return v instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) v).longValue());
    }

    private void numeric(BigDecimal start, BigDecimal stop, BigDecimal step, Changes out) {
        if (step.signum() == 0) throw zeroStep();
        int i = 0;
        for (BigDecimal v = start; step.signum() > 0 ? v.compareTo(stop) <= 0 : v.compareTo(stop) >= 0; v = v.add(step)) {
            tick(i++);
            out.add(Row.wrap(new Object[] {v}), 1);
        }
    }

    private void temporal(Object start, Object stop, Interval step, Changes out) {
        int dir = step.compareTo(Interval.ZERO);
        if (dir == 0) throw zeroStep();
        int i = 0;
        if (start instanceof LocalDateTime s && stop instanceof LocalDateTime e) {
            for (LocalDateTime v = s; dir > 0 ? !v.isAfter(e) : !v.isBefore(e); v = plus(v, step)) {
                tick(i++);
                out.add(Row.wrap(new Object[] {v}), 1);
            }
        } else {
            Instant s = (Instant) start, e = (Instant) stop;
            for (Instant v = s; dir > 0 ? !v.isAfter(e) : !v.isBefore(e);
                 v = v.atZone(zone).plusMonths(step.months()).plusDays(step.days()).toInstant()
                         .plus(step.micros(), ChronoUnit.MICROS)) {
                tick(i++);
                out.add(Row.wrap(new Object[] {v}), 1);
            }
        }
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
