package io.stillwater.cli;

import io.stillwater.pgwire.tls.ServerTls;
import io.stillwater.pgwire.tls.TlsMode;
import java.nio.file.Path;
import java.util.Date;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code serve --tls-cert/--tls-key/--tls-mode} (docs/security.md "TLS"). With a
 * certificate the mode defaults to {@code require}: whoever set up a certificate wants
 * passwords and data encrypted, and a client that silently fell back to plaintext would
 * defeat it (libpq's and pgjdbc's default {@code sslmode=prefer} use TLS when offered,
 * so only clients that explicitly disable it are refused).
 */
final class TlsOptions {
    private static final Logger LOG = LoggerFactory.getLogger(TlsOptions.class);

    @Option(names = "--tls-cert", paramLabel = "FILE",
            description = "PEM file with the server's certificate (then any intermediate CA certificates). "
                    + "With --tls-key, the server answers SSLRequest and speaks TLS 1.2/1.3.")
    Path certificate;

    @Option(names = "--tls-key", paramLabel = "FILE",
            description = "PEM file with the certificate's private key, unencrypted: PKCS#8 (BEGIN PRIVATE KEY; "
                    + "RSA, EC or Ed25519) or PKCS#1 RSA (BEGIN RSA PRIVATE KEY).")
    Path key;

    @Option(names = "--tls-mode", paramLabel = "MODE", converter = ModeConverter.class,
            description = "disable, allow or require (default: require with a certificate, else disable). require "
                    + "refuses connections without TLS with FATAL 28000; allow accepts both.")
    TlsMode mode;

    /** {@code --tls-mode}: disable, allow or require, in any case. */
    static final class ModeConverter implements CommandLine.ITypeConverter<TlsMode> {
        @Override
        public TlsMode convert(String value) {
            try {
                return TlsMode.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("\"" + value + "\" is not a TLS mode: use disable, "
                        + "allow or require");
            }
        }
    }

    /**
     * The server's TLS set-up from the flags, or null when TLS is off; throws
     * IllegalArgumentException (serve prints it and exits 1) for flags that do not fit
     * together or files that cannot be used.
     */
    ServerTls load() {
        if ((certificate == null) != (key == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key must be given together");
        }
        TlsMode effective = mode != null ? mode : certificate != null ? TlsMode.REQUIRE : TlsMode.DISABLE;
        if (effective == TlsMode.DISABLE) {
            if (certificate != null) {
                throw new IllegalArgumentException("--tls-mode=disable contradicts --tls-cert and --tls-key; "
                        + "drop one or the other");
            }
            return null;
        }
        if (certificate == null) {
            throw new IllegalArgumentException("--tls-mode=" + effective.name().toLowerCase(java.util.Locale.ROOT)
                    + " needs --tls-cert FILE and --tls-key FILE");
        }
        ServerTls tls = ServerTls.load(certificate, key, effective);
        LOG.info("{}", tls.describe());
        if (tls.expiredOrNotYetValid(new Date())) {
            LOG.warn("the TLS certificate {} is not valid now (valid {} to {}): clients that verify it will refuse "
                    + "to connect", certificate, tls.certificate().getNotBefore().toInstant(),
                    tls.certificate().getNotAfter().toInstant());
        }
        return tls;
    }
}
