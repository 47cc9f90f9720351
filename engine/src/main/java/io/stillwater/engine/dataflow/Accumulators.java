package io.stillwater.engine.dataflow;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.types.Datums;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.PgArray;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The accumulators for every {@link AggFunc}, chosen by the aggregate's result type the
 * way PostgreSQL picks its implementation ({@code sum(int)} is bigint, {@code avg(int)}
 * numeric with PostgreSQL's division scale, {@code avg(float8)} float8, ...).
 */
final class Accumulators {
    private Accumulators() {}

    /** A factory of fresh accumulators for {@code call} over rows of {@code inputTypes}. */
    static Supplier<Accumulator> factory(AggCall call, List<SqlType> inputTypes) {
        Supplier<Accumulator> base = baseFactory(call, inputTypes);
        Supplier<Accumulator> distinct = call.distinct() && !call.args().isEmpty()
                ? distinctOf(base, call.args().stream().mapToInt(Integer::intValue).toArray())
                : base;
        int filter = call.filterColumn();
        return filter < 0 ? distinct : () -> new Filtered(distinct.get(), filter);
    }

    private static Supplier<Accumulator> distinctOf(Supplier<Accumulator> base, int[] args) {
        return () -> new Distinct(base.get(), args);
    }

    private static Supplier<Accumulator> baseFactory(AggCall call, List<SqlType> inputTypes) {
        TypeKind out = call.type().kind();
        int arg = call.args().isEmpty() ? -1 : call.args().get(0);
        TypeKind in = arg < 0 ? null : inputTypes.get(arg).kind();
        boolean floatOut = out == TypeKind.DOUBLE || out == TypeKind.REAL;
        return switch (call.func()) {
            case COUNT_STAR -> () -> new Count(-1);
            case COUNT -> () -> new Count(arg);
            case SUM -> {
                if (floatOut) yield () -> new FloatStat(arg, AggFunc.SUM, out);
                if (in == TypeKind.INTERVAL) yield () -> new IntervalSum(arg);
                if (in != null && in.isInteger() && out.isInteger()) yield () -> new IntegerSum(arg, out);
                yield () -> new DecimalStat(arg, AggFunc.SUM);
            }
            case AVG -> {
                if (floatOut) yield () -> new FloatStat(arg, AggFunc.AVG, out);
                if (in == TypeKind.INTERVAL) throw unsupported(call);
                yield () -> new DecimalStat(arg, AggFunc.AVG);
            }
            case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> {
                if (floatOut) yield () -> new FloatStat(arg, call.func(), out);
                yield () -> new DecimalStat(arg, call.func());
            }
            case MIN -> () -> new MinMax(arg, false);
            case MAX -> () -> new MinMax(arg, true);
            case BOOL_AND -> () -> new Bool(arg, true);
            case BOOL_OR -> () -> new Bool(arg, false);
            case STRING_AGG -> {
                int sep = call.args().size() > 1 ? call.args().get(1) : -1;
                List<SortKey> order = call.order();
                yield () -> new StringAgg(arg, sep, order);
            }
            case SINGLE_VALUE -> () -> new SingleValue(arg);
            case ARRAY_AGG -> {
                List<SortKey> order = call.order();
                boolean ofArrays = inputTypes.get(arg).isArray();
                yield () -> new OrderedAggregate(new int[] {arg}, order, -1, rows -> arrayAgg(rows, ofArrays));
            }
            case JSONB_AGG, JSONB_OBJECT_AGG -> JsonbAggregates.factory(call, inputTypes);
        };
    }

    /** array_agg's result; arrays of arrays must be non-null, non-empty and of one shape, as in PostgreSQL. */
    private static PgArray arrayAgg(List<Row> rows, boolean ofArrays) {
        List<Object> out = new ArrayList<>(rows.size());
        int[] dims = null;
        for (Row r : rows) {
            Object v = r.get(0);
            if (ofArrays) {
                if (v == null) throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot accumulate null arrays");
                PgArray a = (PgArray) v;
                if (a.isEmpty()) throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot accumulate empty arrays");
                if (dims != null && !Arrays.equals(dims, a.dimensions())) {
                    throw new SqlException(SqlState.ARRAY_SUBSCRIPT_ERROR, "cannot accumulate arrays of different dimensionality");
                }
                dims = a.dimensions();
            }
            out.add(v);
        }
        return PgArray.of(out);
    }

    private static SqlException unsupported(AggCall call) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                "aggregate " + call.func().name().toLowerCase() + " over this type is not supported");
    }

    /** FILTER (WHERE col): only rows whose filter column is TRUE reach the aggregate. */
    private record Filtered(Accumulator inner, int column) implements Accumulator {
        @Override
        public void add(Row input, long diff) {
            if (Boolean.TRUE.equals(input.get(column))) inner.add(input, diff);
        }

        @Override
        public Object result() { return inner.result(); }

        @Override
        public long entries() { return inner.entries(); }
    }

    /** DISTINCT: the aggregate sees each distinct argument tuple once while it is present. */
    private static final class Distinct implements Accumulator {
        private final Accumulator inner;
        private final int[] args;
        private final Counts seen = new Counts();

        Distinct(Accumulator inner, int[] args) {
            this.inner = inner;
            this.args = args;
        }

        @Override
        public void add(Row input, long diff) {
            long now = seen.update(input.project(args), diff);
            long before = now - diff;
            if (before <= 0 && now > 0) inner.add(input, 1);
            else if (before > 0 && now <= 0) inner.add(input, -1);
        }

        @Override
        public Object result() { return inner.result(); }

        @Override
        public long entries() { return seen.size() + inner.entries(); }
    }

    /** count(*) (column -1) or count(x): the number of rows, or of non-null values. */
    private static final class Count implements Accumulator {
        private final int column;
        private long count;

        Count(int column) { this.column = column; }

        @Override
        public void add(Row input, long diff) {
            if (column < 0 || input.get(column) != null) count += diff;
        }

        @Override
        public Object result() { return count; }
    }

    /** sum over integers into an integer result (sum(int) is bigint), exact past 64 bits. */
    private static final class IntegerSum implements Accumulator {
        private final int column;
        private final TypeKind out;
        private long values;
        private long small;
        private BigInteger big; // non-null once the running sum left the long range

        IntegerSum(int column, TypeKind out) {
            this.column = column;
            this.out = out;
        }

        @Override
        public void add(Row input, long diff) {
            Object v = input.get(column);
            if (v == null) return;
            values += diff;
            long x = ((Number) v).longValue();
            if (big == null) {
                try {
                    small = Math.addExact(small, Math.multiplyExact(x, diff));
                    return;
                } catch (ArithmeticException overflow) {
                    big = BigInteger.valueOf(small);
                }
            }
            big = big.add(BigInteger.valueOf(x).multiply(BigInteger.valueOf(diff)));
        }

        @Override
        public Object result() {
            if (values == 0) return null;
            BigInteger sum = big == null ? BigInteger.valueOf(small) : big;
            return switch (out) {
                case BIGINT -> {
                    if (sum.bitLength() > 63) throw outOfRange("bigint");
                    yield sum.longValue();
                }
                case INTEGER -> {
                    if (sum.bitLength() > 31) throw outOfRange("integer");
                    yield sum.intValue();
                }
                default -> {
                    if (sum.bitLength() > 15) throw outOfRange("smallint");
                    yield sum.shortValue();
                }
            };
        }
    }

    static SqlException outOfRange(String type) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type + " out of range");
    }

    /**
     * Exact numeric aggregates (sum, avg, variance, stddev over integers or numerics with a
     * numeric result), as PostgreSQL's numeric accumulators compute them: running sums of
     * x and x*x, the count, and the largest input scale (tracked with a count per scale so
     * it stays right under retractions, as PostgreSQL's moving-aggregate state does).
     */
    private static final class DecimalStat implements Accumulator {
        private final int column;
        private final AggFunc func;
        private final boolean squares;
        private long n;
        private final ExactSum sum = new ExactSum();
        private final ExactSum sumSquares = new ExactSum();
        /** Count of values per scale, for scales above 0 (integers have scale 0, the minimum). */
        private final TreeMap<Integer, long[]> scales = new TreeMap<>();

        DecimalStat(int column, AggFunc func) {
            this.column = column;
            this.func = func;
            this.squares = func != AggFunc.SUM && func != AggFunc.AVG;
        }

        @Override
        public void add(Row input, long diff) {
            Object v = input.get(column);
            if (v == null) return;
            n += diff;
            if (v instanceof BigDecimal x) {
                BigDecimal d = BigDecimal.valueOf(diff);
                sum.add(diff == 1 ? x : x.multiply(d));
                if (squares) {
                    BigDecimal sq = x.multiply(x);
                    sumSquares.add(diff == 1 ? sq : sq.multiply(d));
                }
                int scale = x.scale();
                if (scale > 0) {
                    long[] c = scales.computeIfAbsent(scale, k -> new long[1]);
                    c[0] += diff;
                    if (c[0] == 0) scales.remove(scale);
                }
            } else {
                long x = ((Number) v).longValue();
                sum.add(x, diff);
                if (squares) {
                    try {
                        sumSquares.add(Math.multiplyExact(x, x), diff);
                    } catch (ArithmeticException overflow) {
                        BigDecimal bx = BigDecimal.valueOf(x);
                        sumSquares.add(bx.multiply(bx).multiply(BigDecimal.valueOf(diff)));
                    }
                }
            }
        }

        @Override
        public Object result() {
            if (n == 0) return null;
            int scale = scales.isEmpty() ? 0 : scales.lastKey();
            BigDecimal sx = sum.value().setScale(scale, RoundingMode.UNNECESSARY);
            BigDecimal count = BigDecimal.valueOf(n);
            return switch (func) {
                case SUM -> sx;
                case AVG -> PgNumeric.divide(sx, count);
                default -> {
                    boolean sample = func == AggFunc.STDDEV_SAMP || func == AggFunc.VAR_SAMP;
                    if (sample && n == 1) yield null;
                    BigDecimal sx2 = sumSquares.value().setScale(2 * scale, RoundingMode.UNNECESSARY);
                    BigDecimal numerator = count.multiply(sx2).subtract(sx.multiply(sx));
                    if (numerator.signum() <= 0) yield BigDecimal.ZERO;
                    BigDecimal denominator = sample ? count.multiply(BigDecimal.valueOf(n - 1)) : count.multiply(count);
                    int rscale = PgNumeric.divScale(numerator, denominator);
                    BigDecimal variance = numerator.divide(denominator, rscale, RoundingMode.HALF_UP);
                    boolean stddev = func == AggFunc.STDDEV_SAMP || func == AggFunc.STDDEV_POP;
                    yield stddev ? PgNumeric.sqrt(variance, rscale) : variance;
                }
            };
        }
    }

    /** An exact running sum: in a long while it fits (no allocation per value), else in a BigDecimal. */
    private static final class ExactSum {
        private long small;
        private BigDecimal big = BigDecimal.ZERO;

        void add(long x, long diff) {
            try {
                small = Math.addExact(small, Math.multiplyExact(x, diff));
            } catch (ArithmeticException overflow) {
                big = big.add(BigDecimal.valueOf(x).multiply(BigDecimal.valueOf(diff)));
            }
        }

        void add(BigDecimal x) { big = big.add(x); }

        BigDecimal value() { return big.add(BigDecimal.valueOf(small)); }
    }

    /**
     * Floating-point sum/avg/variance/stddev. Float addition does not invert exactly, so
     * the accumulator keeps the multiset of values and recomputes in value order (which
     * also makes the result independent of the order updates arrived in).
     */
    private static final class FloatStat implements Accumulator {
        private final int column;
        private final AggFunc func;
        private final TypeKind out;
        private final TreeMap<Double, long[]> values = new TreeMap<>();

        FloatStat(int column, AggFunc func, TypeKind out) {
            this.column = column;
            this.func = func;
            this.out = out;
        }

        @Override
        public void add(Row input, long diff) {
            Object v = input.get(column);
            if (v == null) return;
            double x = ((Number) v).doubleValue();
            long[] c = values.computeIfAbsent(x, k -> new long[1]);
            c[0] += diff;
            if (c[0] == 0) values.remove(x);
        }

        @Override
        public long entries() { return values.size(); }

        @Override
        public Object result() {
            long n = 0;
            double sum = 0;
            for (Map.Entry<Double, long[]> e : values.entrySet()) {
                n += e.getValue()[0];
                sum += e.getKey() * e.getValue()[0];
            }
            if (n <= 0) return null;
            double r;
            switch (func) {
                case SUM -> r = sum;
                case AVG -> r = sum / n;
                default -> {
                    boolean sample = func == AggFunc.STDDEV_SAMP || func == AggFunc.VAR_SAMP;
                    if (sample && n == 1) return null;
                    double mean = sum / n;
                    double sq = 0;
                    for (Map.Entry<Double, long[]> e : values.entrySet()) {
                        double dev = e.getKey() - mean;
                        sq += dev * dev * e.getValue()[0];
                    }
                    double variance = sq / (sample ? n - 1 : n);
                    boolean stddev = func == AggFunc.STDDEV_SAMP || func == AggFunc.STDDEV_POP;
                    r = stddev ? Math.sqrt(variance) : variance;
                }
            }
            return out == TypeKind.REAL ? (Object) (float) r : (Object) r;
        }
    }

    /** sum(interval): months, days and microseconds summed separately, as PostgreSQL does. */
    private static final class IntervalSum implements Accumulator {
        private final int column;
        private long n;
        private long months;
        private long days;
        private long micros;

        IntervalSum(int column) { this.column = column; }

        @Override
        public void add(Row input, long diff) {
            if (!(input.get(column) instanceof Interval v)) return;
            n += diff;
            months += v.months() * diff;
            days += v.days() * diff;
            micros += v.micros() * diff;
        }

        @Override
        public Object result() {
            if (n == 0) return null;
            if (months != (int) months || days != (int) days) throw outOfRange("interval");
            return new Interval((int) months, (int) days, micros);
        }
    }

    /** min/max under deletions: the multiset of non-null values in value order. */
    private static final class MinMax implements Accumulator {
        private final int column;
        private final boolean max;
        private final TreeMap<Object, long[]> values = new TreeMap<>(Datums.ORDER);

        MinMax(int column, boolean max) {
            this.column = column;
            this.max = max;
        }

        @Override
        public void add(Row input, long diff) {
            Object v = input.get(column);
            if (v == null) return;
            long[] c = values.computeIfAbsent(v, k -> new long[1]);
            c[0] += diff;
            if (c[0] == 0) values.remove(v);
        }

        @Override
        public long entries() { return values.size(); }

        @Override
        public Object result() {
            if (values.isEmpty()) return null;
            return max ? values.lastKey() : values.firstKey();
        }
    }

    /** bool_and / bool_or: counts of true and false values. */
    private static final class Bool implements Accumulator {
        private final int column;
        private final boolean and;
        private long trues;
        private long falses;

        Bool(int column, boolean and) {
            this.column = column;
            this.and = and;
        }

        @Override
        public void add(Row input, long diff) {
            Object v = input.get(column);
            if (v == null) return;
            if ((Boolean) v) trues += diff;
            else falses += diff;
        }

        @Override
        public Object result() {
            if (trues == 0 && falses == 0) return null;
            return and ? falses == 0 : trues != 0;
        }
    }

    /**
     * string_agg(value, separator [ORDER BY ...]): the multiset of (value, separator,
     * order columns...) in ORDER BY order (ties by the whole tuple, so the output is
     * deterministic). As in PostgreSQL, the first value's separator is not printed and a
     * NULL separator is empty.
     */
    private static final class StringAgg implements Accumulator {
        private final int[] columns;
        private final TreeMap<Row, long[]> values;

        StringAgg(int value, int separator, List<SortKey> order) {
            columns = new int[2 + order.size()];
            columns[0] = value;
            columns[1] = separator;
            List<SortKey> remapped = new ArrayList<>();
            for (int i = 0; i < order.size(); i++) {
                SortKey k = order.get(i);
                columns[2 + i] = k.column();
                remapped.add(new SortKey(2 + i, k.descending(), k.nullsFirst()));
            }
            Comparator<Row> cmp = RowOrder.byKeysThenRow(remapped);
            values = new TreeMap<>(cmp);
        }

        @Override
        public void add(Row input, long diff) {
            if (input.get(columns[0]) == null) return;
            Object[] t = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) t[i] = columns[i] < 0 ? null : input.get(columns[i]);
            Row key = Row.wrap(t);
            long[] c = values.computeIfAbsent(key, k -> new long[1]);
            c[0] += diff;
            if (c[0] == 0) values.remove(key);
        }

        @Override
        public long entries() { return values.size(); }

        @Override
        public Object result() {
            StringBuilder sb = null;
            for (Map.Entry<Row, long[]> e : values.entrySet()) {
                Row t = e.getKey();
                for (long i = 0; i < e.getValue()[0]; i++) {
                    if (sb == null) sb = new StringBuilder();
                    else if (t.get(1) != null) sb.append(t.get(1));
                    sb.append(t.get(0));
                }
            }
            return sb == null ? null : sb.toString();
        }
    }

    /** A scalar subquery's value: NULL for no rows, the value for one, error 21000 for more. */
    private static final class SingleValue implements Accumulator {
        private final int column;
        private final Counts values = new Counts();
        private long rows;

        SingleValue(int column) { this.column = column; }

        @Override
        public void add(Row input, long diff) {
            rows += diff;
            values.update(Row.wrap(new Object[] {input.get(column)}), diff);
        }

        @Override
        public long entries() { return values.size(); }

        @Override
        public Object result() {
            if (rows == 0) return null;
            if (rows > 1) {
                throw new SqlException(SqlState.CARDINALITY_VIOLATION,
                        "more than one row returned by a subquery used as an expression");
            }
            for (var e : values.entries()) if (e.getValue()[0] > 0) return e.getKey().get(0);
            return null;
        }
    }
}
