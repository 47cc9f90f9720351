package io.stillwater.engine.auth;

import java.util.Optional;

/**
 * The roles that can connect, as the wire server's authentication sees them. Backed by
 * the durable role catalog; thread-safe (called from connection threads).
 */
public interface RoleDirectory {
    /** The role named {@code name} (case-sensitive, as PostgreSQL's startup user), if it exists. */
    Optional<LoginRole> find(String name);

    /**
     * For {@code trust} authentication: the role named {@code name}, created first as a
     * login role without a password or superuser if it does not exist yet (Materialize
     * creates a role on a user's first connection the same way).
     */
    LoginRole ensureForTrust(String name);
}
