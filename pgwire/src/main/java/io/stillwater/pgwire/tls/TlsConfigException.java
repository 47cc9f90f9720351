package io.stillwater.pgwire.tls;

/**
 * The TLS certificate or key given to the server cannot be used (missing, unreadable,
 * not PEM, a key that does not belong to the certificate). The message names the file
 * and the fix; {@code serve} prints it and refuses to start.
 */
public final class TlsConfigException extends IllegalArgumentException {
    public TlsConfigException(String message) { super(message); }

    public TlsConfigException(String message, Throwable cause) { super(message, cause); }
}
