package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What PostgreSQL's catalog shows of owners and grants: pg_class.relowner and relacl,
 * pg_tables' owner, pg_get_userbyid, the privilege inquiry functions and
 * information_schema.table_privileges. {@code s} is {@code materialize} (an ordinary role),
 * {@code sys} the superuser {@code mz_system}, {@code bob} and {@code carol} ordinary roles.
 */
class PrivilegeCatalogSessionTest extends SessionTestBase {
    Session sys;
    Session bob;
    Session carol;

    @BeforeEach
    void openOthers() {
        sys = engine.connect("mz_system", "materialize", Map.of());
        bob = engine.connect("bob", "materialize", Map.of());
        carol = engine.connect("carol", "materialize", Map.of());
    }

    @AfterEach
    void closeOthers() {
        carol.close();
        bob.close();
        sys.close();
    }

    @Override
    void reopen() {
        closeOthers();
        super.reopen();
        openOthers();
    }

    private static String one(Session session, String sql) {
        return rows(session.execute(sql)).get(0).get(0);
    }

    @Test
    void pgClassShowsTheOwnerAndTheAclOnceSomethingIsGranted() {
        s.execute("CREATE TABLE t (a int)");
        String ownerOid = one(s, "SELECT oid FROM pg_roles WHERE rolname = 'materialize'");
        assertThat(q("SELECT relowner, relacl FROM pg_class WHERE relname = 't'")).containsExactly(Arrays.asList(ownerOid, null));
        assertThat(q("SELECT pg_get_userbyid(relowner), tableowner FROM pg_class, pg_tables "
                + "WHERE relname = 't' AND tablename = 't'")).containsExactly(List.of("materialize", "materialize"));

        s.execute("GRANT SELECT ON t TO bob");
        s.execute("GRANT INSERT, UPDATE ON t TO carol");
        s.execute("GRANT SELECT ON t TO PUBLIC");
        assertThat(one(s, "SELECT relacl FROM pg_class WHERE relname = 't'"))
                .isEqualTo("{materialize=arwdDxt/materialize,bob=r/materialize,carol=aw/materialize,=r/materialize}");

        s.execute("REVOKE ALL ON t FROM bob, carol, PUBLIC");
        // Everything revoked: back to the defaults, so NULL (PostgreSQL keeps listing the owner's entry).
        assertThat(one(s, "SELECT relacl FROM pg_class WHERE relname = 't'")).isNull();
    }

