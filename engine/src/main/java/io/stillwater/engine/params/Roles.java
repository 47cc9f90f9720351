package io.stillwater.engine.params;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;

/**
 * Roles. There is no role catalog yet: any user name may connect (trust
 * authentication), and the one built-in superuser is {@code mz_system}, as in
 * Materialize. Only the superuser may change system parameters.
 */
public final class Roles {
    /** The superuser's name. */
    public static final String SUPERUSER = "mz_system";

    private Roles() {}

    public static boolean isSuperuser(String user) { return SUPERUSER.equals(user); }

    /**
     * Throws unless {@code user} is the superuser. {@code action} completes Materialize's
     * message {@code permission denied to <action>}, e.g. {@code alter system}.
     *
     * @throws SqlException 42501
     */
    public static void requireSuperuser(String user, String action) {
        if (!isSuperuser(user)) {
            throw new SqlException(SqlState.INSUFFICIENT_PRIVILEGE, "permission denied to " + action,
                    "You must be the '" + SUPERUSER + "' role to " + action + ".",
                    "Connect as user " + SUPERUSER + ".");
        }
    }
}
