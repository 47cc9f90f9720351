package io.stillwater.pgwire.auth;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the server authenticates connections, named as PostgreSQL's {@code pg_hba.conf}
 * methods are.
 */
public enum AuthMethod {
    /** Everyone is who they say they are; only allowed when listening on loopback. */
    TRUST("trust"),
    /** The SASL exchange SCRAM-SHA-256 (RFC 5802/7677): the password never crosses the wire. */
    SCRAM_SHA_256("scram-sha-256"),
    /** The password in clear text (AuthenticationCleartextPassword); only accepted over TLS. */
    PASSWORD("password");

    private final String hbaName;

    AuthMethod(String hbaName) { this.hbaName = hbaName; }

    /** The method's name in pg_hba.conf and in {@code serve --auth}. */
    public String hbaName() { return hbaName; }

    /** Whether the method asks for a password (every method but trust). */
    public boolean checksPassword() { return this != TRUST; }

    /** The method named {@code name} (as in pg_hba.conf); IllegalArgumentException naming the choices otherwise. */
    public static AuthMethod fromHbaName(String name) {
        for (AuthMethod m : values()) {
            if (m.hbaName.equals(name)) return m;
        }
        throw new IllegalArgumentException("unknown authentication method \"" + name + "\"; expected one of "
                + Arrays.stream(values()).map(AuthMethod::hbaName).collect(Collectors.joining(", ")));
    }

    @Override public String toString() { return hbaName; }
}
