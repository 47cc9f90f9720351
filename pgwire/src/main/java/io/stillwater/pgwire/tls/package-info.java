/**
 * TLS for the wire server: {@link io.stillwater.pgwire.tls.ServerTls} loads the PEM
 * certificate chain and private key once at startup (refusing unusable ones), and makes
 * the per-connection Netty {@code SslHandler} that the connection handler puts at the
 * head of the pipeline after answering an SSLRequest with {@code S}.
 * {@link io.stillwater.pgwire.tls.PemFiles} reads the files;
 * {@link io.stillwater.pgwire.tls.TlsMode} says whether plaintext is still accepted.
 */
package io.stillwater.pgwire.tls;
