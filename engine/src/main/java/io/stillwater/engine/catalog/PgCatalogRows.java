package io.stillwater.engine.catalog;

import io.stillwater.engine.catalog.PgCatalog.Slot;
import io.stillwater.engine.catalog.PgRelationModel.Attribute;
import io.stillwater.engine.catalog.PgRelationModel.Relation;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.TypeKind;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The rows of the {@code pg_catalog} relations ({@link PgCatalog}) for one catalog
 * snapshot: a pure function of the schema and the role catalog ({@link SecurityCatalog}:
 * relations' owners and grants, see {@link PgAcl}), computed when a read needs them.
 * Stillwater has one database, {@code materialize}, owned (like the built-in schemas and
 * objects) by the bootstrap superuser {@code mz_system}, oid 10; {@code public} belongs to
 * {@code pg_database_owner}, as in PostgreSQL 15.
 * Built-in types come from PostgreSQL 15's own {@code pg_type} (resource {@code
 * pg_types.tsv}); relations, columns, indexes and constraints from {@link PgRelationModel}.
 * Relations of features Stillwater lacks (policies, triggers, publications, inheritance,
 * extensions, ...) are empty, as they are in a fresh PostgreSQL database.
 */
public final class PgCatalogRows {
    private PgCatalogRows() {}

    /** The one database. */
    public static final String DATABASE = "materialize";
    /** The role owning the built-in objects and the database (oid {@link PgCatalog#OWNER_OID}). */
    public static final String ROLE = RoleDef.MZ_SYSTEM.name();

    private static final List<String[]> BUILTIN_TYPES =
            PgCatalog.resourceLines("pg_types.tsv").stream().map(l -> l.split("\t", -1)).toList();

    /** Whether {@code id} is a relation this class (or {@link InformationSchemaRows}) computes. */
    public static boolean handles(long id) { return PgCatalog.contains(id); }

    /** The rows of catalog relation {@code id} for {@code catalog}, before any role or grant existed. */
    public static List<Row> rows(long id, CatalogView catalog) { return rows(id, catalog, SecurityCatalog.empty()); }

