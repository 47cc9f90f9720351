package io.stillwater.engine.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Jsonb;
import io.stillwater.engine.types.JsonbText;
import io.stillwater.engine.types.PgArray;

/**
 * A set-returning function that a {@code FlatMap} applies to each input row: given the
 * values of its arguments it returns the rows (each an array of the function's columns)
 * that PostgreSQL's function of the same name returns. A NULL argument gives no rows,
 * as in PostgreSQL (these functions are strict). Pure: no state, no context.
 */
public enum TableFunction {
    /**
     * {@code unnest(anyarray [, anyarray ...])}: the elements, a multi-dimensional array
     * flattened in storage order; several arrays are zipped, the shorter padded with NULLs.
     */
    UNNEST(1),
    /** {@code unnest(...) WITH ORDINALITY}: unnest's columns and then the 1-based row number (bigint). */
    UNNEST_WITH_ORDINALITY(2),
    /** {@code generate_subscripts(array, dim [, reverse])}: the subscripts of dimension {@code dim}. */
    GENERATE_SUBSCRIPTS(1),
    /** {@code jsonb_array_elements(jsonb)}: the elements of a JSON array. */
    JSONB_ARRAY_ELEMENTS(1),
    /** {@code jsonb_array_elements_text(jsonb)}: the elements as text (JSON null is SQL NULL). */
    JSONB_ARRAY_ELEMENTS_TEXT(1),
    /** {@code jsonb_each(jsonb)}: (key, value) of a JSON object, in jsonb key order. */
    JSONB_EACH(2),
    /** {@code jsonb_each_text(jsonb)}: (key, value as text). */
    JSONB_EACH_TEXT(2),
    /** {@code jsonb_object_keys(jsonb)}: the keys of a JSON object. */
    JSONB_OBJECT_KEYS(1);

    private final int columns;

    TableFunction(int columns) { this.columns = columns; }

    /** How many columns each returned row has. */
    public int columns() { return columns; }

    /** The SQL name, as PostgreSQL spells it. */
    public String sqlName() { return name().toLowerCase(Locale.ROOT); }

    /** The function called {@code name} (any case), if it is one of these. */
    public static Optional<TableFunction> named(String name) {
        for (TableFunction f : values()) if (f.name().equalsIgnoreCase(name)) return Optional.of(f);
        return Optional.empty();
    }

    /** The rows for one call; errors (a scalar where an array is needed, ...) are {@link SqlException}s. */
    public List<Object[]> rows(Object[] args) {
        List<Object[]> out = new ArrayList<>();
        if (this == UNNEST || this == UNNEST_WITH_ORDINALITY) {
            zip(args, this == UNNEST_WITH_ORDINALITY, out);
            return out;
        }
        for (Object a : args) if (a == null) return List.of();
        switch (this) {
            case UNNEST, UNNEST_WITH_ORDINALITY -> throw new IllegalStateException("handled above");
            case GENERATE_SUBSCRIPTS -> subscripts((PgArray) args[0], ((Number) args[1]).intValue(),
                    args.length > 2 && (Boolean) args[2], out);
            case JSONB_ARRAY_ELEMENTS, JSONB_ARRAY_ELEMENTS_TEXT -> {
                Object root = ((Jsonb) args[0]).root();
                if (!(root instanceof List<?> elements)) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot extract elements from "
                            + (root instanceof Map<?, ?> ? "an object" : "a scalar"));
                }
                for (Object e : elements) out.add(new Object[] {this == JSONB_ARRAY_ELEMENTS ? Jsonb.of(e) : text(e)});
            }
            case JSONB_EACH, JSONB_EACH_TEXT, JSONB_OBJECT_KEYS -> {
                Object root = ((Jsonb) args[0]).root();
                if (!(root instanceof Map<?, ?> pairs)) {
                    String what = root instanceof List<?> ? "an array" : "a scalar";
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, this == JSONB_OBJECT_KEYS
                            ? "cannot call jsonb_object_keys on " + what
                            : "cannot call " + sqlName() + " on a non-object");
                }
                for (var e : pairs.entrySet()) {
                    Object v = e.getValue();
                    out.add(switch (this) {
                        case JSONB_EACH -> new Object[] {e.getKey(), Jsonb.of(v)};
                        case JSONB_EACH_TEXT -> new Object[] {e.getKey(), text(v)};
                        default -> new Object[] {e.getKey()};
                    });
                }
            }
        }
        return out;
    }

    /** unnest's rows: element i of each array (a NULL array is empty), NULL past an array's end. */
    private static void zip(Object[] arrays, boolean ordinality, List<Object[]> out) {
        List<List<Object>> columns = new ArrayList<>();
        int rows = 0;
        for (Object a : arrays) {
            List<Object> elements = a == null ? List.of() : ((PgArray) a).flatten();
            columns.add(elements);
            rows = Math.max(rows, elements.size());
        }
        for (int i = 0; i < rows; i++) {
            Object[] row = new Object[arrays.length + (ordinality ? 1 : 0)];
            for (int c = 0; c < arrays.length; c++) row[c] = i < columns.get(c).size() ? columns.get(c).get(i) : null;
            if (ordinality) row[arrays.length] = (long) i + 1;
            out.add(row);
        }
    }

    /** A string node is its string, JSON null is SQL NULL, other nodes their jsonb text (as ->> gives). */
    private static Object text(Object node) {
        if (node == null || node == Jsonb.NULL) return null;
        if (node instanceof String s) return s;
        return JsonbText.formatNode(node);
    }

    /** PostgreSQL's arrays here are 1-based in every dimension; a dimension the array lacks gives no rows. */
    private static void subscripts(PgArray a, int dim, boolean reverse, List<Object[]> out) {
        int[] dims = a.dimensions();
        if (dim < 1 || dim > dims.length) return;
        int n = dims[dim - 1];
        for (int i = 0; i < n; i++) out.add(new Object[] {reverse ? n - i : i + 1});
    }
}
