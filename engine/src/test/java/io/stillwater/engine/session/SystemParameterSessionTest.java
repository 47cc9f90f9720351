package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ALTER SYSTEM, SHOW and the enforced parameters, through the Session API on a real engine. */
class SystemParameterSessionTest extends SessionTestBase {
    /** A superuser session on the same engine. */
    Session sys;

    @BeforeEach
    void openSystem() { sys = engine.connect("mz_system", "materialize", Map.of()); }

    @AfterEach
    void closeSystem() { sys.close(); }

    @Override
    void reopen() {
        sys.close();
        super.reopen();
        sys = engine.connect("mz_system", "materialize", Map.of());
    }

    private static String show(Session session, String name) {
        return rows(session.execute("SHOW " + name)).getFirst().getFirst();
    }

    /** The error of {@code sql}, from execute or (a result that fails while streamed) from reading its rows. */
    private static SqlException error(Session session, String sql) {
        try {
            if (session.execute(sql) instanceof ExecutionResult.Rows rows) rows.rows();
        } catch (SqlException e) {
            return e;
        }
        throw new AssertionError("expected an error from " + sql);
    }

    @Test
    void superuserAltersAndResetsSystemParameters() {
        assertThat(show(s, "compute_index_peek_inline_budget")).isEqualTo("1024");
        ExecutionResult r = sys.execute("ALTER SYSTEM SET compute_index_peek_inline_budget = 64");
        assertThat(r).isEqualTo(new ExecutionResult.Command("ALTER SYSTEM"));
        assertThat(show(s, "compute_index_peek_inline_budget")).isEqualTo("64");
        assertThat(engine.systemParameters().get(Params.COMPUTE_INDEX_PEEK_INLINE_BUDGET)).isEqualTo(64);

        sys.execute("ALTER SYSTEM SET enable_compute_interactive_runtime TO off");
        sys.execute("ALTER SYSTEM SET max_result_size = '100MB'");
        assertThat(show(s, "enable_compute_interactive_runtime")).isEqualTo("off");
        assertThat(show(s, "max_result_size")).isEqualTo("100MB");

        sys.execute("ALTER SYSTEM RESET compute_index_peek_inline_budget");
        assertThat(show(s, "compute_index_peek_inline_budget")).isEqualTo("1024");
        sys.execute("ALTER SYSTEM SET max_result_size TO DEFAULT");
        assertThat(show(s, "max_result_size")).isEqualTo("1GB");
        sys.execute("ALTER SYSTEM RESET ALL");
        assertThat(show(s, "enable_compute_interactive_runtime")).isEqualTo("on");
        assertThat(engine.systemParameters().snapshot().overrides()).isEmpty();
    }

    @Test
    void isSuperuserTellsTheSessionsRole() {
        assertThat(show(sys, "is_superuser")).isEqualTo("on");
        assertThat(show(s, "is_superuser")).isEqualTo("off");
        assertThat(sys.startupParameters()).containsEntry("is_superuser", "on");
    }

