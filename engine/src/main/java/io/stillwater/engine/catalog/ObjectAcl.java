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
 *
 * <p>{@link #UNOWNED} (owner {@code ""}, never a role name) is the ACL of an object no
 * owner was recorded for: one created before roles existed, or by the coordinator's own
 * API rather than a session. As before roles existed, every role may use, alter and drop
 * it, until {@code ALTER ... OWNER TO} gives it an owner.
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

    public static final ObjectAcl UNOWNED = new ObjectAcl("", Map.of());

    /** Whether this is {@link #UNOWNED}'s kind of ACL: every role acts as the owner. */
    public boolean unowned() { return owner.isEmpty(); }

    /** Whether {@code role} owns the object (every role owns an unowned one). */
    public boolean ownedBy(String role) { return unowned() || owner.equals(role); }

    /** An object only its owner may use. */
    public static ObjectAcl owner(String owner) { return new ObjectAcl(owner, Map.of()); }

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
