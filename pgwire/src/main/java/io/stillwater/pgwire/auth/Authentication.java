package io.stillwater.pgwire.auth;

import io.stillwater.engine.auth.LoginRole;
import io.stillwater.engine.auth.RoleDirectory;
import io.stillwater.engine.params.Roles;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The server's authentication settings: the {@link AuthMethod}, where roles are looked
 * up, the secret that mock SCRAM parameters of unknown roles are derived from, and how
 * long a connection may take to authenticate (PostgreSQL's
 * {@code authentication_timeout}: from accepting the socket until the session exists).
 *
 * <p>{@code mockSecret}: PostgreSQL answers a SCRAM exchange for a role that does not
 * exist (or has no password) with a salt derived from a server secret and the name, so
 * the salt is stable per name and an attacker cannot tell real roles from invented ones.
 * A server that persists the secret keeps mock salts stable across restarts too.
 *
 * <p>Immutable and thread-safe (the directory is thread-safe by contract).
 */
public record Authentication(AuthMethod method, RoleDirectory roles, byte[] mockSecret, Duration timeout) {
    /** PostgreSQL's default {@code authentication_timeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    public Authentication {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(roles, "roles");
        if (mockSecret.length < 16) throw new IllegalArgumentException("the mock secret needs at least 16 bytes");
        mockSecret = mockSecret.clone();
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("the timeout must be positive");
    }

    /** {@code method} over {@code roles}, with a fresh random mock secret and the default timeout. */
    public static Authentication of(AuthMethod method, RoleDirectory roles) {
        return new Authentication(method, roles, newSecret(), DEFAULT_TIMEOUT);
    }

    /**
     * Trust for every user name, each a login role without a password ({@code mz_system}
     * the superuser): what a server built without a role directory does, on loopback.
     */
    public static Authentication trustEveryone() {
        return of(AuthMethod.TRUST, new RoleDirectory() {
            @Override public Optional<LoginRole> find(String name) { return Optional.of(ensureForTrust(name)); }

            @Override public LoginRole ensureForTrust(String name) {
                return new LoginRole(name, true, Roles.isSuperuser(name), null);
            }
        });
    }

    public Authentication withTimeout(Duration t) { return new Authentication(method, roles, mockSecret, t); }

    public Authentication withMockSecret(byte[] secret) { return new Authentication(method, roles, secret, timeout); }

    @Override public byte[] mockSecret() { return mockSecret.clone(); }

    /** A new random secret of the size {@link #mockSecret} expects (for a server to persist). */
    public static byte[] newSecret() {
        byte[] s = new byte[SECRET_BYTES];
        RANDOM.nextBytes(s);
        return s;
    }

    /** Never the secret. */
    @Override public String toString() { return "Authentication[" + method + ", timeout " + timeout + "]"; }
}
