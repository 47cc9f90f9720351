package io.stillwater.pgwire.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the server's certificate chain and private key from PEM files, the format
 * PostgreSQL's {@code ssl_cert_file}/{@code ssl_key_file} and {@code openssl} use.
 *
 * <p>Keys accepted: unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519)
 * and PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}, what older {@code openssl genrsa}
 * writes). Refused with the conversion command in the message: SEC1 EC keys ({@code
 * BEGIN EC PRIVATE KEY}) and encrypted keys (the server has nobody to ask for a
 * passphrase). Text around the PEM blocks (openssl's "Bag Attributes") is ignored.
 */
public final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    /** The DER of {@code AlgorithmIdentifier { rsaEncryption, NULL }}, for wrapping a PKCS#1 key in PKCS#8. */
    private static final byte[] RSA_ALGORITHM = {
            0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    private static final String TO_PKCS8 = "openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8";

    private PemFiles() {}

    /** One PEM block: its label ({@code CERTIFICATE}, {@code PRIVATE KEY}, ...) and decoded bytes. */
    record Block(String label, byte[] der) {}

    /** The certificates of {@code file}, the server's own first (then its intermediates). */
    public static List<X509Certificate> certificateChain(Path file) {
        List<X509Certificate> chain = new ArrayList<>();
        try {
            CertificateFactory x509 = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(file, "certificate")) {
                if (!b.label().equals("CERTIFICATE")) continue;
                chain.add((X509Certificate) x509.generateCertificate(new ByteArrayInputStream(b.der())));
            }
        } catch (CertificateException e) {
            throw new TlsConfigException("could not load server certificate file \"" + file + "\": " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new TlsConfigException("could not load server certificate file \"" + file
                    + "\": no PEM block \"-----BEGIN CERTIFICATE-----\" in it");
        }
        return chain;
    }

    /**
     * The private key of {@code file}; {@code algorithm} is the key algorithm of the
     * certificate it belongs to ({@code RSA}, {@code EC}, {@code Ed25519}, ...).
     */
    public static PrivateKey privateKey(Path file, String algorithm) {
        List<Block> keys = blocks(file, "private key").stream().filter(b -> b.label().endsWith("PRIVATE KEY")).toList();
        if (keys.size() != 1) {
            throw new TlsConfigException("could not load private key file \"" + file + "\": expected one PEM block "
                    + "\"-----BEGIN PRIVATE KEY-----\", found " + keys.size() + " private keys");
        }
        Block key = keys.getFirst();
        byte[] pkcs8 = switch (key.label()) {
            case "PRIVATE KEY" -> key.der();
            case "RSA PRIVATE KEY" -> wrapPkcs1(key.der());
            case "ENCRYPTED PRIVATE KEY" -> throw new TlsConfigException("could not load private key file \"" + file
                    + "\": the key is encrypted with a passphrase, which the server cannot ask for; decrypt it with: "
                    + TO_PKCS8.replace("KEY", file.toString()));
            default -> throw new TlsConfigException("could not load private key file \"" + file + "\": a \""
                    + key.label() + "\" PEM block is not supported; convert it to PKCS#8 with: "
                    + TO_PKCS8.replace("KEY", file.toString()));
        };
        try {
            String family = algorithm.equals("EdDSA") ? "Ed25519" : algorithm;
            return KeyFactory.getInstance(family).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new TlsConfigException("could not load private key file \"" + file + "\": it is not an unencrypted "
                    + algorithm + " private key (the certificate's key is " + algorithm + "): " + e.getMessage(), e);
        }
    }

    /** The PEM blocks of {@code file}; {@code what} names its role in errors. */
    static List<Block> blocks(Path file, String what) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new TlsConfigException("could not load " + what + " file \"" + file + "\": no such file", e);
        } catch (IOException e) {
            throw new TlsConfigException("could not load " + what + " file \"" + file + "\": " + e, e);
        }
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new TlsConfigException("could not load " + what + " file \"" + file + "\": bad base64 in its "
                        + m.group(1) + " block", e);
            }
        }
        if (out.isEmpty()) {
            throw new TlsConfigException("could not load " + what + " file \"" + file + "\": it is not a PEM file "
                    + "(no \"-----BEGIN ...-----\" block)");
        }
        return out;
    }

    /**
     * {@code PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING pkcs1 }}: the PKCS#8
     * form of a PKCS#1 RSA key, which the JDK's KeyFactory reads.
     */
    static byte[] wrapPkcs1(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00}); // INTEGER 0
        body.writeBytes(RSA_ALGORITHM);
        body.write(0x04); // OCTET STRING
        body.writeBytes(derLength(pkcs1.length));
        body.writeBytes(pkcs1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30); // SEQUENCE
        out.writeBytes(derLength(body.size()));
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static byte[] derLength(int n) {
        if (n < 0x80) return new byte[] {(byte) n};
        if (n < 0x100) return new byte[] {(byte) 0x81, (byte) n};
        if (n < 0x10000) return new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
        return new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    }
}
