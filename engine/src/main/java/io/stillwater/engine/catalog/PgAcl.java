package io.stillwater.engine.catalog;

import io.stillwater.engine.types.PgArray;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An object's owner and grants as PostgreSQL's catalog shows them: the owner's role oid
 * ({@code pg_class.relowner}) and name, and the ACL in {@code aclitem[]} text form
 * ({@code pg_class.relacl}, psql's {@code \dp}): {@code {alice=arwdDxt/alice,bob=r/alice,=r/alice}}.
 *
 * <p>Rules, as PostgreSQL 15 prints them: an object with only the default privileges
 * (nothing granted) has a NULL ACL; once anything is granted, the owner's implicit
 * privileges are listed first (for a relation all of PostgreSQL's, {@code arwdDxt},
 * including TRUNCATE, REFERENCES and TRIGGER that Stillwater has no statements for), then
 * each grantee by name, then PUBLIC (an empty grantee name). The grantor is always the
 * owner: PostgreSQL records the owner as grantor when the owner or a superuser grants, and
 * only they may grant here (there is no WITH GRANT OPTION). An unowned object ({@link
 * ObjectAcl#UNOWNED}, from before roles existed) shows the bootstrap superuser
 * {@code mz_system} (oid 10) as its owner.
 */
public final class PgAcl {
    private PgAcl() {}

    /** What a relation's owner holds, in aclitem letters (PostgreSQL's default for tables and views). */
    static final String RELATION_OWNER_LETTERS = "arwdDxt";

    /** The oid of the role owning an object with {@code acl}: the owner's, or mz_system's for unowned objects. */
    public static int ownerOid(ObjectAcl acl, SecurityCatalog security) {
        return (int) (long) security.role(ownerName(acl)).map(RoleDef::oid).orElse(RoleDef.BOOTSTRAP_OID);
    }

    /** The name of the role owning an object with {@code acl} ({@code mz_system} for unowned objects). */
    public static String ownerName(ObjectAcl acl) {
        return acl.unowned() ? RoleDef.MZ_SYSTEM.name() : acl.owner();
    }

    /** {@code relacl}: the aclitem[] of a relation with {@code acl} (as text[]), or null when nothing was granted. */
    public static PgArray relaclArray(ObjectAcl acl) {
        List<String> items = items(acl);
        return items == null ? null : PgArray.of(items);
    }

    /** {@code relacl} in its text form ({@code {alice=arwdDxt/alice,=r/alice}}), or null when nothing was granted. */
    public static String relacl(ObjectAcl acl) {
        List<String> items = items(acl);
        return items == null ? null : "{" + String.join(",", items) + "}";
    }

    private static List<String> items(ObjectAcl acl) {
        if (acl.grants().isEmpty()) return null;
        String owner = ownerName(acl);
        List<String> items = new ArrayList<>();
        items.add(item(owner, RELATION_OWNER_LETTERS, owner));
        for (Map.Entry<String, Set<Privilege>> g : acl.grants().entrySet()) {
            if (g.getKey().equals(RoleDef.PUBLIC) || g.getKey().equals(owner)) continue;
            items.add(item(g.getKey(), Privilege.letters(g.getValue()), owner));
        }
        Set<Privilege> everyone = acl.grantedTo(RoleDef.PUBLIC);
        if (!everyone.isEmpty()) items.add(item("", Privilege.letters(everyone), owner));
        return items;
    }

    /** One aclitem: {@code grantee=letters/grantor}, names quoted as PostgreSQL quotes them. */
    private static String item(String grantee, String letters, String grantor) {
        return name(grantee) + "=" + letters + "/" + name(grantor);
    }

    /** A role name in an aclitem: double-quoted unless made only of letters, digits and underscores. */
    private static String name(String role) {
        if (role.isEmpty() || role.matches("[A-Za-z0-9_]+")) return role;
        return "\"" + role.replace("\"", "\"\"") + "\"";
    }

    /**
     * The privileges {@code role} holds on an object with {@code acl}, as PostgreSQL's
     * {@code has_table_privilege} answers: a superuser or the owner every one; others what
     * was granted to them or to PUBLIC.
     */
    public static Set<Privilege> held(String role, ObjectAcl acl, SecurityCatalog security) {
        return security.role(role).isPresent() || role.equals(RoleDef.PUBLIC)
                ? security.held(role, acl) : EnumSet.noneOf(Privilege.class);
    }
}
