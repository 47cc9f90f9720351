package io.stillwater.engine.catalog;

import io.stillwater.engine.catalog.PgRelationModel.Attribute;
import io.stillwater.engine.catalog.PgRelationModel.Relation;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of the {@code information_schema} views ({@link PgCatalog}) for one catalog
 * snapshot, as PostgreSQL 15 computes them for a superuser: tables and views (materialized
 * views are not in the SQL standard's views, as in PostgreSQL), their columns, the
 * schemas, and the constraints: a declared primary key, and the CHECK constraint
 * PostgreSQL lists for every NOT NULL column ({@code 2200_16384_1_not_null}), and the
 * privileges on user tables and views ({@code table_privileges}, {@code role_table_grants}).
 */
final class InformationSchemaRows {
    private InformationSchemaRows() {}

    static List<Row> rows(SystemRelations.Builtin rel, PgRelationModel model, SecurityCatalog security) {
        PgRowBuilder b = new PgRowBuilder(rel);
        String db = PgCatalogRows.DATABASE;
        switch (rel.name()) {
            case "schemata" -> {
                for (String s : List.of("pg_catalog", "pg_toast", "public", "information_schema")) {
                    b.row().set("catalog_name", db, "schema_name", s,
                            "schema_owner", s.equals("public") ? "pg_database_owner" : PgCatalogRows.ROLE);
                }
            }
            case "tables" -> model.relations().stream().filter(InformationSchemaRows::standard).forEach(r -> b.row().set(
                    "table_catalog", db, "table_schema", r.schema(), "table_name", r.name(),
                    "table_type", r.relkind().equals("r") ? "BASE TABLE" : "VIEW",
                    "is_insertable_into", r.relkind().equals("r") && r.isUser() ? "YES" : "NO", "is_typed", "NO",
                    "commit_action", null));
            case "columns" -> model.relations().stream().filter(InformationSchemaRows::standard)
                    .forEach(r -> r.attributes().forEach(a -> column(b, r, a)));
            case "views" -> model.relations().stream().filter(r -> r.relkind().equals("v")).forEach(r -> b.row().set(
                    "table_catalog", db, "table_schema", r.schema(), "table_name", r.name(),
                    "view_definition", r.definition(), "check_option", "NONE", "is_updatable", "NO",
                    "is_insertable_into", "NO", "is_trigger_updatable", "NO", "is_trigger_deletable", "NO",
                    "is_trigger_insertable_into", "NO"));
            case "table_constraints" -> {
                for (Relation r : model.relations()) {
                    if (!r.isUser()) continue;
                    if (r.primaryKey()) {
                        constraint(b, r.name(), model.byOid(r.onOid()).map(Relation::name).orElse(null), "PRIMARY KEY");
                    }
                    if (r.relkind().equals("r")) {
                        for (Attribute a : r.attributes()) {
                            if (a.notNull()) constraint(b, notNullName(r, a), r.name(), "CHECK");
                        }
                    }
                }
            }
            case "check_constraints" -> {
                for (Relation r : model.relations()) {
                    if (!r.isUser() || !r.relkind().equals("r")) continue;
                    for (Attribute a : r.attributes()) {
                        if (a.notNull()) {
                            b.row().set("constraint_catalog", db, "constraint_schema", "public",
                                    "constraint_name", notNullName(r, a),
                                    "check_clause", PgRelationModel.quoteIdent(a.name()) + " IS NOT NULL");
                        }
                    }
                }
            }
            case "key_column_usage", "constraint_column_usage" -> {
                for (Relation r : model.relations()) {
                    if (!r.primaryKey()) continue;
                    String table = model.byOid(r.onOid()).map(Relation::name).orElse(null);
                    for (int k = 0; k < r.attributes().size(); k++) {
                        b.row().set("constraint_catalog", db, "constraint_schema", "public", "constraint_name", r.name(),
                                "table_catalog", db, "table_schema", "public", "table_name", table,
                                "column_name", r.attributes().get(k).name());
                        if (rel.name().equals("key_column_usage")) b.set("ordinal_position", k + 1);
                    }
                }
            }
            case "table_privileges", "role_table_grants" -> model.relations().stream()
                    .filter(r -> r.isUser() && standard(r))
                    .forEach(r -> privileges(b, r, PgCatalogRows.acl(r, security), rel.name().equals("table_privileges")));
            default -> { } // sequences, triggers, routines, ...: none
        }
        return b.rows();
    }

    /** Relations the standard's views list: tables and views (not materialized views or indexes). */
    private static boolean standard(Relation r) {
        return r.relkind().equals("r") || r.relkind().equals("v");
    }

    /** PostgreSQL's table privileges in aclexplode's order: what an owner holds, with grant option. */
    private static final List<String> OWNER_PRIVILEGES =
            List.of("INSERT", "SELECT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER");

    /**
     * One row per privilege held on {@code r}, as PostgreSQL 15's views compute them from
     * {@code aclexplode(coalesce(relacl, acldefault('r', relowner)))}: the owner's (grantable)
     * first, then each grantee's, then PUBLIC's ({@code table_privileges} only: {@code
     * role_table_grants} lists grants between roles). The grantor is the owner (see {@link
     * PgAcl}). Unlike PostgreSQL, which shows a user only the rows of its own roles, every
     * row is shown to everyone.
     */
    private static void privileges(PgRowBuilder b, Relation r, ObjectAcl acl, boolean withPublic) {
        String owner = PgAcl.ownerName(acl);
        for (String p : OWNER_PRIVILEGES) privilege(b, r, owner, owner, p, true);
        for (Map.Entry<String, Set<Privilege>> g : acl.grants().entrySet()) {
            boolean everyone = g.getKey().equals(RoleDef.PUBLIC);
            if (g.getKey().equals(owner) || (everyone && !withPublic)) continue;
            for (Privilege p : Privilege.values()) {
                if (g.getValue().contains(p)) privilege(b, r, owner, everyone ? "PUBLIC" : g.getKey(), p.keyword(), false);
            }
        }
    }

    private static void privilege(PgRowBuilder b, Relation r, String grantor, String grantee, String type, boolean grantable) {
        b.row().set("grantor", grantor, "grantee", grantee, "table_catalog", PgCatalogRows.DATABASE,
                "table_schema", r.schema(), "table_name", r.name(), "privilege_type", type,
                "is_grantable", grantable ? "YES" : "NO", "with_hierarchy", type.equals("SELECT") ? "YES" : "NO");
    }

    private static String notNullName(Relation r, Attribute a) {
        return PgCatalog.PUBLIC_OID + "_" + r.oid() + "_" + a.attnum() + "_not_null";
    }

    private static void constraint(PgRowBuilder b, String name, String table, String type) {
        String db = PgCatalogRows.DATABASE;
        b.row().set("constraint_catalog", db, "constraint_schema", "public", "constraint_name", name,
                "table_catalog", db, "table_schema", "public", "table_name", table, "constraint_type", type,
                "is_deferrable", "NO", "initially_deferred", "NO", "enforced", "YES",
                "nulls_distinct", type.equals("PRIMARY KEY") ? "YES" : null);
    }

    private static void column(PgRowBuilder b, Relation r, Attribute a) {
        SqlType t = a.type();
        TypeKind k = t.kind();
        boolean fixedPrecision = t.precision() != SqlType.UNSPECIFIED;
        b.row().set("table_catalog", PgCatalogRows.DATABASE, "table_schema", r.schema(), "table_name", r.name(),
                "column_name", a.name(), "ordinal_position", a.attnum(), "column_default", a.defaultSql(),
                "is_nullable", a.notNull() ? "NO" : "YES", "data_type", k.pgName(),
                "character_maximum_length", k.isString() && fixedPrecision ? t.precision() : null,
                "character_octet_length", k.isString() ? (fixedPrecision ? t.precision() * 4 : 1073741824) : null,
                "numeric_precision", numericPrecision(t), "numeric_precision_radix", numericRadix(k),
                "numeric_scale", k.isInteger() ? (Object) 0 : k == TypeKind.NUMERIC && fixedPrecision ? t.scale() : null,
                "datetime_precision", k.isTemporal() ? (k == TypeKind.DATE ? 0 : 6) : null,
                "udt_catalog", PgCatalogRows.DATABASE, "udt_schema", "pg_catalog", "udt_name", udtName(k),
                "dtd_identifier", String.valueOf(a.attnum()), "is_self_referencing", "NO", "is_identity", "NO",
                "identity_cycle", "NO", "is_generated", "NEVER",
                "is_updatable", r.relkind().equals("r") && r.isUser() ? "YES" : "NO");
        if (k == TypeKind.INTERVAL) b.set("interval_type", null);
    }

    private static Object numericPrecision(SqlType t) {
        return switch (t.kind()) {
            case SMALLINT -> 16;
            case INTEGER -> 32;
            case BIGINT -> 64;
            case REAL -> 24;
            case DOUBLE -> 53;
            case NUMERIC -> t.precision() == SqlType.UNSPECIFIED ? null : t.precision();
            default -> null;
        };
    }

    private static Object numericRadix(TypeKind k) {
        if (k == TypeKind.NUMERIC) return 10;
        return k.isNumeric() ? 2 : null;
    }

    /** The type's name in pg_type ({@code int4}, {@code varchar}, ...). */
    static String udtName(TypeKind k) {
        return switch (k) {
            case BOOLEAN -> "bool";
            case SMALLINT -> "int2";
            case INTEGER -> "int4";
            case BIGINT -> "int8";
            case REAL -> "float4";
            case DOUBLE -> "float8";
            case VARCHAR -> "varchar";
            case CHAR -> "bpchar";
            case TIME -> "time";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            default -> k.pgName();
        };
    }
}
