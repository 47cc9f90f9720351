package io.stillwater.engine.types;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The value of a {@link TypeKind#JSONB} datum: an immutable JSON document in PostgreSQL's
 * jsonb form. Its tree is made of {@link #NULL} (JSON null), {@code Boolean},
 * {@code BigDecimal} (every number, keeping the digits it was written with: {@code 1.50}
 * stays {@code 1.50}), {@code String}, unmodifiable {@code List<Object>} (array) and
 * unmodifiable {@code Map<String, Object>} (object) whose keys are unique (the last of
 * duplicates wins) and in jsonb's storage order: shorter keys first, then by bytes.
 *
 * <p>Equality, hashing and order are PostgreSQL's jsonb btree order: object > array >
 * boolean > number > string > null; objects by number of pairs, then pair by pair in key
 * order; arrays by length, then element by element; numbers numerically ({@code 1.0}
 * equals {@code 1}). The text form is {@link JsonbText}.
 */
public final class Jsonb implements Comparable<Jsonb> {
    /** JSON null (distinct from SQL NULL, which is a Java null datum). */
    public enum JsonNull { NULL }

    public static final JsonNull NULL = JsonNull.NULL;

    /** jsonb's key order: by length, then by UTF-8 bytes (for the BMP, the same as by chars). */
    public static final Comparator<String> KEY_ORDER = (a, b) -> {
        int c = Integer.compare(utf8Length(a), utf8Length(b));
        return c != 0 ? c : compareCodePoints(a, b);
    };

    private final Object root;

    private Jsonb(Object root) {
        this.root = root;
    }

    /** A document whose tree is {@code root} (built by {@link JsonbText} or the jsonb functions). */
    public static Jsonb of(Object root) {
        return new Jsonb(root);
    }

    /** The root of the tree (see the class comment for its classes). */
    public Object root() { return root; }

    /** An object node from {@code pairs}, in key order. */
    public static Map<String, Object> object(Map<String, Object> pairs) {
        TreeMap<String, Object> m = new TreeMap<>(KEY_ORDER);
        m.putAll(pairs);
        return Collections.unmodifiableMap(m);
    }

    /** An array node. */
    public static List<Object> array(List<Object> elements) {
        return Collections.unmodifiableList(new ArrayList<>(elements));
    }

    /** The jsonb type name PostgreSQL's {@code jsonb_typeof} gives a node. */
    public static String typeOf(Object node) {
        return switch (node) {
            case JsonNull n -> "null";
            case Boolean b -> "boolean";
            case BigDecimal d -> "number";
            case String s -> "string";
            case List<?> l -> "array";
            case Map<?, ?> m -> "object";
            default -> throw new IllegalArgumentException("not a jsonb node: " + node.getClass());
        };
    }

    private static int rank(Object node) {
        return switch (node) {
            case JsonNull n -> 0;
            case String s -> 1;
            case BigDecimal d -> 2;
            case Boolean b -> 3;
            case List<?> l -> 4;
            case Map<?, ?> m -> 5;
            default -> throw new IllegalArgumentException("not a jsonb node: " + node.getClass());
        };
    }

    /** jsonb's order between two nodes. */
    @SuppressWarnings("unchecked")
    public static int compareNodes(Object a, Object b) {
        int ra = rank(a), rb = rank(b);
        if (ra != rb) return Integer.compare(ra, rb);
        return switch (a) {
            case JsonNull n -> 0;
            case String s -> compareCodePoints(s, (String) b);
            case BigDecimal d -> d.compareTo((BigDecimal) b);
            case Boolean x -> Boolean.compare(x, (Boolean) b);
            case List<?> l -> {
                List<Object> m = (List<Object>) b;
                int c = Integer.compare(l.size(), m.size());
                for (int i = 0; c == 0 && i < l.size(); i++) c = compareNodes(l.get(i), m.get(i));
                yield c;
            }
            case Map<?, ?> x -> {
                Map<String, Object> y = (Map<String, Object>) b;
                int c = Integer.compare(x.size(), y.size());
                var i = ((Map<String, Object>) x).entrySet().iterator();
                var j = y.entrySet().iterator();
                while (c == 0 && i.hasNext()) {
                    var p = i.next();
                    var q = j.next();
                    c = KEY_ORDER.compare(p.getKey(), q.getKey());
                    if (c == 0) c = compareNodes(p.getValue(), q.getValue());
                }
                yield c;
            }
            default -> throw new IllegalArgumentException("not a jsonb node: " + a.getClass());
        };
    }

    private static int hashNode(Object node) {
        return switch (node) {
            case BigDecimal d -> d.signum() == 0 ? 0 : d.stripTrailingZeros().hashCode();
            case List<?> l -> {
                int h = 1;
                for (Object e : l) h = 31 * h + hashNode(e);
                yield h;
            }
            case Map<?, ?> m -> {
                int h = 7;
                for (var e : m.entrySet()) h = 31 * h + e.getKey().hashCode() * 17 + hashNode(e.getValue());
                yield h;
            }
            default -> node.hashCode();
        };
    }

    static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i), y = b.charAt(i);
            if (x != y) {
                // Surrogates (code points above the BMP) sort after every BMP char, as in UTF-8.
                boolean sx = Character.isSurrogate(x), sy = Character.isSurrogate(y);
                if (sx != sy) return sx ? 1 : -1;
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    private static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) n += 1;
            else if (c < 0x800) n += 2;
            else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else n += 3;
        }
        return n;
    }

    @Override
    public int compareTo(Jsonb o) { return compareNodes(root, o.root); }

    @Override
    public boolean equals(Object o) { return o instanceof Jsonb j && compareNodes(root, j.root) == 0; }

    @Override
    public int hashCode() { return hashNode(root); }

    /** PostgreSQL's text form ({@code {"a": 1, "b": [true, null]}}). */
    @Override
    public String toString() { return JsonbText.format(this); }
}
