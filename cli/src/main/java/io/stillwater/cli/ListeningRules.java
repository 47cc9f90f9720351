package io.stillwater.cli;

import io.stillwater.pgwire.auth.AuthMethod;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * When {@code serve} may start, given where it listens and how it authenticates:
 *
 * <ul>
 *   <li>{@code --auth password} sends passwords in clear text, so it needs TLS required
 *       ({@code --tls-mode require}); without it serve refuses to start, whatever else is set.
 *   <li>On loopback anything else goes ({@code trust} is the default there).
 *   <li>On any other address clients cross a network: authentication must check passwords
 *       AND TLS must be required; otherwise serve refuses to start and says which flags to
 *       add, unless {@code --allow-insecure-remote} is given, which starts it with a WARN line.
 * </ul>
 *
 * Stateless; the verdict is computed before the engine opens, so a refusal leaves no data directory.
 */
final class ListeningRules {
    private ListeningRules() {}

    /** What serve does with its listening flags. */
    sealed interface Verdict {
        record Allowed() implements Verdict {}

        /** Start, logging {@code warning} at WARN. */
        record Insecure(String warning) implements Verdict {}

        /** Do not start: {@code reason} says what to change. */
        record Refused(String reason) implements Verdict {}
    }

    static Verdict check(String listen, AuthMethod auth, boolean tlsRequired, boolean allowInsecureRemote) {
        if (auth == AuthMethod.PASSWORD && !tlsRequired) {
            return new Verdict.Refused("--auth password sends passwords in clear text and needs TLS required: add "
                    + "--tls-cert, --tls-key and --tls-mode require, or use --auth scram-sha-256");
        }
        if (isLoopback(listen)) return new Verdict.Allowed();
        boolean checksPasswords = auth.checksPassword();
        if (checksPasswords && tlsRequired) return new Verdict.Allowed();
        String missing = (checksPasswords ? "" : "--auth scram-sha-256 (clients must prove a password)")
                + (checksPasswords || tlsRequired ? "" : " and ")
                + (tlsRequired ? "" : "--tls-cert, --tls-key and --tls-mode require (traffic must be encrypted)");
        String what = "listening on " + listen + ", a non-loopback address, with --auth " + auth
                + (tlsRequired ? "" : " and without TLS required");
        if (allowInsecureRemote) {
            return new Verdict.Insecure("--allow-insecure-remote: " + what + "; anyone who can reach the port "
                    + (checksPasswords ? "can read passwords' exchanges and all data on the network path"
                            : "can connect as any role, mz_system included")
                    + ". Add " + missing + " to secure it.");
        }
        return new Verdict.Refused("refusing to start: " + what + ". Add " + missing
                + ", or listen on 127.0.0.1, or pass --allow-insecure-remote to run it insecurely on a trusted network");
    }

    /** Whether {@code host} names a loopback address (127.0.0.0/8, ::1, localhost); the wildcard 0.0.0.0 is not. */
    static boolean isLoopback(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) return false;
            }
            return true;
        } catch (UnknownHostException e) {
            return false; // binding fails later with the resolver's message
        }
    }
}
