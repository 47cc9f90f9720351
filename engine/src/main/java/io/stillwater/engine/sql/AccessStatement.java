package io.stillwater.engine.sql;

import io.stillwater.engine.catalog.Privilege;
import java.util.List;
import java.util.Set;

/**
 * The statements of the role catalog and privileges, as parsed (names folded):
 * CREATE/ALTER/DROP ROLE (and USER), GRANT/REVOKE and ALTER ... OWNER TO. Executed by
 * the coordinator's role sequencer after the session's checks.
 */
public sealed interface AccessStatement {
    String commandVerb();

    /**
     * The attributes a CREATE or ALTER ROLE names; null for what it does not mention.
     * {@code password}: the PASSWORD text as given (a password, or a SCRAM verifier text),
     * {@code passwordNull} for PASSWORD NULL.
     */
    record RoleOptions(Boolean login, Boolean superuser, Boolean createRole, Boolean inherit, String password,
                       boolean passwordNull) {
        public boolean setsPassword() { return password != null || passwordNull; }

        @Override
        public String toString() {
            return "RoleOptions[login=" + login + ", superuser=" + superuser + ", createRole=" + createRole
                    + ", inherit=" + inherit + ", password=" + (setsPassword() ? "(redacted)" : "unchanged") + "]";
        }
    }

    /** CREATE ROLE / CREATE USER ({@code user}: LOGIN unless NOLOGIN is given). */
    record CreateRole(String name, boolean user, RoleOptions options) implements AccessStatement {
        public String commandVerb() { return "CREATE ROLE"; }
    }

    /** ALTER ROLE / ALTER USER name [WITH] options. */
    record AlterRole(String name, RoleOptions options) implements AccessStatement {
        public String commandVerb() { return "ALTER ROLE"; }
    }

    /** DROP ROLE / DROP USER [IF EXISTS] a, b. */
    record DropRole(List<String> names, boolean ifExists) implements AccessStatement {
        public DropRole {
            names = List.copyOf(names);
        }

        public String commandVerb() { return "DROP ROLE"; }
    }

    /** What a GRANT or REVOKE is about. */
    enum ObjectClass { RELATION, CLUSTER, ALL_TABLES_IN_PUBLIC }

    /**
     * GRANT privileges ON objects TO grantees, or REVOKE ... FROM ({@code grant} false).
     * {@code privileges} empty means ALL [PRIVILEGES]; {@code kindWord} is the object
     * word written (table, view, materialized view, cluster) or null; grantee {@code
     * public} is PUBLIC.
     */
    record Grant(boolean grant, Set<Privilege> privileges, ObjectClass objectClass, String kindWord, List<String> objects,
                 List<String> grantees) implements AccessStatement {
        public Grant {
            privileges = Set.copyOf(privileges);
            objects = List.copyOf(objects);
            grantees = List.copyOf(grantees);
        }

        public String commandVerb() { return grant ? "GRANT" : "REVOKE"; }
    }

    /** ALTER {TABLE|VIEW|MATERIALIZED VIEW|INDEX|CLUSTER} name OWNER TO role ({@code kindWord} as written). */
    record AlterOwner(String kindWord, String name, String newOwner) implements AccessStatement {
        public String commandVerb() {
            return "ALTER " + kindWord.toUpperCase(java.util.Locale.ROOT);
        }
    }
}
