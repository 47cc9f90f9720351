package io.stillwater.engine.sql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on the SQLSTATE and message of a {@link SqlException}. */
final class SqlErrors {
    private SqlErrors() {}

    static SqlException assertSqlError(ThrowingCallable call, SqlState state, String message) {
        SqlException[] caught = new SqlException[1];
        assertThatThrownBy(call).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).as("SQLSTATE of: " + e.getMessage()).isEqualTo(state);
            assertThat(e.getMessage()).isEqualTo(message);
            caught[0] = e;
        });
        return caught[0];
    }

    static SqlException assertSqlErrorStartsWith(ThrowingCallable call, SqlState state, String prefix) {
        SqlException[] caught = new SqlException[1];
        assertThatThrownBy(call).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).as("SQLSTATE of: " + e.getMessage()).isEqualTo(state);
            assertThat(e.getMessage()).startsWith(prefix);
            caught[0] = e;
        });
        return caught[0];
    }
}
