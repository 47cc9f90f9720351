package io.stillwater.engine.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A role's stored SCRAM-SHA-256 secret (RFC 5802, RFC 7677), in PostgreSQL's text form
 * {@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>} (base64 fields), the
 * form {@code pg_authid.rolpassword} holds. The password itself is never stored: from
 * the verifier a server can check a client's proof and prove itself to the client, but
 * cannot log in as the role elsewhere without also seeing a client's proof.
 *
 * <p>Derivation: {@code SaltedPassword = PBKDF2-HMAC-SHA-256(password, salt, i)},
 * {@code StoredKey = SHA-256(HMAC(SaltedPassword, "Client Key"))},
 * {@code ServerKey = HMAC(SaltedPassword, "Server Key")}. The password is normalized
 * with Unicode NFKC (the normalization step of SASLprep, RFC 4013); ASCII passwords are
 * used as they are, as PostgreSQL and every driver do.
 *
 * <p>Immutable and thread-safe; the arrays are copied in and out.
 */
public record ScramVerifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    /** PostgreSQL's default {@code scram_iterations}. */
    public static final int DEFAULT_ITERATIONS = 4096;
    private static final int SALT_BYTES = 16;
    private static final Pattern TEXT_FORM =
            Pattern.compile("SCRAM-SHA-256\\$(\\d{1,9}):([A-Za-z0-9+/=]+)\\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)");
    private static final SecureRandom RANDOM = new SecureRandom();

    public ScramVerifier {
        if (iterations < 1) throw new IllegalArgumentException("iterations must be positive: " + iterations);
        salt = salt.clone();
        storedKey = storedKey.clone();
        serverKey = serverKey.clone();
        if (storedKey.length != 32 || serverKey.length != 32) {
            throw new IllegalArgumentException("SCRAM-SHA-256 keys are 32 bytes");
        }
    }

    /** A new verifier for {@code password} with a fresh random salt and the default iteration count. */
    public static ScramVerifier derive(String password) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return derive(password, salt, DEFAULT_ITERATIONS);
    }

    /** The verifier for {@code password} with the given salt and iteration count. */
    public static ScramVerifier derive(String password, byte[] salt, int iterations) {
        byte[] salted = saltedPassword(password, salt, iterations);
        byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] serverKey = hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII));
        return new ScramVerifier(iterations, salt, sha256(clientKey), serverKey);
    }

    /** Parses PostgreSQL's text form; empty if {@code text} is not a SCRAM-SHA-256 verifier. */
    public static Optional<ScramVerifier> parse(String text) {
        Matcher m = TEXT_FORM.matcher(text);
        if (!m.matches()) return Optional.empty();
        try {
            Base64.Decoder b64 = Base64.getDecoder();
            return Optional.of(new ScramVerifier(Integer.parseInt(m.group(1)), b64.decode(m.group(2)),
                    b64.decode(m.group(3)), b64.decode(m.group(4))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** True if {@code text} looks like a stored SCRAM verifier (so {@code PASSWORD '<verifier>'} stores it as is, as PostgreSQL does). */
    public static boolean isVerifierText(String text) { return parse(text).isPresent(); }

    /** PostgreSQL's text form. */
    public String text() {
        Base64.Encoder b64 = Base64.getEncoder();
        return "SCRAM-SHA-256$" + iterations + ":" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(storedKey) + ":" + b64.encodeToString(serverKey);
    }

    /** The salt, base64 (the {@code s=} attribute of server-first-message). */
    public String saltBase64() { return Base64.getEncoder().encodeToString(salt); }

    /**
     * Checks a client's proof: {@code ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage)}
     * must hash to {@code StoredKey}. Compares in constant time.
     */
    public boolean verifyClientProof(byte[] authMessage, byte[] clientProof) {
        byte[] signature = hmac(storedKey, authMessage);
        if (clientProof.length != signature.length) return false;
        byte[] clientKey = new byte[signature.length];
        for (int i = 0; i < signature.length; i++) clientKey[i] = (byte) (clientProof[i] ^ signature[i]);
        return MessageDigest.isEqual(sha256(clientKey), storedKey);
    }

    /** {@code ServerSignature = HMAC(ServerKey, AuthMessage)}: the {@code v=} attribute of server-final-message. */
    public byte[] serverSignature(byte[] authMessage) { return hmac(serverKey, authMessage); }

    @Override public byte[] salt() { return salt.clone(); }
    @Override public byte[] storedKey() { return storedKey.clone(); }
    @Override public byte[] serverKey() { return serverKey.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramVerifier v && v.iterations == iterations && MessageDigest.isEqual(v.salt, salt)
                && MessageDigest.isEqual(v.storedKey, storedKey) && MessageDigest.isEqual(v.serverKey, serverKey);
    }

    @Override public int hashCode() { return text().hashCode(); }

    /** Never the keys: a verifier must not end up in a log line. */
    @Override public String toString() { return "ScramVerifier[SCRAM-SHA-256, " + iterations + " iterations]"; }

    private static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        String normalized = Normalizer.normalize(password, Normalizer.Form.NFKC);
        try {
            SecretKeyFactory pbkdf2 = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
            return pbkdf2.generateSecret(new PBEKeySpec(normalized.toCharArray(), salt, iterations, 256)).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK lacks PBKDF2WithHmacSHA256", e);
        }
    }

    static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK lacks HmacSHA256", e);
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK lacks SHA-256", e);
        }
    }
}
