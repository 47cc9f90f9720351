package io.stillwater.pgwire.auth;

import io.stillwater.engine.auth.LoginRole;
import io.stillwater.engine.auth.ScramVerifier;
import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.protocol.BackendMessage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's authentication, from the StartupMessage to AuthenticationOk, under the
 * server's {@link Authentication}:
 *
 * <ul>
 *   <li>{@code trust}: the role is found or created ({@link io.stillwater.engine.auth.RoleDirectory#ensureForTrust}), no exchange.
 *   <li>{@code scram-sha-256}: AuthenticationSASL offering SCRAM-SHA-256, then a {@link ScramExchange}.
 *   <li>{@code password}: AuthenticationCleartextPassword, only on a TLS connection (else 28000 at once).
 * </ul>
 *
 * <p>Nothing tells a client whether the role exists: an unknown role and a role without a
 * password run the same exchange over a mock verifier whose salt is derived from the
 * server's secret and the name (stable per name, as PostgreSQL's), and end with the same
 * 28P01 as a wrong password. The server log says which it was; it never gets a password
 * or proof. Failures are thrown as {@link AuthFailure}.
 *
 * <p>Owned by one connection's worker thread; not thread-safe.
 */
public final class LoginExchange {
    private static final Logger LOG = LoggerFactory.getLogger(LoginExchange.class);
    static final String SCRAM_SHA_256 = "SCRAM-SHA-256";

    private enum State { NEW, AWAITING_SASL_INITIAL, AWAITING_SASL_FINAL, AWAITING_PASSWORD, DONE }

    private final Authentication auth;
    private final String user;
    private final boolean tls;
    private State state = State.NEW;
    /** The role, or empty for an unknown one; looked up once, when the exchange starts. */
    private Optional<LoginRole> role = Optional.empty();
    private ScramExchange scram;

    /** {@code tls}: whether the connection is encrypted (a Netty SslHandler sits in its pipeline). */
    public LoginExchange(Authentication auth, String user, boolean tls) {
        this.auth = auth;
        this.user = user;
        this.tls = tls;
    }

    /** The first step, right after the StartupMessage. */
    public AuthStep start() {
        if (state != State.NEW) throw new IllegalStateException("authentication already started");
        switch (auth.method()) {
            case TRUST -> {
                state = State.DONE;
                return new AuthStep.Authenticated(auth.roles().ensureForTrust(user), Optional.empty());
            }
            case SCRAM_SHA_256 -> {
                role = auth.roles().find(user);
                state = State.AWAITING_SASL_INITIAL;
                return new AuthStep.Challenge(new BackendMessage.AuthenticationSasl(List.of(SCRAM_SHA_256)));
            }
            case PASSWORD -> {
                if (!tls) {
                    state = State.DONE;
                    throw new AuthFailure(SqlState.INVALID_AUTHORIZATION_SPECIFICATION,
                            "password authentication requires an encrypted connection",
                            "The server accepts clear-text passwords (--auth password) over TLS only. Connect with "
                                    + "sslmode=require or stricter.");
                }
                role = auth.roles().find(user);
                state = State.AWAITING_PASSWORD;
                return new AuthStep.Challenge(new BackendMessage.AuthenticationCleartextPassword());
            }
        }
        throw new AssertionError(auth.method());
    }

    /** The client's next password message ('p'): its body as sent. */
    public AuthStep respond(byte[] payload) {
        State now = state;
        state = State.DONE; // a failure ends the exchange; success paths set the next state
        return switch (now) {
            case AWAITING_SASL_INITIAL -> saslInitial(payload);
            case AWAITING_SASL_FINAL -> saslFinal(payload);
            case AWAITING_PASSWORD -> cleartext(payload);
            case NEW, DONE -> throw new AuthFailure(SqlState.PROTOCOL_VIOLATION,
                    "unexpected password message: no authentication was requested", null);
        };
    }

    /** Whether the exchange waits for a password message. */
    public boolean awaitingResponse() {
        return state == State.AWAITING_SASL_INITIAL || state == State.AWAITING_SASL_FINAL
                || state == State.AWAITING_PASSWORD;
    }

    // ---- SCRAM-SHA-256 ----

    /** SASLInitialResponse: mechanism (C string), int32 length of the data (-1: none), the data. */
    private AuthStep saslInitial(byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        String mechanism = cstring(b, "invalid SASLInitialResponse message");
        if (b.remaining() < 4) throw protocolViolation("invalid SASLInitialResponse message");
        int length = b.getInt();
        if (length < 0 || length != b.remaining()) throw protocolViolation("invalid SASLInitialResponse message");
        if (!mechanism.equals(SCRAM_SHA_256)) {
            throw protocolViolation("client selected an invalid SASL authentication mechanism");
        }
        String clientFirst = new String(payload, b.position(), length, StandardCharsets.UTF_8);
        Optional<ScramVerifier> verifier = role.flatMap(LoginRole::password);
        scram = new ScramExchange(user, verifier.orElseGet(this::mockVerifier), verifier.isEmpty());
        String serverFirst = scram.serverFirst(clientFirst);
        state = State.AWAITING_SASL_FINAL;
        return new AuthStep.Challenge(new BackendMessage.AuthenticationSaslContinue(serverFirst.getBytes(StandardCharsets.UTF_8)));
    }

    private AuthStep saslFinal(byte[] payload) {
        String serverFinal;
        try {
            serverFinal = scram.serverFinal(new String(payload, StandardCharsets.UTF_8));
        } catch (AuthFailure f) {
            if (f.state() == SqlState.INVALID_PASSWORD) logFailure();
            throw f;
        }
        return new AuthStep.Authenticated(role.orElseThrow(),
                Optional.of(new BackendMessage.AuthenticationSaslFinal(serverFinal.getBytes(StandardCharsets.UTF_8))));
    }

    // ---- clear-text password (over TLS) ----

    private AuthStep cleartext(byte[] payload) {
        ByteBuffer b = ByteBuffer.wrap(payload);
        String password = cstring(b, "invalid password packet size");
        if (b.hasRemaining()) throw protocolViolation("invalid password packet size");
        Optional<ScramVerifier> stored = role.flatMap(LoginRole::password);
        // Derive even for an unknown role, so the answer takes as long either way.
        ScramVerifier against = stored.orElseGet(this::mockVerifier);
        boolean matches = !password.isEmpty()
                && ScramVerifier.derive(password, against.salt(), against.iterations()).equals(against);
        if (stored.isEmpty() || !matches) {
            logFailure();
            throw AuthFailure.passwordFailed(user);
        }
        return new AuthStep.Authenticated(role.orElseThrow(), Optional.empty());
    }

    // ---- helpers ----

    /**
     * A verifier for a role that has none: salt = first 16 bytes of SHA-256(secret, name),
     * so it is the same on every attempt for that name; keys derived the same way (no
     * password matches them, and the exchange is doomed anyway).
     */
    private ScramVerifier mockVerifier() {
        byte[] secret = auth.mockSecret();
        byte[] name = user.getBytes(StandardCharsets.UTF_8);
        byte[] salt = Arrays.copyOf(sha256(secret, name, "salt"), 16);
        return new ScramVerifier(ScramVerifier.DEFAULT_ITERATIONS, salt, sha256(secret, name, "stored key"),
                sha256(secret, name, "server key"));
    }

    private static byte[] sha256(byte[] secret, byte[] name, String purpose) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(secret);
            d.update(purpose.getBytes(StandardCharsets.US_ASCII));
            d.update((byte) 0);
            d.update(name);
            return d.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK lacks SHA-256", e);
        }
    }

    private void logFailure() {
        String why = role.isEmpty() ? "the role does not exist"
                : role.get().password().isEmpty() ? "the role has no password" : "the password does not match";
        LOG.info("password authentication failed for user \"{}\" ({}): {}", user, auth.method(), why);
    }

    private static String cstring(ByteBuffer b, String error) {
        int start = b.position();
        for (int i = start; i < b.limit(); i++) {
            if (b.get(i) == 0) {
                String s = new String(b.array(), start, i - start, StandardCharsets.UTF_8);
                b.position(i + 1);
                return s;
            }
        }
        throw protocolViolation(error);
    }

    private static AuthFailure protocolViolation(String message) {
        return new AuthFailure(SqlState.PROTOCOL_VIOLATION, message, null);
    }
}
