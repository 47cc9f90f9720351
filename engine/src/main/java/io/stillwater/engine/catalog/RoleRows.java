package io.stillwater.engine.catalog;

import io.stillwater.engine.data.Row;
import java.util.List;
import java.util.Optional;

/**
 * The rows of the role relations ({@code pg_roles}, {@code pg_authid}, {@code pg_user},
 * {@code pg_auth_members}) from the role catalog. Passwords never show: {@code pg_roles}
 * and {@code pg_user} print {@code ********} as PostgreSQL does, and {@code
 * pg_authid.rolpassword} is always null (readable by everyone here, so the verifier is
 * hidden rather than the relation). Role memberships do not exist: pg_auth_members is
 * empty. PostgreSQL's {@code pg_database_owner} pseudo-role is listed for {@code
 * pg_namespace.nspowner}.
 */
public final class RoleRows {
    private RoleRows() {}

    /** The rows of pg_catalog relation {@code id} if it is a role relation, else empty. */
    public static Optional<List<Row>> rows(long id, SecurityCatalog security) {
        SystemRelations.Builtin rel = PgCatalog.relations().stream().filter(b -> b.id() == id).findFirst().orElse(null);
        if (rel == null) return Optional.empty();
        PgRowBuilder b = new PgRowBuilder(rel);
        switch (rel.name()) {
            case "pg_roles", "pg_authid" -> {
                String password = rel.name().equals("pg_roles") ? "********" : null;
                for (RoleDef r : security.allRoles()) {
                    b.row().set("oid", r.oid(), "rolname", r.name(), "rolsuper", r.superuser(), "rolinherit", r.inherit(),
                            "rolcreaterole", r.createRole(), "rolcreatedb", false, "rolcanlogin", r.login(),
                            "rolreplication", false, "rolbypassrls", r.superuser(), "rolconnlimit", -1,
                            "rolpassword", password);
                }
                b.row().set("oid", PgCatalog.DATABASE_OWNER_OID, "rolname", "pg_database_owner", "rolinherit", true,
                        "rolconnlimit", -1, "rolpassword", password);
            }
            case "pg_user" -> {
                for (RoleDef r : security.allRoles()) {
                    if (!r.login()) continue;
                    b.row().set("usename", r.name(), "usesysid", r.oid(), "usecreatedb", false, "usesuper", r.superuser(),
                            "userepl", false, "usebypassrls", r.superuser(), "passwd", "********");
                }
            }
            case "pg_auth_members" -> { }
            default -> {
                return Optional.empty();
            }
        }
        return Optional.of(b.rows());
    }
}
