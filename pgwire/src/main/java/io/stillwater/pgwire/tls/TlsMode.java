package io.stillwater.pgwire.tls;

/**
 * Whether the server offers TLS and whether it accepts connections without it: the
 * server-wide counterpart of PostgreSQL's {@code hostssl}/{@code hostnossl} pg_hba lines.
 */
public enum TlsMode {
    /** SSLRequest is answered {@code N}; every connection is plaintext. */
    DISABLE,
    /** SSLRequest is answered {@code S} and a TLS handshake follows; plaintext startups are accepted too. */
    ALLOW,
    /**
     * As {@link #ALLOW}, but a StartupMessage on a connection without TLS is refused with
     * FATAL 28000 (what {@code serve} chooses when it is given a certificate).
     */
    REQUIRE
}
