package io.stillwater.pgwire.auth;

import io.stillwater.engine.auth.ScramVerifier;
import io.stillwater.engine.error.SqlState;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802 section 5, RFC 7677), checked
 * as PostgreSQL's {@code auth-scram.c} checks it:
 *
 * <pre>
 * client-first  n,,n=,r=CNONCE                      (gs2 header "n,," or "y,,"; "p=" refused)
 * server-first  r=CNONCE SNONCE,s=SALT,i=ITERATIONS
 * client-final  c=biws,r=CNONCE SNONCE,p=PROOF      (c= is the gs2 header, base64)
 * server-final  v=SERVER-SIGNATURE
 * </pre>
 *
 * <p>The user name inside client-first is ignored, as PostgreSQL ignores it: the startup
 * packet's user is the one authenticated. A <em>doomed</em> exchange (unknown role, or a
 * role without a password) runs every step the same way over a mock verifier and fails
 * only at the proof, with the same 28P01 as a wrong password.
 *
 * <p>Channel binding (SCRAM-SHA-256-PLUS) is not offered, so a client that asks for it
 * ({@code p=}) is refused as PostgreSQL refuses it when it did not advertise PLUS.
 *
 * <p>Owned by one connection's worker thread; not thread-safe. Never logs or keeps a proof
 * beyond the check.
 */
final class ScramExchange {
    /** PostgreSQL's SCRAM_RAW_NONCE_LEN. */
    private static final int SERVER_NONCE_BYTES = 18;
    private static final SecureRandom RANDOM = new SecureRandom();

    private enum State { AWAITING_CLIENT_FIRST, AWAITING_CLIENT_FINAL, DONE }

    private final String user;
    private final ScramVerifier verifier;
    private final boolean doomed;
    private final String serverNonce;
    private State state = State.AWAITING_CLIENT_FIRST;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    /**
     * {@code verifier}: the role's, or a mock one when {@code doomed}; {@code serverNonce}:
     * printable, without commas (tests fix it to replay RFC 7677's vector).
     */
    ScramExchange(String user, ScramVerifier verifier, boolean doomed, String serverNonce) {
        this.user = user;
        this.verifier = verifier;
        this.doomed = doomed;
        this.serverNonce = serverNonce;
    }

    ScramExchange(String user, ScramVerifier verifier, boolean doomed) {
        this(user, verifier, doomed, newNonce());
    }

    private static String newNonce() {
        byte[] raw = new byte[SERVER_NONCE_BYTES];
        RANDOM.nextBytes(raw);
        return Base64.getEncoder().encodeToString(raw);
    }

    /** Reads client-first-message and answers server-first-message. */
    String serverFirst(String clientFirst) {
        expect(State.AWAITING_CLIENT_FIRST);
        state = State.DONE; // any failure below ends the exchange
        Reader r = new Reader(clientFirst);
        char flag = r.next();
        switch (flag) {
            case 'n', 'y' -> {} // no channel binding; "y": the client could, but thinks we cannot (we do not offer PLUS)
            case 'p' -> throw AuthFailure.malformedScram("The client selected SCRAM-SHA-256 without channel binding, "
                    + "but the SCRAM message includes channel binding data.");
            default -> throw AuthFailure.malformedScram("Unexpected channel-binding flag \"" + printable(flag) + "\".");
        }
        r.expect(',', "Comma expected, but found character \"%s\".");
        if (r.peek() == 'a') {
            throw new AuthFailure(SqlState.FEATURE_NOT_SUPPORTED,
                    "client uses authorization identity, but it is not supported", null);
        }
        r.expect(',', "Unexpected attribute \"%s\" in client-first-message.");
        gs2Header = clientFirst.substring(0, r.pos);
        clientFirstBare = clientFirst.substring(r.pos);
        if (r.peek() == 'm') {
            throw new AuthFailure(SqlState.FEATURE_NOT_SUPPORTED, "client requires an unsupported SCRAM extension", null);
        }
        r.attribute('n'); // the user name: ignored, the startup packet's user counts
        String clientNonce = r.attribute('r');
        if (clientNonce.isEmpty() || !clientNonce.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            throw AuthFailure.malformedScram("Could not parse the client nonce.");
        }
        // Optional extensions may follow; PostgreSQL ignores them too.
        nonce = clientNonce + serverNonce;
        serverFirst = "r=" + nonce + ",s=" + verifier.saltBase64() + ",i=" + verifier.iterations();
        state = State.AWAITING_CLIENT_FINAL;
        return serverFirst;
    }

