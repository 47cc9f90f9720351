package io.stillwater.engine.catalog;

import io.stillwater.engine.catalog.PgCatalog.Slot;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The relations of one catalog snapshot as PostgreSQL's catalog describes them: every
 * table, view, materialized view, index (including the index PostgreSQL would create for a
 * declared primary key) and built-in relation, with its OID, namespace, relkind and
 * columns. Both the rows of {@code pg_catalog}/{@code information_schema} ({@link
 * PgCatalogRows}, {@link InformationSchemaRows}) and the catalog functions of the SQL
 * front end ({@code pg_get_indexdef}, {@code ::regclass}, ...) are computed from it, so
 * they agree. Immutable; built per read.
 */
public final class PgRelationModel {
    /** A column of a relation; {@code attnum} counts from 1. */
    public record Attribute(String name, SqlType type, int attnum, boolean notNull, String defaultSql) {}

    /**
     * One relation. {@code onOid} is the indexed relation's OID for an index (0 otherwise);
     * {@code keyAttnums} an index's key columns in the indexed relation (0 for an
     * expression); {@code keySql} its key expressions as written; {@code unique} whether the
     * index is unique (a {@code CREATE UNIQUE INDEX}, enforced, or a declared primary key);
     * {@code primaryKey} whether it is the index of a primary key declared in CREATE TABLE.
     */
    public record Relation(int oid, String name, String schema, int namespaceOid, String relkind, long catalogId,
                           List<Attribute> attributes, int onOid, List<Integer> keyAttnums, List<String> keySql,
                           boolean unique, boolean primaryKey, String definition) {
        public boolean isUser() { return namespaceOid == PgCatalog.PUBLIC_OID; }

        public boolean isIndex() { return relkind.equals("i"); }

        /** A relation with a row type (tables, views, materialized views): user objects' only. */
        public boolean hasRowType() { return isUser() && !isIndex(); }
    }

    private final List<Relation> relations;

    private PgRelationModel(List<Relation> relations) { this.relations = List.copyOf(relations); }

    /** Every relation, built-in first, then user objects in catalog id order. */
    public List<Relation> relations() { return relations; }

    public Optional<Relation> byOid(int oid) {
        return relations.stream().filter(r -> r.oid() == oid).findFirst();
    }

    /**
     * The relation a {@code ::regclass} cast of {@code text} names: {@code name},
     * {@code schema.name}, or either quoted; unqualified names look in pg_catalog first,
     * then public, as PostgreSQL's search path does.
     */
    public Optional<Relation> byName(String text) {
        List<String> parts = splitQualified(text.strip());
        String n = parts.get(parts.size() - 1);
        String s = parts.size() > 1 ? parts.get(parts.size() - 2) : null;
        return relations.stream()
                .filter(r -> r.name().equals(n) && (s == null ? !r.schema().equals(PgCatalog.INFORMATION_SCHEMA)
                        : r.schema().equals(s)))
                .min(Comparator.comparingInt(r -> r.schema().equals(PgCatalog.PG_CATALOG) ? 0 : 1));
    }

