package io.stillwater.engine.auth;

import java.util.Objects;
import java.util.Optional;

/**
 * What authentication needs to know of a role: whether it may log in, whether it is a
 * superuser, and its stored password verifier ({@code null} when it has none; then only
 * {@code trust} authentication lets it in).
 */
public record LoginRole(String name, boolean canLogin, boolean superuser, ScramVerifier verifier) {
    public LoginRole {
        Objects.requireNonNull(name, "name");
    }

    /** The stored verifier, if the role has a password. */
    public Optional<ScramVerifier> password() { return Optional.ofNullable(verifier); }
}