    /**
     * Reads client-final-message and answers server-final-message; throws 28P01 when the
     * proof does not match (or the exchange is doomed), 08P01 when the message is malformed.
     */
    String serverFinal(String clientFinal) {
        expect(State.AWAITING_CLIENT_FINAL);
        state = State.DONE;
        Reader r = new Reader(clientFinal);
        String channelBinding = r.attribute('c');
        String expectedBinding = Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8));
        if (!channelBinding.equals(expectedBinding)) {
            throw new AuthFailure(SqlState.PROTOCOL_VIOLATION,
                    "unexpected SCRAM channel-binding attribute in client-final-message", null);
        }
        String finalNonce = r.attribute('r');
        if (!finalNonce.equals(nonce)) {
            throw new AuthFailure(SqlState.PROTOCOL_VIOLATION, "invalid SCRAM response", "Nonce does not match.");
        }
        int proofAt;
        while (true) { // skip extensions up to the proof, which is always last
            proofAt = r.pos;
            if (r.atEnd()) throw AuthFailure.malformedScram("Attribute expected, but found end of string.");
            if (r.peek() == 'p') break;
            r.anyAttribute();
        }
        String proofText = r.attribute('p');
        if (!r.atEnd()) throw AuthFailure.malformedScram("Garbage found at the end of client-final-message.");
        byte[] proof;
        try {
            proof = Base64.getDecoder().decode(proofText);
        } catch (IllegalArgumentException e) {
            throw AuthFailure.malformedScram("Malformed proof in client-final-message.");
        }
        if (proof.length != 32) throw AuthFailure.malformedScram("Malformed proof in client-final-message.");
        // client-final-message-without-proof ends before the comma that precedes "p=".
        String withoutProof = clientFinal.substring(0, proofAt - 1);
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        boolean proven = verifier.verifyClientProof(authMessage, proof);
        if (doomed || !proven) throw AuthFailure.passwordFailed(user);
        return "v=" + Base64.getEncoder().encodeToString(verifier.serverSignature(authMessage));
    }

    private void expect(State s) {
        if (state != s) throw new IllegalStateException("SCRAM exchange is not awaiting this message");
    }

    /** A character as PostgreSQL's sanitize_char quotes it in details: 'x', or 0x1f when not printable. */
    private static String printable(char c) {
        return c >= 0x21 && c < 0x7F ? "'" + c + "'" : String.format("0x%02x", (int) c);
    }

    /** A cursor over a SCRAM message: comma-separated {@code x=value} attributes. */
    private static final class Reader {
        private final String s;
        int pos;

        Reader(String s) { this.s = s; }

        boolean atEnd() { return pos >= s.length(); }

        char peek() { return atEnd() ? '\0' : s.charAt(pos); }

        char next() {
            if (atEnd()) throw AuthFailure.malformedScram("Attribute expected, but found end of string.");
            return s.charAt(pos++);
        }

        void expect(char c, String detailFormat) {
            char got = next();
            if (got != c) throw AuthFailure.malformedScram(String.format(detailFormat, printable(got)));
        }

        /** {@code name=value} followed by a comma or the end; returns value. */
        String attribute(char name) {
            char got = next();
            if (got != name) {
                throw AuthFailure.malformedScram("Expected attribute \"" + name + "\" but found \"" + printable(got) + "\".");
            }
            return value(name);
        }

        /** Any {@code x=value} attribute (an extension), skipped. */
        void anyAttribute() {
            char got = next();
            if (got < 'A' || (got > 'Z' && got < 'a') || got > 'z') {
                throw AuthFailure.malformedScram("Attribute expected, but found invalid character \"" + printable(got) + "\".");
            }
            value(got);
        }

        private String value(char name) {
            if (next() != '=') throw AuthFailure.malformedScram("Expected character \"=\" for attribute \"" + name + "\".");
            int end = s.indexOf(',', pos);
            if (end < 0) end = s.length();
            String v = s.substring(pos, end);
            pos = end < s.length() ? end + 1 : end;
            return v;
        }
    }
}