    /** The rows of catalog relation {@code id} for {@code catalog} and the owners and grants in {@code security}. */
    public static List<Row> rows(long id, CatalogView catalog, SecurityCatalog security) {
        SystemRelations.Builtin rel = PgCatalog.relations().stream().filter(b -> b.id() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a pg_catalog relation: " + id));
        PgRelationModel model = PgRelationModel.of(catalog);
        if (rel.schema().equals(PgCatalog.INFORMATION_SCHEMA)) return InformationSchemaRows.rows(rel, model, security);
        PgRowBuilder b = new PgRowBuilder(rel);
        switch (rel.name()) {
            case "pg_namespace" -> {
                namespace(b, PgCatalog.PG_CATALOG_OID, "pg_catalog");
                namespace(b, PgCatalog.PG_TOAST_OID, "pg_toast");
                // PostgreSQL 15: public belongs to the database owner's role (pg_database_owner).
                b.row().set("oid", PgCatalog.PUBLIC_OID, "nspname", "public", "nspowner", PgCatalog.DATABASE_OWNER_OID);
                namespace(b, PgCatalog.INFORMATION_SCHEMA_OID, "information_schema");
            }
            case "pg_class" -> model.relations().forEach(r -> pgClass(b, r, model, security));
            case "pg_attribute" -> model.relations().forEach(r -> r.attributes().forEach(a -> attribute(b, r, a)));
            case "pg_type" -> types(b, model);
            case "pg_index" -> model.relations().stream().filter(Relation::isIndex).forEach(r -> index(b, r));
            case "pg_constraint" -> model.relations().stream().filter(Relation::primaryKey).forEach(r -> b.row().set(
                    "oid", PgCatalog.oid(r.catalogId(), Slot.PRIMARY_KEY_CONSTRAINT), "conname", r.name(),
                    "connamespace", PgCatalog.PUBLIC_OID, "contype", "p", "convalidated", true, "conrelid", r.onOid(),
                    "conindid", r.oid(), "confupdtype", " ", "confdeltype", " ", "confmatchtype", " ",
                    "conislocal", true, "connoinherit", true, "conkey", array(r.keyAttnums())));
            case "pg_attrdef" -> model.relations().forEach(r -> r.attributes().stream().filter(a -> a.defaultSql() != null)
                    .forEach(a -> b.row().set("oid", attrdefOid(r, a), "adrelid", r.oid(), "adnum", a.attnum(),
                            "adbin", a.defaultSql())));
            case "pg_database" -> b.row().set("oid", PgCatalog.DATABASE_OID, "datname", DATABASE, "datdba",
                    PgCatalog.OWNER_OID, "encoding", 6, "datlocprovider", "c", "datallowconn", true, "datconnlimit", -1,
                    "dattablespace", 1663, "datcollate", "C.UTF-8", "datctype", "C.UTF-8");
            case "pg_roles", "pg_authid" -> {
                b.row().set("oid", PgCatalog.OWNER_OID, "rolname", ROLE, "rolsuper", true,
                        "rolinherit", true, "rolcreaterole", true, "rolcreatedb", true, "rolcanlogin", true,
                        "rolreplication", true, "rolbypassrls", true, "rolconnlimit", -1,
                        "rolpassword", rel.name().equals("pg_roles") ? "********" : null);
                b.row().set("oid", PgCatalog.DATABASE_OWNER_OID, "rolname", "pg_database_owner", "rolinherit", true,
                        "rolconnlimit", -1, "rolpassword", rel.name().equals("pg_roles") ? "********" : null);
            }
            case "pg_user" -> b.row().set("usename", ROLE, "usesysid", PgCatalog.OWNER_OID, "usecreatedb", true,
                    "usesuper", true, "userepl", true, "usebypassrls", true, "passwd", "********");
            case "pg_am" -> {
                for (Object[] am : new Object[][] {{2, "heap", "heap_tableam_handler", "t"}, {403, "btree", "bthandler", "i"},
                        {405, "hash", "hashhandler", "i"}, {783, "gist", "gisthandler", "i"}, {2742, "gin", "ginhandler", "i"},
                        {3580, "brin", "brinhandler", "i"}, {4000, "spgist", "spghandler", "i"}}) {
                    b.row().set("oid", am[0], "amname", am[1], "amhandler", am[2], "amtype", am[3]);
                }
            }
            case "pg_tablespace" -> {
                b.row().set("oid", 1663, "spcname", "pg_default", "spcowner", PgCatalog.OWNER_OID);
                b.row().set("oid", 1664, "spcname", "pg_global", "spcowner", PgCatalog.OWNER_OID);
            }
            case "pg_collation" -> {
                for (Object[] c : new Object[][] {{100, "default", "d", -1, null}, {950, "C", "c", -1, "C"},
                        {951, "POSIX", "c", -1, "POSIX"}}) {
                    b.row().set("oid", c[0], "collname", c[1], "collnamespace", PgCatalog.PG_CATALOG_OID,
                            "collowner", PgCatalog.OWNER_OID, "collprovider", c[2], "collisdeterministic", true,
                            "collencoding", c[3], "collcollate", c[4], "collctype", c[4]);
                }
            }
            case "pg_language" -> {
                for (Object[] l : new Object[][] {{12, "internal"}, {13, "c"}, {14, "sql"}}) {
                    b.row().set("oid", l[0], "lanname", l[1], "lanowner", PgCatalog.OWNER_OID, "lanpltrusted",
                            l[1].equals("sql"));
                }
            }
            case "pg_rewrite" -> model.relations().stream().filter(r -> r.isUser() && r.definition() != null)
                    .forEach(r -> b.row().set("oid", PgCatalog.oid(r.catalogId(), Slot.REWRITE_RULE), "rulename", "_RETURN",
                            "ev_class", r.oid(), "ev_type", "1", "ev_enabled", "O", "is_instead", true));
            case "pg_views" -> model.relations().stream().filter(r -> r.relkind().equals("v"))
                    .forEach(r -> b.row().set("schemaname", r.schema(), "viewname", r.name(), "viewowner", owner(r, security),
                            "definition", r.definition()));
            case "pg_matviews" -> model.relations().stream().filter(r -> r.relkind().equals("m"))
                    .forEach(r -> b.row().set("schemaname", r.schema(), "matviewname", r.name(), "matviewowner", owner(r, security),
                            "hasindexes", hasIndex(model, r), "ispopulated", true, "definition", r.definition()));
            case "pg_tables" -> model.relations().stream().filter(r -> r.relkind().equals("r"))
                    .forEach(r -> b.row().set("schemaname", r.schema(), "tablename", r.name(), "tableowner", owner(r, security),
                            "hasindexes", hasIndex(model, r)));
            case "pg_indexes" -> model.relations().stream().filter(Relation::isIndex)
                    .forEach(r -> b.row().set("schemaname", r.schema(),
                            "tablename", model.byOid(r.onOid()).map(Relation::name).orElse(null),
                            "indexname", r.name(), "indexdef", model.indexDef(r, false)));
            case "pg_settings" -> settings(b);
            case "stillwater_key_columns" -> model.relations().stream().filter(Relation::isIndex).forEach(r -> {
                for (int k = 0; k < r.keyAttnums().size(); k++) {
                    b.row().set("keyoid", r.oid(), "x", r.keyAttnums().get(k), "n", k + 1);
                    if (r.primaryKey()) {
                        b.row().set("keyoid", PgCatalog.oid(r.catalogId(), Slot.PRIMARY_KEY_CONSTRAINT),
                                "x", r.keyAttnums().get(k), "n", k + 1);
                    }
                }
            });
            default -> { } // a relation of a feature Stillwater does not have: no rows
        }
        return b.rows();
    }

    private static void namespace(PgRowBuilder b, int oid, String name) {
        b.row().set("oid", oid, "nspname", name, "nspowner", PgCatalog.OWNER_OID);
    }

    /** A relation's ACL: a user object's recorded one; built-in relations belong to mz_system. */
    static ObjectAcl acl(Relation r, SecurityCatalog security) {
        return r.isUser() ? security.relationAcl(r.catalogId()) : ObjectAcl.UNOWNED;
    }

    private static String owner(Relation r, SecurityCatalog security) { return PgAcl.ownerName(acl(r, security)); }

    private static void pgClass(PgRowBuilder b, Relation r, PgRelationModel model, SecurityCatalog security) {
        boolean storage = r.relkind().equals("r") || r.relkind().equals("m");
        // An index belongs to its relation's owner, as in PostgreSQL (whoever created it).
        ObjectAcl acl = acl(r.isIndex() ? model.byOid(r.onOid()).orElse(r) : r, security);
        b.row().set("oid", r.oid(), "relname", r.name(), "relnamespace", r.namespaceOid(),
                "reltype", r.hasRowType() ? PgCatalog.oid(r.catalogId(), Slot.ROW_TYPE) : 0,
                "relowner", PgAcl.ownerOid(acl, security),
                // PostgreSQL keeps no ACL on an index: its table's applies.
                "relacl", r.isIndex() ? null : PgAcl.relaclArray(acl),
                "relam", r.isIndex() ? PgCatalog.BTREE_AM_OID : storage ? PgCatalog.HEAP_AM_OID : 0,
                "relfilenode", storage || r.isIndex() ? r.oid() : 0, "reltuples", -1,
                "relhasindex", hasIndex(model, r), "relpersistence", "p", "relkind", r.relkind(),
                "relnatts", r.attributes().size(), "relhasrules", r.relkind().equals("v") && r.isUser(),
                "relispopulated", true, "relreplident", r.isIndex() ? "n" : "d");
    }

    private static boolean hasIndex(PgRelationModel model, Relation r) {
        return model.relations().stream().anyMatch(i -> i.isIndex() && i.onOid() == r.oid());
    }

    private static void attribute(PgRowBuilder b, Relation r, Attribute a) {
        TypeKind k = a.type().kind();
        b.row().set("attrelid", r.oid(), "attname", a.name(), "atttypid", a.type().oid(), "attstattarget", -1,
                "attlen", k.typeLength(), "attnum", a.attnum(), "attcacheoff", -1, "atttypmod", a.type().typmod(),
                "attbyval", k.typeLength() > 0 && k.typeLength() <= 8, "attalign", align(k),
                "attstorage", PgTypeNames.storage(a.type().oid()), "attcompression", "", "attnotnull", a.notNull(),
                "atthasdef", a.defaultSql() != null, "attidentity", "", "attgenerated", "", "attislocal", true,
                "attcollation", k.isString() ? 100 : 0);
    }

    private static String align(TypeKind k) {
        return switch (k.typeLength()) {
            case 1 -> "c";
            case 2 -> "s";
            case 4 -> "i";
            default -> k.typeLength() > 0 ? "d" : "i";
        };
    }

    /** A stable OID for a column default: past every user object's slots. */
    private static int attrdefOid(Relation r, Attribute a) {
        return 1_000_000_000 + (int) (r.catalogId() - Catalog.FIRST_USER_ID) * 2000 + a.attnum();
    }

    private static void index(PgRowBuilder b, Relation r) {
        int n = r.keyAttnums().size();
        b.row().set("indexrelid", r.oid(), "indrelid", r.onOid(), "indnatts", n, "indnkeyatts", n,
                "indisunique", r.unique(), "indisprimary", r.primaryKey(), "indimmediate", true,
                "indisvalid", true, "indisready", true, "indislive", true,
                "indkey", vector(r.keyAttnums()), "indcollation", vector(r.attributes().stream()
                        .map(a -> a.type().kind().isString() ? 100 : 0).toList()),
                "indclass", vector(r.keyAttnums().stream().map(x -> 0).toList()),
                "indoption", vector(r.keyAttnums().stream().map(x -> 0).toList()));
    }

    /** An int2vector/oidvector in its text form: {@code 1 2}. */
    static String vector(List<Integer> values) {
        StringJoiner j = new StringJoiner(" ");
        values.forEach(v -> j.add(v.toString()));
        return j.toString();
    }

    /** An array in its text form: {@code {1,2}}. */
    static String array(List<Integer> values) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        values.forEach(v -> j.add(v.toString()));
        return j.toString();
    }

