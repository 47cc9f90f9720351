/**
 * Wire authentication: what happens between a StartupMessage and AuthenticationOk.
 * {@link io.stillwater.pgwire.auth.Authentication} is the server's setting (method, role
 * directory, mock secret, timeout); {@link io.stillwater.pgwire.auth.LoginExchange} runs
 * one connection's exchange (trust, SCRAM-SHA-256 through {@code ScramExchange}, or a
 * clear-text password over TLS) and answers {@link io.stillwater.pgwire.auth.AuthStep}s
 * or throws {@link io.stillwater.pgwire.auth.AuthFailure}.
 *
 * <p>Dependencies: {@code engine.auth} (verifiers, roles), {@code pgwire.protocol}
 * (messages). The connection's worker thread drives it; nothing here touches Netty.
 */
package io.stillwater.pgwire.auth;
