package io.stillwater.engine.types;

import java.math.BigDecimal;
import java.util.Comparator;

/**
 * Total order and hashing over datums (the Java values of {@link TypeKind}).
 *
 * <p>This order is the engine's storage order: arrangements sort by it and
 * consolidation groups by it. It puts NULL first and orders every non-null value as SQL
 * does for its type (numbers numerically, text by code point, like {@code COLLATE "C"},
 * floats with NaN greatest as in PostgreSQL). Values of different numeric classes
 * compare numerically so a row built with an {@code Integer} equals one built with a
 * {@code Long} only when... never: callers keep one class per column; mixing classes is
 * tolerated by comparison but {@link #hash} assumes one class per column.
 */
public final class Datums {
    private Datums() {}

    /** The storage order: NULL first, then the type's natural SQL order. */
    public static final Comparator<Object> ORDER = Datums::compare;

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Object a, Object b) {
        if (a == b) return 0;
        if (a == null) return -1;
        if (b == null) return 1;
        if (a.getClass() == b.getClass()) {
            if (a instanceof Double x) return Double.compare(x, (Double) b); // NaN greatest, -0.0 < 0.0
            if (a instanceof Float x) return Float.compare(x, (Float) b);
            if (a instanceof BigDecimal x) return x.compareTo((BigDecimal) b);
            return ((Comparable) a).compareTo(b);
        }
        if (a instanceof Number x && b instanceof Number y) {
            if (a instanceof Double || a instanceof Float || b instanceof Double || b instanceof Float) {
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            return toBigDecimal(x).compareTo(toBigDecimal(y));
        }
        // Different non-numeric classes never share a column; order by class name to stay total.
        return a.getClass().getName().compareTo(b.getClass().getName());
    }

    /** Hash consistent with {@link #compare} for values of one class (BigDecimal ignores scale). */
    public static int hash(Object a) {
        if (a == null) return 0;
        if (a instanceof BigDecimal d) {
            return d.signum() == 0 ? 0 : d.stripTrailingZeros().hashCode();
        }
        return a.hashCode();
    }

    private static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal d) return d;
        return BigDecimal.valueOf(n.longValue());
    }
}
