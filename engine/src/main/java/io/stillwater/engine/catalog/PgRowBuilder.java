package io.stillwater.engine.catalog;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the rows of one catalog relation by column name: a column not set gets its
 * type's zero ({@code false}, {@code 0}; {@code NULL} for text), which is what
 * PostgreSQL's catalogs hold for the features Stillwater lacks (no ACLs, no options, no
 * rules, ...). Numbers are narrowed to the column's type, so callers pass plain ints.
 * Not thread-safe; one per relation read.
 */
final class PgRowBuilder {
    private final TableDef def;
    private final Map<String, Integer> positions = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private Object[] current;

    PgRowBuilder(SystemRelations.Builtin relation) {
        this.def = relation.def();
        for (int i = 0; i < def.columns().size(); i++) positions.put(def.columns().get(i).name(), i);
    }

    /** Starts a row; the previous one (if any) is finished. */
    PgRowBuilder row() {
        finish();
        current = new Object[def.columns().size()];
        for (int i = 0; i < current.length; i++) current[i] = zero(def.columns().get(i).type());
        return this;
    }

    /** Sets column {@code name} of the current row; a name the relation lacks is a bug. */
    PgRowBuilder set(String name, Object value) {
        Integer at = positions.get(name);
        if (at == null) throw new IllegalArgumentException(def.name() + " has no column " + name);
        current[at] = value == null ? null : narrow(def.columns().get(at).type(), value);
        return this;
    }

    /** Sets columns pairwise: {@code name1, value1, name2, value2, ...}. */
    PgRowBuilder set(Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) set((String) namesAndValues[i], namesAndValues[i + 1]);
        return this;
    }

    List<Row> rows() {
        finish();
        return rows;
    }

    private void finish() {
        if (current != null) rows.add(Row.wrap(current));
        current = null;
    }

    private static Object zero(SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> false;
            case SMALLINT -> (short) 0;
            case INTEGER -> 0;
            case BIGINT -> 0L;
            case REAL -> 0f;
            case DOUBLE -> 0d;
            default -> null;
        };
    }

    private static Object narrow(SqlType type, Object value) {
        if (!(value instanceof Number n)) return value;
        return switch (type.kind()) {
            case SMALLINT -> n.shortValue();
            case INTEGER -> n.intValue();
            case BIGINT -> n.longValue();
            case REAL -> n.floatValue();
            case DOUBLE -> n.doubleValue();
            default -> value;
        };
    }
}