    private static void types(PgRowBuilder b, PgRelationModel model) {
        for (String[] t : BUILTIN_TYPES) {
            // oid typname typnamespace typlen typbyval typtype typcategory typispreferred typdelim typelem typarray
            // typinput typoutput typreceive typsend typalign typstorage typbasetype typtypmod typndims typcollation
            b.row().set("oid", Integer.parseInt(t[0]), "typname", t[1], "typnamespace", Integer.parseInt(t[2]),
                    "typowner", PgCatalog.OWNER_OID, "typlen", Integer.parseInt(t[3]), "typbyval", t[4].equals("t"),
                    "typtype", t[5], "typcategory", t[6], "typispreferred", t[7].equals("t"), "typisdefined", true,
                    "typdelim", t[8], "typelem", Integer.parseInt(t[9]), "typarray", Integer.parseInt(t[10]),
                    "typinput", t[11], "typoutput", t[12], "typreceive", t[13], "typsend", t[14],
                    "typmodin", "-", "typmodout", "-", "typanalyze", "-", "typsubscript", "-",
                    "typalign", t[15], "typstorage", t[16], "typbasetype", Integer.parseInt(t[17]),
                    "typtypmod", Integer.parseInt(t[18]), "typndims", Integer.parseInt(t[19]),
                    "typcollation", Integer.parseInt(t[20]));
        }
        // Each user relation has a composite row type and an array type of it, as in PostgreSQL.
        for (Relation r : model.relations()) {
            if (!r.hasRowType()) continue;
            int rowType = PgCatalog.oid(r.catalogId(), Slot.ROW_TYPE);
            int arrayType = PgCatalog.oid(r.catalogId(), Slot.ARRAY_TYPE);
            compositeType(b, rowType, r.name(), "c", "C", r.oid(), 0, arrayType, "record_in", "record_out", "d");
            compositeType(b, arrayType, "_" + r.name(), "b", "A", 0, rowType, 0, "array_in", "array_out", "d");
        }
    }

