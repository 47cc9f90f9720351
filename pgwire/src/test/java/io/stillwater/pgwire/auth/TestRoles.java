package io.stillwater.pgwire.auth;

import io.stillwater.engine.auth.LoginRole;
import io.stillwater.engine.auth.RoleDirectory;
import io.stillwater.engine.auth.ScramVerifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A role directory for tests, standing in for the role catalog: {@code alice} (password
 * "secret"), {@code mz_system} (superuser, password "admin"), {@code nopass} (login, no
 * password), {@code nologin} (password "secret", no LOGIN). Under trust, unknown names are added.
 */
public final class TestRoles implements RoleDirectory {
    private final Map<String, LoginRole> roles = new ConcurrentHashMap<>();

    public TestRoles() {
        add(new LoginRole("alice", true, false, ScramVerifier.derive("secret")));
        add(new LoginRole("mz_system", true, true, ScramVerifier.derive("admin")));
        add(new LoginRole("nopass", true, false, null));
        add(new LoginRole("nologin", false, false, ScramVerifier.derive("secret")));
    }

    public TestRoles add(LoginRole role) {
        roles.put(role.name(), role);
        return this;
    }

    @Override
    public Optional<LoginRole> find(String name) { return Optional.ofNullable(roles.get(name)); }

    @Override
    public LoginRole ensureForTrust(String name) {
        return roles.computeIfAbsent(name, n -> new LoginRole(n, true, false, null));
    }
}
