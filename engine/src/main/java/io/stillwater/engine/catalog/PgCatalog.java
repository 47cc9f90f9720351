package io.stillwater.engine.catalog;

import io.stillwater.engine.types.SqlType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The schema of PostgreSQL's catalog as Stillwater serves it: the {@code pg_catalog} and
 * {@code information_schema} relations that psql's {@code \d} family, pgjdbc's {@code
 * DatabaseMetaData} and psycopg2 read, with PostgreSQL 15's column names and order
 * (resource {@code pg_relations.txt}, generated from PostgreSQL's own catalog). Their rows
 * are computed from the catalog by {@link PgCatalogRows}.
 *
 * <p>Types: Stillwater has no {@code oid}, {@code name} or {@code "char"} types, so oid-like
 * columns ({@code oid}, {@code regtype}, {@code xid}) are {@code integer}, {@code regproc}
 * columns hold the function's name ({@code text}, compared with {@code 'array_in'::regproc}),
 * and {@code name}, {@code "char"}, array, {@code pg_node_tree} and vector columns are
 * {@code text} ({@code int2vector} in its text form, {@code "1 2"}, arrays as {@code {1,2}}).
 *
 * <p>OIDs: built-in types, namespaces and access methods have PostgreSQL's OIDs; a user
 * object with catalog id {@code id} has OIDs {@code 16384 + 8 * (id - 1000) + slot}, one
 * {@link Slot} each for the relation, its primary key's index and constraint, its row type
 * and that type's array type, and a view's rewrite rule, so they are stable for the life
 * of the data directory.
 */
public final class PgCatalog {
    private PgCatalog() {}

    public static final String PG_CATALOG = "pg_catalog";
    public static final String INFORMATION_SCHEMA = "information_schema";

    /**
     * Relations of Stillwater's own in pg_catalog, named with this prefix: helpers for
     * {@code sql.calcite.ClientCatalogQueries}, not listed in pg_class.
     * {@code stillwater_key_columns(keyoid, x, n)}: per index or primary key constraint,
     * its key columns' attnums {@code x} in key order {@code n} (what
     * {@code information_schema._pg_expandarray} gives for indkey/conkey).
     */
    public static final String STILLWATER_PREFIX = "stillwater_";

    /** Namespace OIDs, PostgreSQL's. */
    public static final int PG_CATALOG_OID = 11;
    public static final int PG_TOAST_OID = 99;
    public static final int PUBLIC_OID = 2200;
    public static final int INFORMATION_SCHEMA_OID = 13207;

    /** The bootstrap superuser's OID, the owner of every object. */
    public static final int OWNER_OID = 10;
    /** PostgreSQL's built-in role that owns the public schema (the database owner's stand-in). */
    public static final int DATABASE_OWNER_OID = 6171;
    public static final int DATABASE_OID = 16383;
    public static final int HEAP_AM_OID = 2;
    public static final int BTREE_AM_OID = 403;
    /** pg_class's own OID (the {@code classoid} of relation descriptions). */
    public static final int PG_CLASS_OID = 1259;

    /** The first OID PostgreSQL gives user objects. */
    private static final int FIRST_USER_OID = 16384;

    /** Slots of a user object's OIDs. */
    public enum Slot { RELATION, PRIMARY_KEY_INDEX, PRIMARY_KEY_CONSTRAINT, ROW_TYPE, ARRAY_TYPE, REWRITE_RULE }

    /** The OID of user object {@code id}'s {@code slot}. */
    public static int oid(long id, Slot slot) {
        return FIRST_USER_OID + 8 * (int) (id - Catalog.FIRST_USER_ID) + slot.ordinal();
    }

    /** PostgreSQL's OIDs of the catalog relations that clients name by OID. */
    private static final Map<String, Integer> WELL_KNOWN = Map.ofEntries(
            Map.entry("pg_type", 1247), Map.entry("pg_attribute", 1249), Map.entry("pg_proc", 1255),
            Map.entry("pg_class", PG_CLASS_OID), Map.entry("pg_database", 1262), Map.entry("pg_authid", 1260),
            Map.entry("pg_namespace", 2615), Map.entry("pg_index", 2610), Map.entry("pg_constraint", 2606),
            Map.entry("pg_description", 2609), Map.entry("pg_attrdef", 2604), Map.entry("pg_am", 2601),
            Map.entry("pg_inherits", 2611), Map.entry("pg_rewrite", 2618), Map.entry("pg_trigger", 2620),
            Map.entry("pg_collation", 3456), Map.entry("pg_tablespace", 1213));

    /** The catalog views (relkind 'v') of pg_catalog; the other pg_catalog relations are tables. */
    private static final Set<String> VIEWS = Set.of("pg_roles", "pg_user", "pg_views", "pg_matviews", "pg_tables",
            "pg_indexes", "pg_settings", "pg_stat_activity", "pg_sequences");

    /** The OID of built-in relation {@code b}: PostgreSQL's for the well-known ones, else 12000 + id. */
    public static int oid(SystemRelations.Builtin b) {
        Integer known = b.schema().equals(PG_CATALOG) ? WELL_KNOWN.get(b.name()) : null;
        return known != null ? known : 12000 + (int) b.id();
    }

    /** {@code relkind} of built-in relation {@code b}. */
    public static String relkind(SystemRelations.Builtin b) {
        return b.schema().equals(PG_CATALOG) && !VIEWS.contains(b.name()) ? "r" : "v";
    }

    private static final List<SystemRelations.Builtin> RELATIONS = load();

    /** The pg_catalog and information_schema relations, in id order. */
    public static List<SystemRelations.Builtin> relations() { return RELATIONS; }

    /** Whether {@code id} is one of {@link #relations()}. */
    public static boolean contains(long id) {
        return RELATIONS.stream().anyMatch(b -> b.id() == id);
    }

    /** The relation {@code schema.name}; throws if there is none (a bug in the caller). */
    public static SystemRelations.Builtin relation(String schema, String name) {
        return RELATIONS.stream().filter(b -> b.schema().equals(schema) && b.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no catalog relation " + schema + "." + name));
    }

    private static List<SystemRelations.Builtin> load() {
        List<SystemRelations.Builtin> out = new ArrayList<>();
        for (String line : resourceLines("pg_relations.txt")) {
            // 101 pg_catalog.pg_class: oid int4, relname text, ...
            int space = line.indexOf(' ');
            int dot = line.indexOf('.');
            int colon = line.indexOf(": ");
            long id = Long.parseLong(line.substring(0, space));
            String schema = line.substring(space + 1, dot);
            String name = line.substring(dot + 1, colon);
            List<ColumnDef> columns = new ArrayList<>();
            for (String col : line.substring(colon + 2).split(", ")) {
                String[] parts = col.split(" ");
                columns.add(new ColumnDef(parts[0], type(parts[1]), false, null));
            }
            out.add(new SystemRelations.Builtin(schema, new TableDef(id, name, columns)));
        }
        return List.copyOf(out);
    }

    private static SqlType type(String name) {
        return switch (name) {
            case "int2" -> SqlType.SMALLINT;
            case "int4" -> SqlType.INTEGER;
            case "int8" -> SqlType.BIGINT;
            case "bool" -> SqlType.BOOLEAN;
            case "float4" -> SqlType.REAL;
            case "float8" -> SqlType.DOUBLE;
            case "timestamptz" -> SqlType.TIMESTAMPTZ;
            case "interval" -> SqlType.INTERVAL;
            case "bytea" -> SqlType.BYTEA;
            case "text" -> SqlType.TEXT;
            case "_text" -> SqlType.arrayOf(SqlType.TEXT); // aclitem[] columns: aclitem is text here
            default -> throw new IllegalStateException("pg_relations.txt: unknown type " + name);
        };
    }

    /** The non-comment lines of a resource next to this class. */
    static List<String> resourceLines(String resource) {
        try (InputStream in = PgCatalog.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            List<String> out = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (!line.isBlank() && !line.startsWith("#")) out.add(line);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