    private static void compositeType(PgRowBuilder b, int oid, String name, String typtype, String category, int relid,
                                      int elem, int array, String in, String out, String align) {
        b.row().set("oid", oid, "typname", name, "typnamespace", PgCatalog.PUBLIC_OID, "typowner", PgCatalog.OWNER_OID,
                "typlen", -1, "typtype", typtype, "typcategory", category, "typisdefined", true, "typdelim", ",",
                "typrelid", relid, "typelem", elem, "typarray", array, "typinput", in, "typoutput", out,
                "typreceive", in.replace("_in", "_recv"), "typsend", out.replace("_out", "_send"),
                "typmodin", "-", "typmodout", "-", "typanalyze", "-", "typsubscript", typtype.equals("b") ? "array_subscript_handler" : "-",
                "typalign", align, "typstorage", "x", "typtypmod", -1);
    }

    private static void settings(PgRowBuilder b) {
        for (Map.Entry<String, String> s : List.of(Map.entry("server_version", "15.0"),
                Map.entry("server_version_num", "150000"), Map.entry("server_encoding", "UTF8"),
                Map.entry("client_encoding", "UTF8"), Map.entry("standard_conforming_strings", "on"),
                Map.entry("integer_datetimes", "on"), Map.entry("max_identifier_length", "63"),
                Map.entry("DateStyle", "ISO, MDY"), Map.entry("TimeZone", "UTC"))) {
            b.row().set("name", s.getKey(), "setting", s.getValue(), "context", "internal", "vartype", "string",
                    "source", "default", "boot_val", s.getValue(), "reset_val", s.getValue());
        }
    }
}
