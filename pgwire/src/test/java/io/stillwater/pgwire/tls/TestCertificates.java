package io.stillwater.pgwire.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority and a server certificate it signed for {@code
 * localhost} and {@code 127.0.0.1} (what {@code sslmode=verify-full} checks), written as
 * PEM files into a directory, plus a second CA that signed nothing (a client trusting only
 * it must refuse the server). Valid from an hour ago for a day.
 *
 * @param dir            where the files are
 * @param caCertificate  {@code ca.pem}: the CA clients trust ({@code sslrootcert})
 * @param otherCa        {@code other-ca.pem}: a CA that did not sign the server's certificate
 * @param serverCertificate {@code server.crt}: the server's certificate (RSA 2048)
 * @param serverKey      {@code server.key}: its key, PKCS#8 PEM ({@code BEGIN PRIVATE KEY})
 * @param serverKeyPkcs1 {@code server-rsa.key}: the same key as PKCS#1 ({@code BEGIN RSA PRIVATE KEY})
 * @param strangerKey    {@code stranger.key}: an RSA key that belongs to no certificate here
 * @param ecCertificate  {@code ec-server.crt}: a second server certificate, with an EC P-256 key
 * @param ecKey          {@code ec-server.key}: its key, PKCS#8 PEM
 * @param ecKeySec1      {@code ec-server-sec1.key}: the same key as SEC1 ({@code BEGIN EC PRIVATE KEY})
 */
public record TestCertificates(Path dir, Path caCertificate, Path otherCa, Path serverCertificate, Path serverKey,
                               Path serverKeyPkcs1, Path strangerKey, Path ecCertificate, Path ecKey, Path ecKeySec1,
                               X509Certificate ca) {

    /** Generates everything into {@code dir} (which must exist). */
    public static TestCertificates create(Path dir) {
        try {
            KeyPair caKeys = ec();
            X500Name caName = new X500Name("CN=Stillwater Test CA");
            X509Certificate ca = sign(caName, caKeys, caName, caKeys.getPublic(), true);
            KeyPair otherKeys = ec();
            X500Name otherName = new X500Name("CN=Some Other CA");
            X509Certificate other = sign(otherName, otherKeys, otherName, otherKeys.getPublic(), true);
            KeyPair serverKeys = rsa();
            X509Certificate server = sign(caName, caKeys, new X500Name("CN=localhost"), serverKeys.getPublic(), false);
            KeyPair ecServerKeys = ec();
            X509Certificate ecServer = sign(caName, caKeys, new X500Name("CN=localhost"), ecServerKeys.getPublic(), false);
            TestCertificates c = new TestCertificates(dir, dir.resolve("ca.pem"), dir.resolve("other-ca.pem"),
                    dir.resolve("server.crt"), dir.resolve("server.key"), dir.resolve("server-rsa.key"),
                    dir.resolve("stranger.key"), dir.resolve("ec-server.crt"), dir.resolve("ec-server.key"),
                    dir.resolve("ec-server-sec1.key"), ca);
            write(c.caCertificate, pem("CERTIFICATE", ca.getEncoded()));
            write(c.otherCa, pem("CERTIFICATE", other.getEncoded()));
            write(c.serverCertificate, pem("CERTIFICATE", server.getEncoded()));
            write(c.serverKey, pem("PRIVATE KEY", serverKeys.getPrivate().getEncoded()));
            write(c.serverKeyPkcs1, traditional(serverKeys.getPrivate()));
            write(c.strangerKey, pem("PRIVATE KEY", rsa().getPrivate().getEncoded()));
            write(c.ecCertificate, pem("CERTIFICATE", ecServer.getEncoded()));
            write(c.ecKey, pem("PRIVATE KEY", ecServerKeys.getPrivate().getEncoded()));
            write(c.ecKeySec1, traditional(ecServerKeys.getPrivate()));
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("could not generate test certificates", e);
        }
    }

    /** An SSLContext for a Java client that trusts only {@code caPem}'s CA. */
    public static SSLContext clientTrusting(X509Certificate ca) throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    private static X509Certificate sign(X500Name issuer, KeyPair issuerKeys, X500Name subject,
                                        java.security.PublicKey subjectKey, boolean isCa) throws Exception {
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, subjectKey);
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(subjectKey));
        b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuerKeys.getPublic()));
        if (isCa) {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
        }
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
    }

    private static KeyPair ec() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    /** OpenSSL's traditional form: PKCS#1 for RSA, SEC1 for EC. */
    private static String traditional(PrivateKey key) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(key);
        }
        return out.toString();
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.US_ASCII);
    }
}
