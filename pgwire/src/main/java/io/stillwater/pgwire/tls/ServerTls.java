package io.stillwater.pgwire.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Date;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * The server's TLS set-up, loaded once at startup: a certificate chain and the private
 * key that belongs to it, the {@link TlsMode}, and a Netty {@link SslContext} speaking
 * TLS 1.2 and 1.3 only (with Netty's default list of strong cipher suites). Immutable and
 * shared by every connection; each connection that sends an SSLRequest gets its own
 * {@link SslHandler} from {@link #newHandler}.
 *
 * <p>Everything that can be wrong with the files is found here, not at a client's first
 * handshake: a missing or unreadable file, no certificate, a key that is not PEM or
 * does not belong to the certificate all throw {@link TlsConfigException}.
 */
public final class ServerTls {
    /** The protocol versions offered; TLS 1.0/1.1 are refused, as by PostgreSQL's default ssl_min_protocol_version. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /**
     * How long a client has for its handshake after the server answered {@code S} (the
     * connection's startup timeout covers the whole startup as well).
     */
    public static final long HANDSHAKE_TIMEOUT_MILLIS = 10_000;

    private final TlsMode mode;
    private final List<X509Certificate> chain;
    private final SslContext context;

    private ServerTls(TlsMode mode, List<X509Certificate> chain, SslContext context) {
        this.mode = mode;
        this.chain = chain;
        this.context = context;
    }

    /**
     * Loads {@code certificateFile} (PEM: the server's certificate, then any
     * intermediates) and {@code keyFile} (PEM, see {@link PemFiles}) for {@code mode}
     * ({@link TlsMode#ALLOW} or {@link TlsMode#REQUIRE}).
     *
     * @throws TlsConfigException when the files cannot be used; the message names the file
     */
    public static ServerTls load(Path certificateFile, Path keyFile, TlsMode mode) {
        if (mode == TlsMode.DISABLE) throw new IllegalArgumentException("a disabled TLS mode loads no certificate");
        List<X509Certificate> chain = PemFiles.certificateChain(certificateFile);
        X509Certificate own = chain.getFirst();
        PrivateKey key = PemFiles.privateKey(keyFile, own.getPublicKey().getAlgorithm());
        checkKeyMatches(own, key, certificateFile, keyFile);
        try {
            SslContext context = SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new))
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .clientAuth(ClientAuth.NONE)
                    .build();
            return new ServerTls(mode, List.copyOf(chain), context);
        } catch (SSLException | IllegalArgumentException e) {
            throw new TlsConfigException("could not set up TLS with certificate \"" + certificateFile + "\" and key \""
                    + keyFile + "\": " + e.getMessage(), e);
        }
    }

    /**
     * Signs a random challenge with {@code key} and verifies it with the certificate's
     * public key: the one check that works for every key type (RSA, EC, EdDSA).
     */
    private static void checkKeyMatches(X509Certificate cert, PrivateKey key, Path certificateFile, Path keyFile) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519" -> "Ed25519";
            case "Ed448" -> "Ed448";
            default -> throw new TlsConfigException("private key file \"" + keyFile + "\" holds a "
                    + key.getAlgorithm() + " key; the server supports RSA, EC and Ed25519 keys");
        };
        byte[] challenge = new byte[32];
        new SecureRandom().nextBytes(challenge);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(cert.getPublicKey());
            verifier.update(challenge);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new TlsConfigException("private key file \"" + keyFile + "\" does not match server certificate file \""
                    + certificateFile + "\" (" + cert.getSubjectX500Principal().getName() + ")");
        }
    }

    public TlsMode mode() { return mode; }

    /** Whether a StartupMessage without TLS is refused (28000). */
    public boolean required() { return mode == TlsMode.REQUIRE; }

    /** The server's own certificate (the first of the chain). */
    public X509Certificate certificate() { return chain.getFirst(); }

    /** Whether the certificate is outside its validity period at {@code now} (clients will refuse it). */
    public boolean expiredOrNotYetValid(Date now) {
        return now.before(certificate().getNotBefore()) || now.after(certificate().getNotAfter());
    }

    /**
     * A handler for one connection whose SSLRequest is being answered: the first write
     * through it (the {@code S}) goes out in plaintext, everything after is encrypted.
     */
    public SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler handler = new SslHandler(context.newEngine(alloc), true);
        handler.setHandshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MILLIS);
        return handler;
    }

    /**
     * Whether {@code channel} runs over TLS: its SslHandler finished the handshake. What
     * decides whether a connection may send a cleartext password or pass
     * {@link TlsMode#REQUIRE}. Any thread.
     */
    public static boolean encrypted(io.netty.channel.Channel channel) {
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        return ssl != null && ssl.handshakeFuture().isSuccess();
    }

    /** One line for the server log: subject, validity and mode. */
    public String describe() {
        X509Certificate c = certificate();
        return "TLS " + String.join("/", PROTOCOLS) + " with certificate " + c.getSubjectX500Principal().getName()
                + " (issuer " + c.getIssuerX500Principal().getName() + ", valid until "
                + c.getNotAfter().toInstant() + "), mode " + mode.name().toLowerCase(java.util.Locale.ROOT);
    }
}
