package io.stillwater.engine.expr;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.Jsonb;
import io.stillwater.engine.types.JsonbText;
import io.stillwater.engine.types.JsonbValues;
import io.stillwater.engine.types.PgArray;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The jsonb operators and functions of {@link Func} with PostgreSQL's semantics: field
 * and path access (NULL when absent), containment, key existence, concatenation and
 * deletion, construction from SQL values ({@link JsonbValues}), jsonb_set,
 * jsonb_strip_nulls and jsonb_pretty. Documents are {@link Jsonb} trees; every function
 * builds new trees and never modifies its input.
 */
final class JsonbFuncs {
    private JsonbFuncs() {}

    static Evaluator compile(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        return switch (call.func()) {
            case JSONB_GET -> Functions.strict2(args, (j, k) -> wrap(get(root(j), k)));
            case JSONB_GET_TEXT -> Functions.strict2(args, (j, k) -> text(get(root(j), k)));
            case JSONB_PATH -> Functions.strict2(args, (j, p) -> wrap(path(root(j), keys((PgArray) p))));
            case JSONB_PATH_TEXT -> Functions.strict2(args, (j, p) -> text(path(root(j), keys((PgArray) p))));
            case JSONB_EXTRACT_PATH -> Functions.strictN(args, v -> wrap(path(root(v[0]), rest(v))));
            case JSONB_EXTRACT_PATH_TEXT -> Functions.strictN(args, v -> text(path(root(v[0]), rest(v))));
            case JSONB_CONTAINS -> Functions.strict2(args, (a, b) -> contains(root(a), root(b), true));
            case JSONB_CONTAINED -> Functions.strict2(args, (a, b) -> contains(root(b), root(a), true));
            case JSONB_EXISTS -> Functions.strict2(args, (j, k) -> exists(root(j), (String) k));
            case JSONB_EXISTS_ANY -> Functions.strict2(args, (j, ks) -> existsAny(root(j), keys((PgArray) ks), true));
            case JSONB_EXISTS_ALL -> Functions.strict2(args, (j, ks) -> existsAny(root(j), keys((PgArray) ks), false));
            case JSONB_CONCAT -> Functions.strict2(args, (a, b) -> Jsonb.of(concat(root(a), root(b))));
            case JSONB_DELETE -> Functions.strict2(args, (j, k) -> Jsonb.of(delete(root(j), k)));
            case JSONB_DELETE_PATH -> Functions.strict2(args, (j, p) -> Jsonb.of(deletePath(root(j), keys((PgArray) p), 0)));
            case JSONB_BUILD_OBJECT -> buildObject(call, args, ctx);
            case JSONB_BUILD_ARRAY -> buildArray(call, args, ctx);
            case TO_JSONB -> {
                JsonbValues.ToNode f = JsonbValues.converter(call.args().get(0).type(), ctx.timeZone());
                yield Functions.strict1(args, v -> Jsonb.of(f.apply(v)));
            }
            case JSONB_TYPEOF -> Functions.strict1(args, j -> Jsonb.typeOf(root(j)));
            case JSONB_ARRAY_LENGTH -> Functions.strict1(args, j -> {
                if (root(j) instanceof List<?> l) return l.size();
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE,
                        "cannot get array length of a " + (root(j) instanceof Map ? "non-array" : "scalar"));
            });
            case JSONB_SET -> jsonbSet(args);
            case JSONB_STRIP_NULLS -> Functions.strict1(args, j -> Jsonb.of(stripNulls(root(j))));
            case JSONB_PRETTY -> Functions.strict1(args, j -> JsonbValues.pretty(root(j)));
            default -> throw new IllegalArgumentException("not a jsonb function: " + call.func());
        };
    }

    private static Object root(Object jsonb) { return ((Jsonb) jsonb).root(); }

    private static Object wrap(Object node) { return node == null ? null : Jsonb.of(node); }

    /** ->> and #>>: a string node is its string, JSON null is SQL NULL, other nodes their jsonb text. */
    private static Object text(Object node) {
        if (node == null || node == Jsonb.NULL) return null;
        if (node instanceof String s) return s;
        return JsonbText.formatNode(node);
    }

    private static List<String> keys(PgArray a) {
        List<String> out = new ArrayList<>(a.size());
        for (Object e : a.flatten()) out.add((String) e);
        return out;
    }

    private static List<String> rest(Object[] v) {
        List<String> out = new ArrayList<>(v.length - 1);
        for (int i = 1; i < v.length; i++) out.add(v[i].toString());
        return out;
    }

    /** A field (text key) of an object or an element (integer index, negative from the end) of an array. */
    private static Object get(Object node, Object key) {
        if (key instanceof String k) return node instanceof Map<?, ?> m ? m.get(k) : null;
        long i = ((Number) key).longValue();
        return element(node, i);
    }

    private static Object element(Object node, long i) {
        if (!(node instanceof List<?> l)) return null;
        if (i < 0) i += l.size();
        return i >= 0 && i < l.size() ? l.get((int) i) : null;
    }

    /** Walks a path: object keys, array indexes written as integers; NULL where it leads nowhere. */
    private static Object path(Object node, List<String> path) {
        Object cur = node;
        for (String k : path) {
            if (k == null) return null;
            if (cur instanceof Map<?, ?> m) {
                cur = m.get(k);
            } else if (cur instanceof List<?>) {
                Long i = index(k);
                if (i == null) return null;
                cur = element(cur, i);
            } else {
                return null;
            }
            if (cur == null) return null;
        }
        return cur;
    }

    private static Long index(String k) {
        try {
            return Long.parseLong(k.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * PostgreSQL's jsonb containment: objects contain the pairs of the other (values
     * contained recursively), arrays contain every element of the other (in any order,
     * any multiplicity), scalars are equal; at top level an array also contains a scalar.
     */
    static boolean contains(Object a, Object b, boolean top) {
        if (a instanceof Map<?, ?> x) {
            if (!(b instanceof Map<?, ?> y)) return false;
            for (var e : y.entrySet()) {
                Object v = x.get(e.getKey());
                if (v == null || !contains(v, e.getValue(), false)) return false;
            }
            return true;
        }
        if (a instanceof List<?> x) {
            if (b instanceof List<?> y) {
                for (Object e : y) {
                    boolean found = false;
                    for (Object f : x) {
                        boolean scalarE = !(e instanceof List || e instanceof Map);
                        if (scalarE ? Jsonb.compareNodes(f, e) == 0 : (sameKind(f, e) && contains(f, e, false))) {
                            found = true;
                            break;
                        }
                    }
                    if (!found) return false;
                }
                return true;
            }
            if (top && !(b instanceof Map)) {
                for (Object f : x) if (Jsonb.compareNodes(f, b) == 0) return true;
            }
            return false;
        }
        return !(b instanceof List || b instanceof Map) && Jsonb.compareNodes(a, b) == 0;
    }

    private static boolean sameKind(Object a, Object b) {
        return (a instanceof List && b instanceof List) || (a instanceof Map && b instanceof Map);
    }

    /** {@code ?}: an object key, a string element of an array, or a string scalar. */
    private static boolean exists(Object node, String key) {
        if (node instanceof Map<?, ?> m) return m.containsKey(key);
        if (node instanceof List<?> l) return l.contains(key);
        return key.equals(node);
    }

    private static boolean existsAny(Object node, List<String> keys, boolean any) {
        for (String k : keys) {
            if (k == null) continue;
            boolean e = exists(node, k);
            if (e == any) return any;
        }
        return !any;
    }

    /** {@code ||}: objects merge (right wins), arrays concatenate, anything else is wrapped in an array. */
    @SuppressWarnings("unchecked")
    private static Object concat(Object a, Object b) {
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) x);
            m.putAll((Map<String, Object>) y);
            return Jsonb.object(m);
        }
        List<Object> out = new ArrayList<>();
        if (a instanceof List<?> l) out.addAll(l);
        else out.add(a);
        if (b instanceof List<?> l) out.addAll(l);
        else out.add(b);
        return Jsonb.array(out);
    }

    /** {@code -}: a key (or string elements), an array index, or several keys (text[]). */
    @SuppressWarnings("unchecked")
    private static Object delete(Object node, Object key) {
        if (!(node instanceof Map || node instanceof List)) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot delete from scalar");
        }
        if (key instanceof Number n) {
            if (node instanceof Map) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot delete from object using integer index");
            }
            List<Object> l = new ArrayList<>((List<Object>) node);
            long i = n.longValue();
            if (i < 0) i += l.size();
            if (i >= 0 && i < l.size()) l.remove((int) i);
            return Jsonb.array(l);
        }
        List<String> keys = key instanceof PgArray a ? keys(a) : List.of((String) key);
        if (node instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) m);
            for (String k : keys) out.remove(k);
            return Jsonb.object(out);
        }
        List<Object> out = new ArrayList<>();
        for (Object e : (List<Object>) node) if (!(e instanceof String s && keys.contains(s))) out.add(e);
        return Jsonb.array(out);
    }

    @SuppressWarnings("unchecked")
    private static Object deletePath(Object node, List<String> path, int at) {
        if (at == path.size()) return node;
        if (!(node instanceof Map || node instanceof List)) {
            if (at == 0) throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot delete path in scalar");
            return node;
        }
        String k = path.get(at);
        boolean last = at == path.size() - 1;
        if (node instanceof Map<?, ?> m) {
            if (!m.containsKey(k)) return node;
            Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) m);
            if (last) out.remove(k);
            else out.put(k, deletePath(m.get(k), path, at + 1));
            return Jsonb.object(out);
        }
        List<Object> l = new ArrayList<>((List<Object>) node);
        Long i = index(k);
        if (i == null) {
            throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                    "path element at position " + (at + 1) + " is not an integer: \"" + k + "\"");
        }
        long idx = i < 0 ? i + l.size() : i;
        if (idx < 0 || idx >= l.size()) return node;
        if (last) l.remove((int) idx);
        else l.set((int) idx, deletePath(l.get((int) idx), path, at + 1));
        return Jsonb.array(l);
    }

    private static Evaluator buildObject(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        int n = args.size();
        if (n % 2 != 0) {
            throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "argument list must have even number of elements",
                    null, "The arguments of jsonb_build_object() must consist of alternating keys and values.");
        }
        JsonbValues.ToNode[] conv = converters(call, ctx);
        return row -> {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < n; i += 2) {
                Object k = args.get(i).eval(row);
                if (k == null) {
                    throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "argument " + (i + 1) + ": key must not be null");
                }
                Object v = args.get(i + 1).eval(row);
                m.put(JsonbValues.keyText(call.args().get(i).type(), k, ctx.timeZone()), v == null ? Jsonb.NULL : conv[i + 1].apply(v));
            }
            return Jsonb.of(Jsonb.object(m));
        };
    }

    private static Evaluator buildArray(Expr.Call call, List<Evaluator> args, EvalContext ctx) {
        JsonbValues.ToNode[] conv = converters(call, ctx);
        return row -> {
            List<Object> l = new ArrayList<>(args.size());
            for (int i = 0; i < args.size(); i++) {
                Object v = args.get(i).eval(row);
                l.add(v == null ? Jsonb.NULL : conv[i].apply(v));
            }
            return Jsonb.of(Jsonb.array(l));
        };
    }

    private static JsonbValues.ToNode[] converters(Expr.Call call, EvalContext ctx) {
        JsonbValues.ToNode[] conv = new JsonbValues.ToNode[call.args().size()];
        for (int i = 0; i < conv.length; i++) conv[i] = JsonbValues.converter(call.args().get(i).type(), ctx.timeZone());
        return conv;
    }

    /** jsonb_set(target, path, new [, create_missing]): replaces or (if allowed) adds the value at path. */
    private static Evaluator jsonbSet(List<Evaluator> args) {
        Evaluator create = args.size() > 3 ? args.get(3) : row -> Boolean.TRUE;
        return row -> {
            Object t = args.get(0).eval(row), p = args.get(1).eval(row), v = args.get(2).eval(row);
            Object c = create.eval(row);
            if (t == null || p == null || v == null || c == null) return null;
            Object r = root(t);
            if (!(r instanceof Map || r instanceof List)) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "cannot set path in scalar");
            }
            return Jsonb.of(set(r, keys((PgArray) p), 0, root(v), (Boolean) c));
        };
    }

    @SuppressWarnings("unchecked")
    private static Object set(Object node, List<String> path, int at, Object value, boolean create) {
        if (at == path.size()) return value;
        String k = path.get(at);
        boolean last = at == path.size() - 1;
        if (node instanceof Map<?, ?> m) {
            if (!m.containsKey(k) && !(last && create)) return node;
            Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) m);
            out.put(k, last ? value : set(m.get(k), path, at + 1, value, create));
            return Jsonb.object(out);
        }
        if (node instanceof List<?> l0) {
            List<Object> l = new ArrayList<>((List<Object>) l0);
            Long i = index(k);
            if (i == null) {
                throw new SqlException(SqlState.INVALID_TEXT_REPRESENTATION,
                        "path element at position " + (at + 1) + " is not an integer: \"" + k + "\"");
            }
            long idx = i < 0 ? i + l.size() : i;
            if (idx >= 0 && idx < l.size()) {
                l.set((int) idx, last ? value : set(l.get((int) idx), path, at + 1, value, create));
            } else if (last && create) {
                if (idx < 0) l.add(0, value);
                else l.add(value);
            } else {
                return node;
            }
            return Jsonb.array(l);
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    private static Object stripNulls(Object node) {
        if (node instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (var e : ((Map<String, Object>) m).entrySet()) {
                if (e.getValue() != Jsonb.NULL) out.put(e.getKey(), stripNulls(e.getValue()));
            }
            return Jsonb.object(out);
        }
        if (node instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object e : l) out.add(stripNulls(e));
            return Jsonb.array(out);
        }
        return node;
    }
}
