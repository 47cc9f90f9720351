package io.stillwater.engine.catalog;

import java.util.Objects;

/**
 * A role of the role catalog (PostgreSQL's {@code pg_authid} row): its name, its oid and
 * attributes, and its password as a SCRAM-SHA-256 verifier in PostgreSQL's text form
 * ({@code SCRAM-SHA-256$iter:salt$StoredKey:ServerKey}), or null when it has none. The
 * password itself is never stored. Names are case-sensitive, as the startup user is.
 */
public record RoleDef(String name, long oid, boolean login, boolean superuser, boolean createRole, boolean inherit,
                      String verifier) {
    /** The oid of the bootstrap superuser, as in PostgreSQL. */
    public static final long BOOTSTRAP_OID = 10;
    /** The first oid given to a created role. */
    public static final long FIRST_ROLE_OID = 16_384;
    /** The pseudo-role every role is a member of; GRANT ... TO PUBLIC names it. */
    public static final String PUBLIC = "public";
    /** The built-in superuser (Materialize's name); always present, never stored in the log. */
    public static final RoleDef MZ_SYSTEM = new RoleDef("mz_system", BOOTSTRAP_OID, true, true, true, true, null);

    public RoleDef {
        Objects.requireNonNull(name, "name");
    }

    /** This role with {@code verifier} as its password (null: none). */
    public RoleDef withVerifier(String verifier) {
        return new RoleDef(name, oid, login, superuser, createRole, inherit, verifier);
    }

    @Override
    public String toString() {
        // The verifier is no password, but it stays out of logs all the same.
        return "RoleDef[" + name + " oid=" + oid + " login=" + login + " superuser=" + superuser
                + " createRole=" + createRole + " inherit=" + inherit + " password=" + (verifier != null) + "]";
    }
}
