package io.stillwater.engine.catalog;

import io.stillwater.engine.types.TypeKind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The names of PostgreSQL's built-in types (resource {@code pg_types.tsv}) both ways:
 * what {@code format_type(oid, NULL)} and {@code ::regtype} print ({@code integer},
 * {@code character varying}, {@code integer[]}, {@code "char"}), and the OID a type name
 * ({@code int4}, {@code integer}, {@code pg_catalog.text}) denotes. Immutable.
 */
public final class PgTypeNames {
    private PgTypeNames() {}

    private static final Map<Integer, String> FORMATTED;
    private static final Map<String, Integer> OIDS;
    private static final Map<Integer, String> STORAGE;

    static {
        Map<Integer, String> typnames = new LinkedHashMap<>();
        Map<Integer, Integer> elements = new LinkedHashMap<>();
        Map<Integer, String> storage = new LinkedHashMap<>();
        for (String line : PgCatalog.resourceLines("pg_types.tsv")) {
            String[] f = line.split("\t", -1);
            int oid = Integer.parseInt(f[0]);
            typnames.put(oid, f[1]);
            storage.put(oid, f[16]);
            if (f[5].equals("b") && f[6].equals("A")) elements.put(oid, Integer.parseInt(f[9]));
        }
        Map<Integer, String> formatted = new LinkedHashMap<>();
        typnames.forEach((oid, name) -> formatted.put(oid, base(oid, name)));
        elements.forEach((oid, elem) -> formatted.put(oid, formatted.getOrDefault(elem, "???") + "[]"));
        Map<String, Integer> oids = new LinkedHashMap<>();
        typnames.forEach((oid, name) -> oids.putIfAbsent(name, oid));
        formatted.forEach((oid, name) -> oids.putIfAbsent(name, oid));
        for (TypeKind k : TypeKind.values()) oids.putIfAbsent(k.pgName(), k.oid());
        oids.put("int", TypeKind.INTEGER.oid());
        oids.put("varchar", TypeKind.VARCHAR.oid());
        oids.put("char", TypeKind.CHAR.oid()); // unquoted char is character(1); "char" is the one-byte type
        oids.put("\"char\"", 18);
        oids.put("decimal", TypeKind.NUMERIC.oid());
        oids.put("float", TypeKind.DOUBLE.oid());
        FORMATTED = Collections.unmodifiableMap(formatted);
        STORAGE = Collections.unmodifiableMap(storage);
        OIDS = Collections.unmodifiableMap(oids);
    }

    /** A non-array type's name as format_type prints it without a type modifier. */
    private static String base(int oid, String typname) {
        for (TypeKind k : TypeKind.values()) {
            // Only scalar kinds name a type by their OID (an array kind's OID is anyarray's).
            if (k.oid() == oid && k != TypeKind.UNKNOWN && !k.name().equals("ARRAY")) {
                return k == TypeKind.CHAR ? "bpchar" : k.pgName();
            }
        }
        return switch (typname) {
            case "char" -> "\"char\"";
            case "timetz" -> "time with time zone";
            case "bit" -> "bit";
            case "varbit" -> "bit varying";
            default -> typname;
        };
    }

    /** OID to the name format_type prints (without modifiers), for every built-in type. */
    public static Map<Integer, String> formatted() { return FORMATTED; }

    /** {@code typstorage} of built-in type {@code oid} ({@code p}, {@code x}, {@code m}, ...), or {@code x}. */
    public static String storage(int oid) { return STORAGE.getOrDefault(oid, "x"); }

    /** Every spelling of a built-in type name to its OID. */
    public static Map<String, Integer> oidsByName() { return OIDS; }

    /** The OID of type {@code name} (optionally {@code pg_catalog.}-qualified), or null. */
    public static Integer oidOf(String name) {
        String n = name.startsWith("pg_catalog.") ? name.substring("pg_catalog.".length()) : name;
        Integer oid = OIDS.get(n);
        return oid != null ? oid : OIDS.get(n.toLowerCase(java.util.Locale.ROOT));
    }
}
