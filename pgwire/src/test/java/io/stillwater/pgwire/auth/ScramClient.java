package io.stillwater.pgwire.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client side of SCRAM-SHA-256 as a driver computes it, written out from RFC 5802 so
 * the tests do not check the server with its own code.
 */
public final class ScramClient {
    final String clientNonce;
    final String clientFirstBare;
    private String serverFirst;
    private String expectedServerSignature;

    public ScramClient(String clientNonce) {
        this.clientNonce = clientNonce;
        this.clientFirstBare = "n=,r=" + clientNonce;
    }

    String clientFirst() { return "n,," + clientFirstBare; }

    /** SASLInitialResponse's body: mechanism, length, client-first-message. */
    public byte[] saslInitialResponse(String mechanism) {
        byte[] m = mechanism.getBytes(StandardCharsets.US_ASCII);
        byte[] data = clientFirst().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(m.length + 1 + 4 + data.length).put(m).put((byte) 0).putInt(data.length).put(data).array();
    }

    /** client-final-message for {@code password}, given server-first-message. */
    public String clientFinal(String serverFirstMessage, String password) throws Exception {
        serverFirst = serverFirstMessage;
        String nonce = attr(serverFirst, "r");
        byte[] salt = Base64.getDecoder().decode(attr(serverFirst, "s"));
        int iterations = Integer.parseInt(attr(serverFirst, "i"));
        byte[] salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256)).getEncoded();
        byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
        String withoutProof = "c=biws,r=" + nonce;
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] signature = hmac(storedKey, authMessage);
        byte[] proof = new byte[clientKey.length];
        for (int i = 0; i < proof.length; i++) proof[i] = (byte) (clientKey[i] ^ signature[i]);
        byte[] serverKey = hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII));
        expectedServerSignature = "v=" + Base64.getEncoder().encodeToString(hmac(serverKey, authMessage));
        return withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof);
    }

    /** What server-final-message must be for the server to have proven it knows the verifier. */
    public String expectedServerFinal() { return expectedServerSignature; }

    static String attr(String message, String name) {
        for (String part : message.split(",")) {
            if (part.startsWith(name + "=")) return part.substring(name.length() + 1);
        }
        throw new AssertionError("no " + name + "= in " + message);
    }

    private static byte[] hmac(byte[] key, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data);
    }
}