    @Test
    void otherUsersMayNotAlterSystem() {
        SqlException e = error(s, "ALTER SYSTEM SET max_connections = 10");
        assertThat(e.state()).isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE);
        assertThat(e.getMessage()).isEqualTo("permission denied to alter system parameters");
        assertThat(error(s, "ALTER SYSTEM RESET ALL").state()).isEqualTo(SqlState.INSUFFICIENT_PRIVILEGE);
        assertThat(show(s, "max_connections")).isEqualTo("1000");
    }

    @Test
    void unknownNamesAndInvalidValuesAreRejected() {
        SqlException unknown = error(sys, "ALTER SYSTEM SET no_such_param = 1");
        assertThat(unknown.state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
        assertThat(unknown.getMessage()).isEqualTo("unrecognized configuration parameter \"no_such_param\"");
        assertThat(error(sys, "ALTER SYSTEM RESET no_such_param").state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
        assertThat(error(s, "SHOW no_such_param").state()).isEqualTo(SqlState.UNDEFINED_OBJECT);

        SqlException invalid = error(sys, "ALTER SYSTEM SET statement_timeout = 'soon'");
        assertThat(invalid.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
        assertThat(invalid.getMessage()).isEqualTo("invalid value for parameter \"statement_timeout\": \"soon\"");
        assertThat(invalid.hint()).contains("\"ms\"");
        assertThat(error(sys, "ALTER SYSTEM SET max_connections = 0").state())
                .isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
        assertThat(engine.systemParameters().snapshot().overrides()).isEmpty();
    }

    @Test
    void alterSystemIsNotTransactional() {
        sys.execute("BEGIN");
        assertThat(error(sys, "ALTER SYSTEM SET max_connections = 10").state())
                .isEqualTo(SqlState.ACTIVE_SQL_TRANSACTION);
        sys.execute("ROLLBACK");
    }

    @Test
    void overridesSurviveRestartAndResetIsDurableToo() {
        sys.execute("ALTER SYSTEM SET compute_index_peek_yield_granularity = 500");
        sys.execute("ALTER SYSTEM SET enable_compute_index_peek_offload = false");
        sys.execute("ALTER SYSTEM SET statement_timeout = '1min'");
        sys.execute("ALTER SYSTEM RESET statement_timeout");
        reopen();
        assertThat(show(s, "compute_index_peek_yield_granularity")).isEqualTo("500");
        assertThat(show(s, "enable_compute_index_peek_offload")).isEqualTo("off");
        assertThat(show(s, "statement_timeout")).isEqualTo("0");
        sys.execute("ALTER SYSTEM RESET ALL");
        reopen();
        assertThat(show(s, "compute_index_peek_yield_granularity")).isEqualTo("10000");
        assertThat(show(s, "enable_compute_index_peek_offload")).isEqualTo("on");
    }

    @Test
    void startupDefaultsApplyUntilOverriddenAndAreNotPersisted() {
        sys.close();
        s.close();
        engine.close();
        engine = Engine.open(new EngineConfig(dir, false, 1)
                .withSystemParameterDefaults(Map.of("max_connections", "20", "compute_index_peek_inline_budget", "7")));
        s = engine.connect("materialize", "materialize", Map.of());
        sys = engine.connect("mz_system", "materialize", Map.of());
        assertThat(show(s, "max_connections")).isEqualTo("20");
        sys.execute("ALTER SYSTEM SET max_connections = 30");
        assertThat(show(s, "max_connections")).isEqualTo("30");
        sys.execute("ALTER SYSTEM RESET max_connections");
        assertThat(show(s, "max_connections")).isEqualTo("20");
        reopen(); // plain config: the startup defaults are gone
        assertThat(show(s, "max_connections")).isEqualTo("1000");
        assertThat(show(s, "compute_index_peek_inline_budget")).isEqualTo("1024");
    }

    @Test
    void invalidStartupDefaultsFailTheOpen() {
        assertThatThrownBy(() -> Engine.open(new EngineConfig(dir.resolve("other"), false, 1)
                .withSystemParameterDefaults(Map.of("max_connections", "lots"))))
                .isInstanceOfSatisfying(SqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE));
    }

    @Test
    void showAllListsSessionVariablesAndSystemParametersWithDescriptions() {
        sys.execute("ALTER SYSTEM SET max_result_size = '2GB'");
        ExecutionResult.Rows all = (ExecutionResult.Rows) s.execute("SHOW ALL");
        assertThat(all.columns()).extracting(ResultColumn::name).containsExactly("name", "setting", "description");
        List<List<String>> rows = rows(all);
        List<String> names = new ArrayList<>(rows.stream().map(r -> r.get(0)).toList());
        assertThat(names).doesNotHaveDuplicates();
        for (Param<?> p : Params.ALL) {
            assertThat(rows).as(p.name()).anySatisfy(r -> {
                assertThat(r.get(0)).isEqualTo(p.name());
                assertThat(r.get(2)).isEqualTo(p.description());
            });
        }
        assertThat(rows).contains(List.of("max_result_size", "2GB", Params.MAX_RESULT_SIZE.description()));
        assertThat(rows).anySatisfy(r -> assertThat(r).containsExactly("timezone", "UTC", ""));
    }

    @Test
    void systemStatementTimeoutIsTheSessionDefault() {
        sys.execute("ALTER SYSTEM SET statement_timeout = '10s'");
        assertThat(show(s, "statement_timeout")).isEqualTo("10s");
        s.execute("SET statement_timeout = '2s'");
        assertThat(show(s, "statement_timeout")).isEqualTo("2s");
        sys.execute("ALTER SYSTEM SET statement_timeout = '20s'");
        assertThat(show(s, "statement_timeout")).as("the session's own value shadows").isEqualTo("2s");
        s.execute("RESET statement_timeout");
        assertThat(show(s, "statement_timeout")).isEqualTo("20s");
        s.execute("SET statement_timeout TO DEFAULT");
        assertThat(show(s, "statement_timeout")).isEqualTo("20s");
        List<List<String>> all = rows(s.execute("SHOW ALL"));
        assertThat(all).filteredOn(r -> r.get(0).equals("statement_timeout")).hasSize(1)
                .first().satisfies(r -> assertThat(r.get(1)).isEqualTo("20s"));
    }

    @Test
    void systemStatementTimeoutCancelsLongStatements() {
        sys.execute("ALTER SYSTEM SET statement_timeout = 1");
        Session fresh = engine.connect("materialize", "materialize", Map.of());
        try {
            SqlException e = error(fresh,
                    "SELECT count(*) FROM generate_series(1, 3000) a, generate_series(1, 3000) b");
            assertThat(e.state()).isEqualTo(SqlState.QUERY_CANCELED);
            assertThat(e.getMessage()).isEqualTo("canceling statement due to statement timeout");
        } finally {
            fresh.close();
        }
    }

    @Test
    void systemOnlyParametersCannotBeSetInASession() {
        SqlException e = error(s, "SET max_result_size = '10MB'");
        assertThat(e.state()).isEqualTo(SqlState.CANT_CHANGE_RUNTIME_PARAM);
        assertThat(e.getMessage()).isEqualTo("parameter \"max_result_size\" cannot be changed in a session");
    }

    @Test
    void resultsLargerThanMaxResultSizeFail() {
        sys.execute("ALTER SYSTEM SET max_result_size = '1MB'");
        // 2000 rows of a 1000-character string: about 2MB.
        SqlException e = error(s, "SELECT repeat('x', 1000) FROM generate_series(1, 2000)");
        assertThat(e.state()).isEqualTo(SqlState.OUT_OF_MEMORY);
        assertThat(e.getMessage()).isEqualTo("result exceeds max size of 1.0 MiB");
        assertThat(rows(s.execute("SELECT repeat('x', 1000) FROM generate_series(1, 500)"))).hasSize(500);
        sys.execute("ALTER SYSTEM SET max_result_size = '10MB'");
        assertThat(rows(s.execute("SELECT repeat('x', 1000) FROM generate_series(1, 2000)"))).hasSize(2000);
    }

    @Test
    void maxConnectionsCountsEverySessionAndReservesSlotsForTheSuperuser() {
        sys.execute("ALTER SYSTEM SET max_connections = 4"); // s and sys are two
        sys.execute("ALTER SYSTEM SET superuser_reserved_connections = 1");
        Session second = engine.connect("alice", "materialize", Map.of());
        assertThatThrownBy(() -> engine.connect("bob", "materialize", Map.of()))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.TOO_MANY_CONNECTIONS);
                    assertThat(e.getMessage())
                            .isEqualTo("remaining connection slots are reserved for roles with the SUPERUSER attribute");
                });
        Session admin = engine.connect("mz_system", "materialize", Map.of());
        assertThatThrownBy(() -> engine.connect("mz_system", "materialize", Map.of()))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.TOO_MANY_CONNECTIONS);
                    assertThat(e.getMessage()).isEqualTo("sorry, too many clients already");
                });
        admin.close();
        second.close();
        second.close(); // closing twice frees one slot only
        assertThat(engine.openSessions()).isEqualTo(2);
        Session third = engine.connect("bob", "materialize", Map.of());
        assertThat(rows(third.execute("SELECT 1"))).containsExactly(List.of("1"));
        third.close();
    }
}
