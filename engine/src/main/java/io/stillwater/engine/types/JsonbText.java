package io.stillwater.engine.types;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * jsonb's text form: input with Jackson's streaming parser (strict JSON, as PostgreSQL's
 * parser is: no NaN, no comments, no trailing commas or content), numbers kept as
 * written; output exactly as PostgreSQL's {@code jsonb_out} prints it: {@code ", "} between
 * elements, {@code ": "} after keys, keys in jsonb order, strings escaped as JSON requires.
 * Bad input is 22P02 {@code invalid input syntax for type json}.
 */
public final class JsonbText {
    private JsonbText() {}

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(6400).maxNumberLength(100_000).maxStringLength(Integer.MAX_VALUE).build())
            .build();

    public static Jsonb parse(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) throw invalid(text, "The input string ended unexpectedly.");
            Object root = value(p, first, text);
            if (p.nextToken() != null) throw invalid(text, "Expected end of input, but found more.");
            return Jsonb.of(root);
        } catch (JsonProcessingException e) {
            throw invalid(text, null);
        } catch (IOException e) {
            throw invalid(text, null);
        }
    }

    private static Object value(JsonParser p, JsonToken t, String text) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                Map<String, Object> m = new LinkedHashMap<>();
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    m.put(checked(key, text), value(p, p.nextToken(), text));
                }
                if (k != JsonToken.END_OBJECT) throw invalid(text, null);
                yield Jsonb.object(m);
            }
            case START_ARRAY -> {
                List<Object> l = new ArrayList<>();
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (e == null) throw invalid(text, "The input string ended unexpectedly.");
                    l.add(value(p, e, text));
                }
                yield Jsonb.array(l);
            }
            case VALUE_STRING -> checked(p.getText(), text);
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number(p.getText());
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> Jsonb.NULL;
            default -> throw invalid(text, null);
        };
    }

    /** A JSON number as PostgreSQL's numeric reads it (exponents expanded, scale kept). */
    public static BigDecimal number(String digits) {
        BigDecimal d = new BigDecimal(digits);
        return d.scale() < 0 ? d.setScale(0) : d;
    }

    /** jsonb cannot hold {@code \u0000} (22P05), as in PostgreSQL. */
    private static String checked(String s, String text) {
        if (s.indexOf('\0') >= 0) {
            throw new SqlException(SqlState.UNTRANSLATABLE_CHARACTER, "unsupported Unicode escape sequence",
                    "\\u0000 cannot be converted to text.", null);
        }
        return s;
    }

    private static SqlException invalid(String text, String detail) {
        return new SqlException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json", detail, null);
    }

    public static String format(Jsonb j) {
        StringBuilder sb = new StringBuilder();
        append(sb, j.root());
        return sb.toString();
    }

    /** The text of one node (a string node quoted), as jsonb prints it. */
    public static String formatNode(Object node) {
        StringBuilder sb = new StringBuilder();
        append(sb, node);
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    static void append(StringBuilder sb, Object node) {
        switch (node) {
            case Jsonb.JsonNull n -> sb.append("null");
            case Boolean b -> sb.append(b ? "true" : "false");
            case BigDecimal d -> sb.append(d.toPlainString());
            case String s -> quote(sb, s);
            case List<?> l -> {
                sb.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) sb.append(", ");
                    append(sb, l.get(i));
                }
                sb.append(']');
            }
            case Map<?, ?> m -> {
                sb.append('{');
                boolean first = true;
                for (var e : ((Map<String, Object>) m).entrySet()) {
                    if (!first) sb.append(", ");
                    first = false;
                    quote(sb, e.getKey());
                    sb.append(": ");
                    append(sb, e.getValue());
                }
                sb.append('}');
            }
            default -> throw new IllegalArgumentException("not a jsonb node: " + node.getClass());
        }
    }

    /** PostgreSQL's escape_json. */
    public static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }
}
