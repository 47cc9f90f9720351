package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.Statement.AlterSystemReset;
import io.stillwater.engine.sql.Statement.AlterSystemSet;
import org.junit.jupiter.api.Test;

class AlterSystemParseTest {
    private static Statement parse(String sql) {
        return UtilityParser.parse(sql).orElseThrow(() -> new AssertionError("not a utility statement: " + sql));
    }

    @Test
    void setTakesToOrEqualsAndAnyValueForm() {
        assertThat(parse("ALTER SYSTEM SET max_result_size = '100MB'")).isEqualTo(new AlterSystemSet("max_result_size", "100MB"));
        assertThat(parse("alter system set Max_Connections to 10;")).isEqualTo(new AlterSystemSet("max_connections", "10"));
        assertThat(parse("ALTER SYSTEM SET enable_compute_interactive_runtime = off"))
                .isEqualTo(new AlterSystemSet("enable_compute_interactive_runtime", "off"));
        assertThat(parse("ALTER SYSTEM SET enable_compute_interactive_runtime = true"))
                .isEqualTo(new AlterSystemSet("enable_compute_interactive_runtime", "true"));
        assertThat(parse("ALTER SYSTEM SET compute_index_peek_inline_budget = -1"))
                .isEqualTo(new AlterSystemSet("compute_index_peek_inline_budget", "-1"));
        assertThat(parse("ALTER SYSTEM SET statement_timeout = '10s'").commandVerb()).isEqualTo("ALTER SYSTEM");
    }

    @Test
    void setToDefaultAndResetRemoveTheOverride() {
        assertThat(parse("ALTER SYSTEM SET max_connections TO DEFAULT")).isEqualTo(new AlterSystemReset("max_connections"));
        assertThat(parse("ALTER SYSTEM RESET max_connections")).isEqualTo(new AlterSystemReset("max_connections"));
        assertThat(parse("ALTER SYSTEM RESET ALL")).isEqualTo(new AlterSystemReset("all"));
    }

    @Test
    void malformedAlterSystemIsASyntaxError() {
        for (String sql : new String[] {"ALTER SYSTEM", "ALTER SYSTEM SET x", "ALTER SYSTEM SET x = ",
                "ALTER SYSTEM SET x = 1 2", "ALTER SYSTEM RESET", "ALTER SYSTEM FLUSH"}) {
            assertThatThrownBy(() -> UtilityParser.parse(sql)).as(sql).isInstanceOfSatisfying(SqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.SYNTAX_ERROR));
        }
    }

    @Test
    void otherAltersStayUnsupported() {
        assertSqlError(() -> UtilityParser.parse("ALTER TABLE t ADD COLUMN b int"), SqlState.FEATURE_NOT_SUPPORTED,
                "ALTER TABLE is not supported");
    }
}
