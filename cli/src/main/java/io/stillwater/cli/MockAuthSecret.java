package io.stillwater.cli;

import io.stillwater.pgwire.auth.Authentication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;

/**
 * The server secret that mock SCRAM salts of unknown roles derive from, kept in
 * {@code <data-dir>/auth-mock-secret} (owner-only) so that they stay the same across
 * restarts, as real roles' salts do; PostgreSQL keeps its {@code mock_authentication_nonce}
 * in pg_control for the same reason. Not a credential: it only hides which roles exist.
 */
final class MockAuthSecret {
    static final String FILE_NAME = "auth-mock-secret";

    private MockAuthSecret() {}

    /** The secret in {@code dataDir}, created (32 random bytes, hex) on first use. */
    static byte[] loadOrCreate(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        try {
            if (!Files.exists(file)) {
                byte[] fresh = Authentication.newSecret();
                try {
                    Files.writeString(file, HexFormat.of().formatHex(fresh) + "\n", StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE);
                    try {
                        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
                    } catch (UnsupportedOperationException ignored) {
                        // not a POSIX file system
                    }
                    return fresh;
                } catch (FileAlreadyExistsException raced) {
                    // another process created it first: read theirs
                }
            }
            String hex = Files.readString(file).strip();
            try {
                byte[] secret = HexFormat.of().parseHex(hex);
                if (secret.length >= 16) return secret;
            } catch (IllegalArgumentException ignored) {
                // fall through
            }
            throw new IllegalArgumentException(file + " is damaged (expected at least 32 hex digits); delete it and "
                    + "restart to create a new one");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create " + file + ": " + e.getMessage(), e);
        }
    }
}
