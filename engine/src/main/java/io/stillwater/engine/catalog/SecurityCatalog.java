package io.stillwater.engine.catalog;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The role catalog and the objects' owners and grants, as an immutable value published
 * like {@link Catalog}: every change returns a new one.
 *
 * <p>{@code acls} is keyed by {@link #relationKey} (tables, views, materialized views and
 * indexes, by id: ids are never reused, so a stale entry of a dropped object never applies
 * to another) and {@link #clusterKey}. An object without an entry is {@link
 * ObjectAcl#UNOWNED}: sessions log the owner entry before the object's own record (see
 * {@code RoleSequencer}), so only objects from before roles existed, or created through
 * the coordinator's API directly, have none.
 *
 * <p>Invariant: {@code roles} always holds {@code mz_system} (a superuser login role, with
 * the password ALTER ROLE gave it, if any).
 */
public record SecurityCatalog(Map<String, RoleDef> roles, Map<String, ObjectAcl> acls, long nextRoleOid) {
    public SecurityCatalog {
        Map<String, RoleDef> r = new TreeMap<>(roles);
        r.putIfAbsent(RoleDef.MZ_SYSTEM.name(), RoleDef.MZ_SYSTEM); // a logged entry holds its password
        roles = Collections.unmodifiableMap(r);
        acls = Collections.unmodifiableMap(new TreeMap<>(acls));
    }

    public static SecurityCatalog empty() { return new SecurityCatalog(Map.of(), Map.of(), RoleDef.FIRST_ROLE_OID); }

    public static String relationKey(long id) { return "relation:" + id; }

    public static String clusterKey(String clusterId) { return "cluster:" + clusterId; }

    public Optional<RoleDef> role(String name) { return Optional.ofNullable(roles.get(name)); }

    public Collection<RoleDef> allRoles() { return roles.values(); }

    /** Whether {@code name} is a superuser role. */
    public boolean isSuperuser(String name) { return role(name).map(RoleDef::superuser).orElse(false); }

    /** The ACL of the relation with id {@code id} (see the class comment for objects without one). */
    public ObjectAcl relationAcl(long id) { return acls.getOrDefault(relationKey(id), ObjectAcl.UNOWNED); }

    /** The ACL of the cluster with id {@code clusterId}. */
    public ObjectAcl clusterAcl(String clusterId) { return acls.getOrDefault(clusterKey(clusterId), ObjectAcl.UNOWNED); }

    /** Whether an entry for {@code key} was recorded. */
    public boolean hasAcl(String key) { return acls.containsKey(key); }

    /**
     * Whether {@code role} holds {@code privilege} under {@code acl}: superusers and the
     * owner hold every privilege; others what was granted to them or to PUBLIC.
     */
    public boolean holds(String role, ObjectAcl acl, Privilege privilege) {
        if (isSuperuser(role) || acl.ownedBy(role)) return true;
        return acl.grantedTo(role).contains(privilege) || acl.grantedTo(RoleDef.PUBLIC).contains(privilege);
    }

    /** Every privilege {@code role} holds under {@code acl} (for has_table_privilege and the like). */
    public Set<Privilege> held(String role, ObjectAcl acl) {
        EnumSet<Privilege> out = EnumSet.noneOf(Privilege.class);
        for (Privilege p : Privilege.values()) if (holds(role, acl, p)) out.add(p);
        return out;
    }

    public SecurityCatalog withRole(RoleDef role) {
        Map<String, RoleDef> r = new TreeMap<>(roles);
        r.put(role.name(), role);
        return new SecurityCatalog(r, acls, Math.max(nextRoleOid, role.oid() + 1));
    }

    public SecurityCatalog withoutRole(String name) {
        Map<String, RoleDef> r = new TreeMap<>(roles);
        r.remove(name);
        return new SecurityCatalog(r, acls, nextRoleOid);
    }

    public SecurityCatalog withAcl(String key, ObjectAcl acl) {
        Map<String, ObjectAcl> a = new TreeMap<>(acls);
        a.put(key, acl);
        return new SecurityCatalog(roles, a, nextRoleOid);
    }

    public SecurityCatalog withoutAcl(String key) {
        Map<String, ObjectAcl> a = new TreeMap<>(acls);
        a.remove(key);
        return new SecurityCatalog(roles, a, nextRoleOid);
    }
}
