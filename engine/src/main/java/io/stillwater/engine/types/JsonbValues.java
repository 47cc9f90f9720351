package io.stillwater.engine.types;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SQL values as jsonb nodes, as PostgreSQL's {@code to_jsonb} converts them: numbers are
 * numbers (float NaN and infinities are strings), booleans booleans, jsonb itself, arrays
 * JSON arrays, timestamps ISO 8601 strings ({@code 2024-01-31T10:00:00}), every other
 * value the string of its text output. Also {@code jsonb_pretty}'s layout.
 */
public final class JsonbValues {
    private JsonbValues() {}

    /** Converts a non-null value of one SQL type to a jsonb node. */
    @FunctionalInterface
    public interface ToNode {
        Object apply(Object value);
    }

    public static ToNode converter(SqlType type, ZoneId zone) {
        return switch (type.kind()) {
            case BOOLEAN -> v -> v;
            case SMALLINT, INTEGER, BIGINT -> v -> BigDecimal.valueOf(((Number) v).longValue());
            case NUMERIC -> v -> v instanceof BigDecimal d ? (d.scale() < 0 ? d.setScale(0) : d) : new BigDecimal(v.toString());
            case REAL, DOUBLE -> v -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) return DatumText.format(type, v, zone);
                return JsonbText.number(DatumText.format(type, v, zone));
            };
            case JSONB -> v -> ((Jsonb) v).root();
            case TIMESTAMP -> v -> TemporalText.formatTimestamp((LocalDateTime) v).replace(' ', 'T');
            case TIMESTAMPTZ -> v -> isoTimestampTz((Instant) v, zone);
            case ARRAY -> {
                ToNode element = converter(type.element(), zone);
                yield v -> array((PgArray) v, element);
            }
            default -> v -> DatumText.format(type, v, zone);
        };
    }

    private static Object array(PgArray a, ToNode element) {
        List<Object> out = new ArrayList<>(a.size());
        for (Object e : a.elements()) {
            if (e == null) out.add(Jsonb.NULL);
            else if (e instanceof PgArray nested) out.add(array(nested, element));
            else out.add(element.apply(e));
        }
        return Jsonb.array(out);
    }

    /** {@code 2024-01-31T10:00:00+00:00}: the text output in ISO form, offset with minutes. */
    private static String isoTimestampTz(Instant v, ZoneId zone) {
        String s = TemporalText.formatTimestampTz(v, zone).replace(' ', 'T');
        int sign = Math.max(s.lastIndexOf('+'), s.lastIndexOf('-'));
        if (sign > 10 && s.length() - sign == 3) s = s + ":00";
        return s;
    }

    /** An object key from a SQL value: its text (boolean as true/false, as PostgreSQL). */
    public static String keyText(SqlType type, Object key, ZoneId zone) {
        if (key instanceof String s) return s;
        if (key instanceof Boolean b) return b ? "true" : "false";
        return DatumText.format(type, key, zone);
    }

    /** {@code jsonb_pretty}: one element per line, four spaces per level. */
    public static String pretty(Object node) {
        StringBuilder sb = new StringBuilder();
        pretty(sb, node, 0);
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    private static void pretty(StringBuilder sb, Object node, int level) {
        if (node instanceof Map<?, ?> m && !m.isEmpty()) {
            sb.append("{\n");
            boolean first = true;
            for (var e : ((Map<String, Object>) m).entrySet()) {
                if (!first) sb.append(",\n");
                first = false;
                sb.append("    ".repeat(level + 1));
                JsonbText.quote(sb, e.getKey());
                sb.append(": ");
                pretty(sb, e.getValue(), level + 1);
            }
            sb.append('\n').append("    ".repeat(level)).append('}');
        } else if (node instanceof List<?> l && !l.isEmpty()) {
            sb.append("[\n");
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) sb.append(",\n");
                sb.append("    ".repeat(level + 1));
                pretty(sb, l.get(i), level + 1);
            }
            sb.append('\n').append("    ".repeat(level)).append(']');
        } else if (node instanceof Map || node instanceof List) {
            // PostgreSQL prints an empty container open, newline, indentation, close.
            sb.append(node instanceof Map ? '{' : '[').append('\n').append("    ".repeat(level))
                    .append(node instanceof Map ? '}' : ']');
        } else {
            JsonbText.append(sb, node);
        }
    }
}
