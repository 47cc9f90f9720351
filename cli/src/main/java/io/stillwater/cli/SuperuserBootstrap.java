package io.stillwater.cli;

import io.stillwater.engine.Engine;
import io.stillwater.engine.auth.LoginRole;
import io.stillwater.engine.auth.ScramVerifier;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.params.Roles;
import io.stillwater.engine.session.Session;
import io.stillwater.pgwire.auth.AuthMethod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve --bootstrap-superuser-password-file FILE}: gives {@code mz_system} its
 * first password, like {@code initdb --pwfile}. The file's first line is the password; only
 * its SCRAM-SHA-256 verifier leaves this class, set by running
 * {@code ALTER ROLE mz_system PASSWORD '<verifier>'} as mz_system through an engine session
 * (a verifier in PASSWORD is stored as is, as PostgreSQL does), so neither the statement
 * text nor the log ever holds the password. A password already set is left alone: the
 * file only bootstraps.
 */
final class SuperuserBootstrap {
    private static final Logger LOG = LoggerFactory.getLogger(SuperuserBootstrap.class);
    static final String SUPERUSER = Roles.SUPERUSER;

    private SuperuserBootstrap() {}

    /** The verifier of the password in {@code file}'s first line; IllegalArgumentException if unreadable or empty. */
    static ScramVerifier readPasswordFile(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("--bootstrap-superuser-password-file " + file + ": cannot read it ("
                    + e.getClass().getSimpleName() + ")");
        }
        String firstLine = text.lines().findFirst().orElse("");
        if (firstLine.isEmpty()) {
            throw new IllegalArgumentException("--bootstrap-superuser-password-file " + file
                    + ": the first line, the password, is empty");
        }
        return ScramVerifier.derive(firstLine);
    }

    /**
     * Sets mz_system's password to {@code verifier} if it has none (null: no file given;
     * then only warns when password authentication leaves mz_system unable to log in).
     */
    static void apply(Engine engine, ScramVerifier verifier, AuthMethod auth) {
        Optional<LoginRole> superuser = engine.roles().find(SUPERUSER);
        boolean hasPassword = superuser.flatMap(LoginRole::password).isPresent();
        if (verifier == null) {
            if (auth.checksPassword() && !hasPassword) {
                LOG.warn("mz_system has no password, so nobody can log in as mz_system under --auth {}; set one with "
                        + "--bootstrap-superuser-password-file FILE", auth);
            }
            return;
        }
        if (hasPassword) {
            LOG.info("mz_system already has a password; --bootstrap-superuser-password-file leaves it unchanged");
            return;
        }
        try (Session session = engine.connect(SUPERUSER, "materialize", Map.of())) {
            session.execute("ALTER ROLE " + SUPERUSER + " PASSWORD '" + verifier.text() + "'");
        } catch (SqlException e) {
            throw new IllegalArgumentException("--bootstrap-superuser-password-file: could not set mz_system's password: "
                    + e.getMessage());
        }
        if (engine.roles().find(SUPERUSER).flatMap(LoginRole::password).isEmpty()) {
            throw new IllegalArgumentException("--bootstrap-superuser-password-file: this build does not store role "
                    + "passwords (ALTER ROLE ... PASSWORD)");
        }
        LOG.info("set mz_system's password from --bootstrap-superuser-password-file");
    }
}
