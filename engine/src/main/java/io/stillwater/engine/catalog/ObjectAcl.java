package io.stillwater.engine.catalog;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who owns one object and what others were granted on it: {@code grants} maps a grantee
 * role (or {@link RoleDef#PUBLIC}) to its privileges; a grantee with none is absent.
 * The owner holds every privilege implicitly (its entry is not stored). Immutable.
 */
public record ObjectAcl(String owner, Map<String, Set<Privilege>> grants) {
    public ObjectAcl {
        Objects.requireNonNull(owner, "owner");
        Map<String, Set<Privilege>> copy = new TreeMap<>();
        grants.forEach((role, ps) -> {
            if (!ps.isEmpty()) copy.put(role, Collections.unmodifiableSet(EnumSet.copyOf(ps)));
        });
        grants = Collections.unmodifiableMap(copy);
    }

    /** An object only its owner may use. */
    public static ObjectAcl ownedBy(String owner) { return new ObjectAcl(owner, Map.of()); }

    /** What {@code grantee} was granted directly (not through PUBLIC). */
    public Set<Privilege> grantedTo(String grantee) { return grants.getOrDefault(grantee, Set.of()); }

    public ObjectAcl withOwner(String newOwner) { return new ObjectAcl(newOwner, grants); }

    /** This ACL with {@code privileges} added to (or, {@code grant} false, removed from) {@code grantee}'s. */
    public ObjectAcl with(String grantee, Set<Privilege> privileges, boolean grant) {
        Map<String, Set<Privilege>> next = new LinkedHashMap<>(grants);
        EnumSet<Privilege> now = EnumSet.noneOf(Privilege.class);
        now.addAll(grantedTo(grantee));
        if (grant) now.addAll(privileges);
        else now.removeAll(privileges);
        next.put(grantee, now);
        return new ObjectAcl(owner, next);
    }

    /** This ACL without anything granted to {@code grantee}. */
    public ObjectAcl without(String grantee) {
        Map<String, Set<Privilege>> next = new LinkedHashMap<>(grants);
        next.remove(grantee);
        return new ObjectAcl(owner, next);
    }
}