    /** {@code a.b}, {@code "A"."b.c"}: the parts, unquoted, unquoted ones folded to lower case. */
    static List<String> splitQualified(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '"') {
                if (quoted && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    part.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                    wasQuoted = true;
                }
            } else if (ch == '.' && !quoted) {
                out.add(wasQuoted ? part.toString() : part.toString().toLowerCase(java.util.Locale.ROOT));
                part.setLength(0);
                wasQuoted = false;
            } else {
                part.append(ch);
            }
        }
        out.add(wasQuoted ? part.toString() : part.toString().toLowerCase(java.util.Locale.ROOT));
        return out;
    }

    public static PgRelationModel of(CatalogView catalog) {
        List<Relation> out = new ArrayList<>();
        for (SystemRelations.Builtin b : PgCatalog.relations()) {
            if (b.name().startsWith(PgCatalog.STILLWATER_PREFIX)) continue; // Stillwater's helpers are not PostgreSQL's
            boolean pg = b.schema().equals(PgCatalog.PG_CATALOG);
            out.add(new Relation(PgCatalog.oid(b), b.name(), b.schema(),
                    pg ? PgCatalog.PG_CATALOG_OID : PgCatalog.INFORMATION_SCHEMA_OID, PgCatalog.relkind(b), b.id(),
                    attributes(b.def()), 0, List.of(), List.of(), false, false, null));
        }
        List<Relation> user = new ArrayList<>();
        for (TableDef t : catalog.tables()) {
            user.add(userRelation(t.id(), t.name(), "r", attributes(t), null));
            if (!t.primaryKey().isEmpty()) {
                List<Integer> attnums = t.primaryKey().stream().map(i -> i + 1).toList();
                List<String> keySql = t.primaryKey().stream().map(i -> IndexDef.quote(t.columns().get(i).name())).toList();
                List<Attribute> atts = new ArrayList<>();
                for (int k = 0; k < attnums.size(); k++) {
                    ColumnDef c = t.columns().get(t.primaryKey().get(k));
                    atts.add(new Attribute(c.name(), c.type(), k + 1, true, null));
                }
                user.add(new Relation(PgCatalog.oid(t.id(), Slot.PRIMARY_KEY_INDEX), t.name() + "_pkey", "public",
                        PgCatalog.PUBLIC_OID, "i", t.id(), atts, PgCatalog.oid(t.id(), Slot.RELATION), attnums, keySql,
                        true, true, null));
            }
        }
        for (ViewDef v : catalog.views()) {
            user.add(userRelation(v.id(), v.name(), "v", attributes(v.asTable()), v.definition()));
        }
        for (MaterializedViewDef m : catalog.materializedViews()) {
            user.add(userRelation(m.id(), m.name(), "m", attributes(m.asTable()), m.definition()));
        }
        for (IndexDef i : catalog.indexes()) {
            Relation on = user.stream().filter(r -> r.catalogId() == i.onId() && !r.isIndex()).findFirst().orElse(null);
            List<Integer> attnums = new ArrayList<>();
            List<Attribute> atts = new ArrayList<>();
            int expr = 0;
            for (int k = 0; k < i.keySql().size(); k++) {
                String key = IndexDef.unquoteSimple(i.keySql().get(k));
                Attribute col = on == null ? null
                        : on.attributes().stream().filter(a -> a.name().equals(key)).findFirst().orElse(null);
                attnums.add(col == null ? 0 : col.attnum());
                String name = col != null ? col.name() : (expr++ == 0 ? "expr" : "expr" + expr);
                atts.add(new Attribute(name, col == null ? SqlType.TEXT : col.type(), k + 1, false, null));
            }
            user.add(new Relation(PgCatalog.oid(i.id(), Slot.RELATION), i.name(), "public", PgCatalog.PUBLIC_OID, "i",
                    i.id(), atts, on == null ? 0 : on.oid(), attnums, i.keySql(), i.unique(), false, null));
        }
        user.sort(Comparator.comparingInt(Relation::oid));
        out.addAll(user);
        return new PgRelationModel(out);
    }

    private static Relation userRelation(long id, String name, String relkind, List<Attribute> atts, String definition) {
        return new Relation(PgCatalog.oid(id, Slot.RELATION), name, "public", PgCatalog.PUBLIC_OID, relkind, id, atts,
                0, List.of(), List.of(), false, false, definition);
    }

    private static List<Attribute> attributes(TableDef t) {
        List<Attribute> out = new ArrayList<>();
        for (int i = 0; i < t.columns().size(); i++) {
            ColumnDef c = t.columns().get(i);
            out.add(new Attribute(c.name(), c.type(), i + 1, c.notNull(),
                    c.defaultValue() == null ? null : defaultSql(c.type(), c.defaultValue())));
        }
        return out;
    }

    /** A column default as {@code pg_get_expr} shows it: {@code 3}, {@code 'x'::text}. */
    static String defaultSql(SqlType type, Object value) {
        String text = DatumText.format(type, value);
        if (type.kind().isNumeric() && !text.startsWith("-")) return text;
        if (type.kind() == TypeKind.BOOLEAN) return text.equals("t") ? "true" : "false";
        return "'" + text.replace("'", "''") + "'::" + type.displayName();
    }

    /**
     * The index definition {@code pg_get_indexdef} returns: {@code CREATE INDEX t_b ON public.t
     * USING btree (b)}; {@code pretty} (its third argument) leaves out the schema of a
     * relation the search path finds, as PostgreSQL does.
     */
    public String indexDef(Relation index, boolean pretty) {
        String on = byOid(index.onOid())
                .map(r -> (pretty && r.isUser() ? "" : quoteIdent(r.schema()) + ".") + quoteIdent(r.name())).orElse("?");
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < index.keySql().size(); k++) {
            String key = IndexDef.unquoteSimple(index.keySql().get(k));
            // PostgreSQL parenthesizes an expression key that is not a column or a function call.
            boolean plain = index.keyAttnums().get(k) != 0 || key.matches("[A-Za-z_][A-Za-z0-9_$.]*\\(.*\\)");
            keys.add(plain ? key : "(" + key + ")");
        }
        return "CREATE " + (index.unique() ? "UNIQUE " : "") + "INDEX " + quoteIdent(index.name()) + " ON " + on
                + " USING btree (" + String.join(", ", keys) + ")";
    }

    /** The key column or expression {@code k} (from 1) of an index, as {@code pg_get_indexdef(oid, k, ...)} returns it. */
    public static String indexColumn(Relation index, int k) {
        return IndexDef.unquoteSimple(index.keySql().get(k - 1));
    }

    /** An identifier quoted only when PostgreSQL would quote it. */
    public static String quoteIdent(String name) {
        return name.matches("[a-z_][a-z0-9_$]*") ? name : IndexDef.quote(name);
    }
}