    @Test
    void ownershipTransfersShowInPgClassAndIndexesFollowTheirTable() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("CREATE INDEX t_a ON t (a)");
        sys.execute("ALTER TABLE t OWNER TO bob");
        String bobOid = one(s, "SELECT oid FROM pg_roles WHERE rolname = 'bob'");
        assertThat(q("SELECT relowner FROM pg_class WHERE relname = 't'")).containsExactly(List.of(bobOid));
        assertThat(q("SELECT relacl FROM pg_class WHERE relname = 't_a'")).containsExactly(Arrays.asList((String) null));
        assertThat(q("SELECT 't'::regclass::oid IS NOT NULL, pg_get_userbyid(" + bobOid + ")"))
                .containsExactly(List.of("t", "bob"));
        assertThat(q("SELECT pg_get_userbyid(10), pg_get_userbyid(424242)"))
                .containsExactly(List.of("mz_system", "unknown (OID=424242)"));
    }

    @Test
    void hasTablePrivilegeAnswersFromOwnersGrantsPublicAndSuperusers() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("GRANT SELECT ON t TO bob");
        assertThat(q("SELECT has_table_privilege('t', 'SELECT'), has_table_privilege('t', 'truncate'),"
                + " has_table_privilege('bob', 't', 'select'), has_table_privilege('bob', 't', 'INSERT'),"
                + " has_table_privilege('carol', 't', 'SELECT'), has_table_privilege('mz_system', 't', 'DELETE'),"
                + " has_table_privilege('bob', 't', 'INSERT, SELECT'),"
                + " has_table_privilege('bob', 't', 'SELECT WITH GRANT OPTION')"))
                .containsExactly(List.of("t", "t", "t", "f", "f", "t", "t", "f"));
        // Without a user: the session's own.
        assertThat(one(bob, "SELECT has_table_privilege('t', 'SELECT')")).isEqualTo("t");
        assertThat(one(carol, "SELECT has_table_privilege('public.t', 'SELECT')")).isEqualTo("f");
        assertThat(one(carol, "SELECT has_any_column_privilege('t', 'SELECT')")).isEqualTo("f");

        // A grant changes the answer of a statement planned (and cached) before it.
        s.execute("GRANT SELECT ON t TO PUBLIC");
        assertThat(one(carol, "SELECT has_table_privilege('public.t', 'SELECT')")).isEqualTo("t");
        assertThat(one(carol, "SELECT has_table_privilege('t', 'UPDATE')")).isEqualTo("f");

        // By oid (of the table and of the role), and unknown oids.
        String tOid = one(s, "SELECT oid FROM pg_class WHERE relname = 't'");
        String carolOid = one(s, "SELECT oid FROM pg_roles WHERE rolname = 'carol'");
        assertThat(q("SELECT has_table_privilege(" + carolOid + ", " + tOid + ", 'SELECT'),"
                + " has_table_privilege(" + carolOid + ", " + tOid + ", 'DELETE'), has_table_privilege(999999, 'SELECT')"))
                .containsExactly(Arrays.asList("t", "f", null));
        // In a query over pg_class, per row; catalog relations are readable by everyone.
        assertThat(rows(carol.execute("SELECT relname, has_table_privilege(oid, 'SELECT') FROM pg_class "
                + "WHERE relname IN ('t', 'pg_class') ORDER BY relname")))
                .containsExactly(List.of("pg_class", "t"), List.of("t", "t"));
    }

    @Test
    void privilegeFunctionsRefuseUnknownNamesAsPostgresDoes() {
        s.execute("CREATE TABLE t (a int)");
        assertThat(code("SELECT has_table_privilege('nope', 'SELECT')")).isEqualTo("42P01");
        assertThat(code("SELECT has_table_privilege('nobody', 't', 'SELECT')")).isEqualTo("42704");
        assertThat(code("SELECT has_table_privilege('t', 'FLY')")).isEqualTo("22023");
        assertThat(code("SELECT has_schema_privilege('nope', 'USAGE')")).isEqualTo("3F000");
        assertThat(code("SELECT has_database_privilege('other', 'CONNECT')")).isEqualTo("3D000");
    }

    private String code(String sql) {
        try {
            rows(s.execute(sql));
        } catch (SqlException e) {
            return e.state().code();
        }
        throw new AssertionError("expected an error from " + sql);
    }

    @Test
    void schemaAndDatabasePrivileges() {
        assertThat(q("SELECT has_schema_privilege('public', 'USAGE'), has_schema_privilege('public', 'CREATE'),"
                + " has_schema_privilege('pg_catalog', 'CREATE'), has_schema_privilege('mz_system', 'pg_catalog', 'CREATE'),"
                + " has_database_privilege('materialize', 'CONNECT'), has_database_privilege('materialize', 'CREATE'),"
                + " has_database_privilege('mz_system', 'materialize', 'CREATE')"))
                .containsExactly(List.of("t", "t", "f", "t", "t", "f", "t"));
    }

    @Test
    void informationSchemaListsEachPrivilegeWithItsGrantor() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("CREATE VIEW v AS SELECT a FROM t");
        s.execute("GRANT SELECT ON t TO bob");
        s.execute("GRANT SELECT ON v TO PUBLIC");
        assertThat(q("SELECT grantor, grantee, table_name, privilege_type, is_grantable, with_hierarchy"
                + " FROM information_schema.table_privileges WHERE grantee <> 'materialize' ORDER BY table_name, grantee"))
                .containsExactly(List.of("materialize", "bob", "t", "SELECT", "NO", "YES"),
                        List.of("materialize", "PUBLIC", "v", "SELECT", "NO", "YES"));
        assertThat(q("SELECT privilege_type FROM information_schema.table_privileges"
                + " WHERE grantee = 'materialize' AND table_name = 't' ORDER BY 1"))
                .extracting(r -> r.get(0))
                .containsExactlyElementsOf(Arrays.asList("DELETE", "INSERT", "REFERENCES", "SELECT", "TRIGGER",
                        "TRUNCATE", "UPDATE"));
        // role_table_grants leaves PUBLIC out.
        assertThat(q("SELECT grantee, table_name FROM information_schema.role_table_grants"
                + " WHERE grantee <> 'materialize' ORDER BY 2"))
                .containsExactly(List.of("bob", "t"));
    }

    @Test
    void ownersAndGrantsShowTheSameAfterARestart() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("GRANT SELECT ON t TO bob");
        reopen();
        assertThat(one(s, "SELECT relacl FROM pg_class WHERE relname = 't'"))
                .isEqualTo("{materialize=arwdDxt/materialize,bob=r/materialize}");
        assertThat(one(s, "SELECT has_table_privilege('bob', 't', 'SELECT')")).isEqualTo("t");
    }

    @Test
    void unknownRoleGivesAClearError() {
        assertThatThrownBy(() -> rows(s.execute("SELECT has_database_privilege('nobody', 'materialize', 'CONNECT')")))
                .isInstanceOf(SqlException.class).hasMessage("role \"nobody\" does not exist");
    }
}
