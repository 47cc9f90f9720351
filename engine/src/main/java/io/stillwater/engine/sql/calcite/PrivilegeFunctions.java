package io.stillwater.engine.sql.calcite;

import io.stillwater.engine.catalog.ObjectAcl;
import io.stillwater.engine.catalog.PgAcl;
import io.stillwater.engine.catalog.PgCatalog;
import io.stillwater.engine.catalog.PgCatalogRows;
import io.stillwater.engine.catalog.PgRelationModel;
import io.stillwater.engine.catalog.PgRelationModel.Relation;
import io.stillwater.engine.catalog.Privilege;
import io.stillwater.engine.catalog.RoleDef;
import io.stillwater.engine.catalog.SecurityCatalog;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * PostgreSQL's access privilege inquiry functions, answered from the role catalog: {@code
 * has_table_privilege([user,] table, privilege)}, {@code has_any_column_privilege}, {@code
 * has_column_privilege([user,] table, column, privilege)} (columns have no privileges of
 * their own here: the table's apply), {@code has_schema_privilege} and {@code
 * has_database_privilege}. The user is a role name or oid ({@code current_user} when left
 * out), the object a name or an oid, the privilege a comma-separated list of which any
 * one suffices ({@code 'SELECT, INSERT'}), each optionally {@code WITH GRANT OPTION}.
 *
 * <p>As {@link PgCatalogFunctions} does for the other catalog functions, each call becomes,
 * when the statement is planned, an expression over the answers of the role catalog
 * current then: per object, whether PUBLIC holds the privilege (then true), else whether
 * the user is one of the roles that hold it (superusers, the owner, the grantees). A role
 * or grant change republishes the catalog, so no cached plan outlives the answers it holds.
 *
 * <p>Rules (PostgreSQL 15's): superusers and the owner hold every privilege, with grant
 * option; others what was granted to them or to PUBLIC, without grant option (Stillwater has
 * no WITH GRANT OPTION); TRUNCATE, REFERENCES and TRIGGER only superusers and the owner (no
 * statement grants them). Built-in catalog relations: SELECT for everyone. Schemas: USAGE
 * on every one, CREATE on {@code public} (every role may create objects there), on others
 * only superusers. The database: CONNECT and TEMPORARY for everyone, CREATE superusers. An
 * unknown object or role named by a constant is an error, as in PostgreSQL; an unknown
 * oid gives NULL.
 */
final class PrivilegeFunctions {
    private final SecurityCatalog security;
    private final Supplier<PgRelationModel> model;

    PrivilegeFunctions(SecurityCatalog security, Supplier<PgRelationModel> model) {
        this.security = security;
        this.model = model;
    }

    static final Set<String> NAMES = Set.of("HAS_TABLE_PRIVILEGE", "HAS_ANY_COLUMN_PRIVILEGE", "HAS_COLUMN_PRIVILEGE",
            "HAS_SCHEMA_PRIVILEGE", "HAS_DATABASE_PRIVILEGE");

    /** Table privileges PostgreSQL knows that no Stillwater statement grants: only the owner (and superusers) hold them. */
    private static final Set<String> OWNER_ONLY = Set.of("TRUNCATE", "REFERENCES", "TRIGGER");

    /** One privilege asked for: {@code privilege} null for one only owners hold; {@code grantOption} WITH GRANT OPTION. */
    private record Asked(String word, Privilege privilege, boolean grantOption) {}

    /** The expression for {@code upperName} (one of {@link #NAMES}) applied to {@code args}. */
    Expr translate(String upperName, List<Expr> args) {
        int objectArgs = upperName.equals("HAS_COLUMN_PRIVILEGE") ? 2 : 1;
        if (args.size() != objectArgs + 1 && args.size() != objectArgs + 2) {
            throw new SqlException(SqlState.UNDEFINED_FUNCTION,
                    "function " + upperName.toLowerCase(Locale.ROOT) + " with " + args.size() + " arguments does not exist");
        }
        boolean withUser = args.size() == objectArgs + 2;
        Expr user = withUser ? args.get(0) : new Expr.Call(Func.CURRENT_USER, List.of(), SqlType.TEXT);
        Expr object = args.get(withUser ? 1 : 0);
        Expr privilege = args.get(args.size() - 1);
        checkRole(user);
        if (!(privilege instanceof Expr.Literal l && l.value() instanceof String text)) {
            // A computed privilege: one of the single privilege words, spelled in upper or lower case.
            List<Expr> conds = new ArrayList<>();
            List<Expr> results = new ArrayList<>();
            for (String word : words(upperName)) {
                conds.add(or(textEq(privilege, word), textEq(privilege, word.toLowerCase(Locale.ROOT))));
                results.add(answer(upperName, user, object, parse(upperName, word)));
            }
            return new Expr.Case(conds, results, nullBoolean(), SqlType.BOOLEAN);
        }
        return answer(upperName, user, object, parse(upperName, text));
    }

    private Expr answer(String upperName, Expr user, Expr object, List<Asked> asked) {
        return switch (upperName) {
            case "HAS_SCHEMA_PRIVILEGE" -> schema(user, object, asked);
            case "HAS_DATABASE_PRIVILEGE" -> database(user, object, asked);
            default -> table(user, object, asked);
        };
    }

    // ---------------------------------------------------------------- tables

    private Expr table(Expr user, Expr table, List<Asked> asked) {
        if (table instanceof Expr.Literal l && l.value() instanceof String name) {
            Relation r = model.get().byName(name).orElseThrow(() -> new SqlException(SqlState.UNDEFINED_TABLE,
                    "relation \"" + name + "\" does not exist"));
            return relationHolds(r, user, asked);
        }
        boolean byName = table.type().kind().isString();
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        for (Relation r : model.get().relations()) {
            conds.add(byName ? textEq(table, r.schema().equals(PgCatalog.INFORMATION_SCHEMA)
                    ? r.schema() + "." + r.name() : r.name()) : intEq(table, r.oid()));
            results.add(relationHolds(r, user, asked));
        }
        return new Expr.Case(conds, results, nullBoolean(), SqlType.BOOLEAN);
    }

    /** Whether {@code user} holds any of {@code asked} on {@code r}. */
    private Expr relationHolds(Relation r, Expr user, List<Asked> asked) {
        if (!r.isUser()) {
            boolean select = asked.stream().anyMatch(a -> a.privilege() == Privilege.SELECT && !a.grantOption());
            return select ? bool(true) : userIn(user, superusers());
        }
        // An index has no grants of its own (as in PostgreSQL): only its table's owner holds privileges on it.
        Relation owned = r.isIndex() ? model.get().byOid(r.onOid()).orElse(r) : r;
        ObjectAcl acl = security.relationAcl(owned.catalogId());
        if (acl.unowned()) return bool(true); // every role acts as the owner of an unowned object
        Set<String> holders = new LinkedHashSet<>(superusers());
        holders.add(PgAcl.ownerName(acl));
        if (r.isIndex()) return userIn(user, holders);
        for (Asked a : asked) {
            if (a.privilege() == null || a.grantOption()) continue;
            if (acl.grantedTo(RoleDef.PUBLIC).contains(a.privilege())) return bool(true);
            acl.grants().forEach((grantee, ps) -> {
                if (ps.contains(a.privilege())) holders.add(grantee);
            });
        }
        return userIn(user, holders);
    }

    // ---------------------------------------------------------------- schemas and the database

    private static final Map<Integer, String> SCHEMAS = Map.of(PgCatalog.PG_CATALOG_OID, "pg_catalog",
            PgCatalog.PG_TOAST_OID, "pg_toast", PgCatalog.PUBLIC_OID, "public",
            PgCatalog.INFORMATION_SCHEMA_OID, "information_schema");

    private Expr schema(Expr user, Expr schema, List<Asked> asked) {
        Map<Object, String> keys = new LinkedHashMap<>();
        SCHEMAS.forEach((oid, name) -> keys.put(schema.type().kind().isString() ? name : oid, name));
        return byKey(schema, keys, "schema", SqlState.INVALID_SCHEMA_NAME, name -> asked.stream().anyMatch(a ->
                !a.grantOption() && (a.word().equals("USAGE") || (a.word().equals("CREATE") && name.equals("public"))))
                ? bool(true) : userIn(user, superusers()));
    }

    private Expr database(Expr user, Expr database, List<Asked> asked) {
        Object key = database.type().kind().isString() ? PgCatalogRows.DATABASE : (Object) PgCatalog.DATABASE_OID;
        return byKey(database, Map.of(key, PgCatalogRows.DATABASE), "database", SqlState.INVALID_CATALOG_NAME,
                name -> asked.stream().anyMatch(a -> !a.grantOption() && !a.word().equals("CREATE"))
                        ? bool(true) : userIn(user, superusers()));
    }

    /** The answer for the object {@code arg} names (by name or oid, see {@code keys}); NULL for an unknown oid. */
    private static Expr byKey(Expr arg, Map<Object, String> keys, String what, SqlState unknown,
                              Function<String, Expr> answer) {
        if (arg instanceof Expr.Literal l && l.value() instanceof String name) {
            if (!keys.containsKey(name)) throw new SqlException(unknown, what + " \"" + name + "\" does not exist");
            return answer.apply(name);
        }
        List<Expr> conds = new ArrayList<>();
        List<Expr> results = new ArrayList<>();
        keys.forEach((k, name) -> {
            conds.add(k instanceof Integer oid ? intEq(arg, oid) : textEq(arg, (String) k));
            results.add(answer.apply(name));
        });
        return new Expr.Case(conds, results, nullBoolean(), SqlType.BOOLEAN);
    }

    // ---------------------------------------------------------------- privileges and roles

    private static List<String> words(String upperName) {
        return switch (upperName) {
            case "HAS_SCHEMA_PRIVILEGE" -> List.of("USAGE", "CREATE");
            case "HAS_DATABASE_PRIVILEGE" -> List.of("CONNECT", "CREATE", "TEMPORARY", "TEMP");
            default -> List.of("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER");
        };
    }

    /** {@code text} (e.g. {@code 'select, INSERT WITH GRANT OPTION'}) as privileges; 22023 for an unknown one. */
    private static List<Asked> parse(String upperName, String text) {
        List<Asked> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String word = part.strip().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
            boolean grantOption = word.endsWith(" WITH GRANT OPTION");
            if (grantOption) word = word.substring(0, word.length() - " WITH GRANT OPTION".length()).strip();
            if (!words(upperName).contains(word)) {
                throw new SqlException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized privilege type: \"" + part.strip() + "\"");
            }
            out.add(new Asked(word, OWNER_ONLY.contains(word) ? null : Privilege.parse(word), grantOption));
        }
        return out;
    }

    /** A constant role name or oid that names no role is an error, as in PostgreSQL. */
    private void checkRole(Expr user) {
        if (!(user instanceof Expr.Literal l) || l.value() == null) return;
        boolean known = l.value() instanceof String name
                ? name.equals(RoleDef.PUBLIC) || security.role(name).isPresent()
                : security.allRoles().stream().anyMatch(r -> r.oid() == ((Number) l.value()).longValue());
        if (!known) {
            throw new SqlException(SqlState.UNDEFINED_OBJECT, l.value() instanceof String name
                    ? "role \"" + name + "\" does not exist" : "role with OID " + l.value() + " does not exist");
        }
    }

    private Set<String> superusers() {
        Set<String> out = new LinkedHashSet<>();
        for (RoleDef r : security.allRoles()) if (r.superuser()) out.add(r.name());
        return out;
    }

    /** Whether {@code user} (a role name, or an oid) is one of {@code roles}. */
    private Expr userIn(Expr user, Set<String> roles) {
        boolean byName = user.type().kind().isString();
        Expr out = null;
        for (String name : roles) {
            Expr one;
            if (byName) {
                one = textEq(user, name);
            } else {
                RoleDef role = security.role(name).orElse(null);
                if (role == null) continue;
                one = intEq(user, (int) role.oid());
            }
            out = out == null ? one : or(out, one);
        }
        if (out == null) out = bool(false);
        // NULL for a NULL user, as PostgreSQL's strict functions answer.
        return new Expr.Case(List.of(new Expr.Call(Func.IS_NULL, List.of(user), SqlType.BOOLEAN)),
                List.of(nullBoolean()), out, SqlType.BOOLEAN);
    }

    // ---------------------------------------------------------------- expression building

    private static Expr bool(boolean b) { return new Expr.Literal(b, SqlType.BOOLEAN); }

    private static Expr nullBoolean() { return new Expr.Literal(null, SqlType.BOOLEAN); }

    private static Expr or(Expr a, Expr b) { return new Expr.Call(Func.OR, List.of(a, b), SqlType.BOOLEAN); }

    private static Expr textEq(Expr e, String value) {
        Expr text = e.type().kind().isString() ? e : new Expr.Cast(e, SqlType.TEXT);
        return new Expr.Call(Func.EQ, List.of(text, new Expr.Literal(value, SqlType.TEXT)), SqlType.BOOLEAN);
    }

    private static Expr intEq(Expr e, int value) {
        Expr i = e.type().kind() == TypeKind.INTEGER ? e : new Expr.Cast(e, SqlType.INTEGER);
        return new Expr.Call(Func.EQ, List.of(i, new Expr.Literal(value, SqlType.INTEGER)), SqlType.BOOLEAN);
    }
}
