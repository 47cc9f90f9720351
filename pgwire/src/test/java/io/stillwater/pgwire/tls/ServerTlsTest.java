package io.stillwater.pgwire.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading the server's certificate and key: what works, and the message of each refusal. */
class ServerTlsTest {
    @TempDir
    static Path dir;
    static TestCertificates certs;

    @BeforeAll
    static void generate() { certs = TestCertificates.create(dir); }

    @Test
    void pkcs8RsaKeyLoadsWithItsCertificate() {
        ServerTls tls = ServerTls.load(certs.serverCertificate(), certs.serverKey(), TlsMode.REQUIRE);
        assertThat(tls.required()).isTrue();
        assertThat(tls.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
        assertThat(tls.expiredOrNotYetValid(new Date())).isFalse();
        assertThat(tls.describe()).contains("TLSv1.3/TLSv1.2", "CN=localhost", "mode require");
    }

    @Test
    void pkcs1RsaKeyAndPkcs8EcKeyLoadToo() {
        assertThat(ServerTls.load(certs.serverCertificate(), certs.serverKeyPkcs1(), TlsMode.ALLOW).required()).isFalse();
        assertThat(ServerTls.load(certs.ecCertificate(), certs.ecKey(), TlsMode.ALLOW).certificate().getPublicKey()
                .getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void sec1EcKeyIsRefusedWithTheConversionCommand() {
        assertThatThrownBy(() -> ServerTls.load(certs.ecCertificate(), certs.ecKeySec1(), TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("\"EC PRIVATE KEY\" PEM block is not supported")
                .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt -in " + certs.ecKeySec1());
    }

    @Test
    void keyOfAnotherCertificateIsRefused() {
        assertThatThrownBy(() -> ServerTls.load(certs.serverCertificate(), certs.strangerKey(), TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("private key file \"" + certs.strangerKey() + "\" does not match server certificate file \""
                        + certs.serverCertificate() + "\" (CN=localhost)");
        // An EC key for an RSA certificate cannot even be read as the certificate's kind of key.
        assertThatThrownBy(() -> ServerTls.load(certs.serverCertificate(), certs.ecKey(), TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("it is not an unencrypted RSA private key");
    }

    @Test
    void missingOrNonPemFilesAreRefusedNamingTheFile() throws IOException {
        Path missing = dir.resolve("nope.key");
        assertThatThrownBy(() -> ServerTls.load(certs.serverCertificate(), missing, TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessage("could not load private key file \"" + missing + "\": no such file");
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a certificate");
        assertThatThrownBy(() -> ServerTls.load(text, certs.serverKey(), TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("could not load certificate file \"" + text + "\": it is not a PEM file");
        // The files swapped: the key file has no certificate, the certificate file no key.
        assertThatThrownBy(() -> ServerTls.load(certs.serverKey(), certs.serverCertificate(), TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("no PEM block \"-----BEGIN CERTIFICATE-----\"");
        assertThatThrownBy(() -> ServerTls.load(certs.serverCertificate(), certs.serverCertificate(), TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("found 0 private keys");
    }

    @Test
    void encryptedKeyIsRefused() throws IOException {
        Path encrypted = Files.writeString(dir.resolve("enc.key"),
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertThatThrownBy(() -> ServerTls.load(certs.serverCertificate(), encrypted, TlsMode.REQUIRE))
                .isInstanceOf(TlsConfigException.class)
                .hasMessageContaining("encrypted with a passphrase");
    }
}
