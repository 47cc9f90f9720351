package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.Privilege;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.AccessStatement;
import io.stillwater.engine.sql.AccessStatement.ObjectClass;
import io.stillwater.engine.sql.AccessStatement.RoleOptions;
import io.stillwater.engine.sql.Statement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CREATE/ALTER/DROP ROLE, GRANT/REVOKE and OWNER TO as {@link UtilityParser} reads them. */
class AccessControlParserTest {
    private static AccessStatement parse(String sql) {
        Statement s = UtilityParser.parse(sql).orElseThrow();
        assertThat(s).isInstanceOf(Statement.AccessControl.class);
        return ((Statement.AccessControl) s).statement();
    }

    @Test
    void roleStatements() {
        assertThat(parse("CREATE ROLE alice WITH LOGIN CREATEROLE PASSWORD 'pw'"))
                .isEqualTo(new AccessStatement.CreateRole("alice", false, new RoleOptions(true, null, true, null, "pw", false)));
        assertThat(parse("create user \"Bob\" nosuperuser noinherit encrypted password 'x' nocreatedb"))
                .isEqualTo(new AccessStatement.CreateRole("Bob", true, new RoleOptions(null, false, null, false, "x", false)));
        assertThat(parse("ALTER ROLE alice PASSWORD NULL"))
                .isEqualTo(new AccessStatement.AlterRole("alice", new RoleOptions(null, null, null, null, null, true)));
        assertThat(parse("ALTER USER alice NOLOGIN;"))
                .isEqualTo(new AccessStatement.AlterRole("alice", new RoleOptions(false, null, null, null, null, false)));
        assertThat(parse("DROP ROLE IF EXISTS a, b")).isEqualTo(new AccessStatement.DropRole(List.of("a", "b"), true));
        assertThat(parse("DROP USER a")).isEqualTo(new AccessStatement.DropRole(List.of("a"), false));
    }

    @Test
    void passwordsNeverPrintOrEcho() {
        assertThat(parse("CREATE ROLE a PASSWORD 'hunter2'").toString()).doesNotContain("hunter2");
        assertSqlError(() -> UtilityParser.parse("CREATE ROLE a PASSWORD 'hunter2' 'again'"), SqlState.SYNTAX_ERROR,
                "syntax error at or near a string constant");
        assertSqlError(() -> UtilityParser.parse("CREATE ROLE a PASSWORD 'x' PASSWORD 'y'"), SqlState.SYNTAX_ERROR,
                "conflicting or redundant options");
        assertSqlError(() -> UtilityParser.parse("CREATE ROLE a UNENCRYPTED PASSWORD 'x'"), SqlState.FEATURE_NOT_SUPPORTED,
                "UNENCRYPTED PASSWORD is no longer supported");
        assertSqlError(() -> UtilityParser.parse("CREATE ROLE a CREATEDB"), SqlState.FEATURE_NOT_SUPPORTED,
                "CREATE ROLE ... CREATEDB is not supported");
    }

    @Test
    void grantsAndRevokes() {
        assertThat(parse("GRANT SELECT, INSERT ON t, public.u TO alice, PUBLIC")).isEqualTo(new AccessStatement.Grant(true,
                Set.of(Privilege.SELECT, Privilege.INSERT), ObjectClass.RELATION, null, List.of("t", "u"), List.of("alice", "public")));
        assertThat(parse("GRANT ALL PRIVILEGES ON TABLE t TO GROUP g")).isEqualTo(new AccessStatement.Grant(true,
                Set.of(), ObjectClass.RELATION, "table", List.of("t"), List.of("g")));
        assertThat(parse("REVOKE ALL ON MATERIALIZED VIEW m FROM bob CASCADE")).isEqualTo(new AccessStatement.Grant(false,
                Set.of(), ObjectClass.RELATION, "materialized view", List.of("m"), List.of("bob")));
        assertThat(parse("GRANT USAGE, CREATE ON CLUSTER c TO bob")).isEqualTo(new AccessStatement.Grant(true,
                Set.of(Privilege.USAGE, Privilege.CREATE), ObjectClass.CLUSTER, "cluster", List.of("c"), List.of("bob")));
        assertThat(parse("GRANT SELECT ON ALL TABLES IN SCHEMA public TO bob")).isEqualTo(new AccessStatement.Grant(true,
                Set.of(Privilege.SELECT), ObjectClass.ALL_TABLES_IN_PUBLIC, null, List.of(), List.of("bob")));
        assertSqlError(() -> UtilityParser.parse("GRANT SELECT ON t TO bob WITH GRANT OPTION"), SqlState.FEATURE_NOT_SUPPORTED,
                "GRANT ... WITH GRANT OPTION is not supported");
        assertSqlError(() -> UtilityParser.parse("GRANT SELECT (a) ON t TO bob"), SqlState.FEATURE_NOT_SUPPORTED,
                "column privileges is not supported");
        assertSqlError(() -> UtilityParser.parse("GRANT USAGE ON SCHEMA public TO bob"), SqlState.FEATURE_NOT_SUPPORTED,
                "GRANT ON SCHEMA is not supported");
        assertSqlError(() -> UtilityParser.parse("GRANT SELECT ON t"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }

    @Test
    void ownerTo() {
        assertThat(parse("ALTER TABLE t OWNER TO bob")).isEqualTo(new AccessStatement.AlterOwner("table", "t", "bob"));
        assertThat(parse("ALTER MATERIALIZED VIEW m OWNER TO bob"))
                .isEqualTo(new AccessStatement.AlterOwner("materialized view", "m", "bob"));
        assertThat(parse("ALTER CLUSTER c OWNER TO bob")).isEqualTo(new AccessStatement.AlterOwner("cluster", "c", "bob"));
        assertThat(UtilityParser.parse("ALTER CLUSTER c SET (SIZE = '2')").orElseThrow()).isInstanceOf(Statement.AlterCluster.class);
    }
}
