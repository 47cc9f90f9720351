package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;
import org.junit.jupiter.api.Test;

/** What a client is told about failures that are not SqlExceptions of the client's making. */
class ClientErrorsTest {
    @Test
    void aStackOverflowIsPostgresStackDepthLimitExceeded() {
        Diagnostic d = ClientErrors.diagnose(new StackOverflowError(), Severity.ERROR);
        assertThat(d.sqlState()).isEqualTo("54001");
        assertThat(d.message()).isEqualTo("stack depth limit exceeded");
    }

    @Test
    void aStackOverflowWrappedInAnInternalErrorIsStill54001() {
        var wrapped = new SqlException(SqlState.INTERNAL_ERROR, "internal error", null, null, new StackOverflowError());
        assertThat(ClientErrors.diagnose(wrapped, Severity.ERROR).sqlState()).isEqualTo("54001");
    }

    @Test
    void anOtherJavaFailureIsAnInternalErrorWithoutJavaText() {
        Diagnostic d = ClientErrors.diagnose(new NumberFormatException("For input string: \"9\""), Severity.ERROR);
        assertThat(d.sqlState()).isEqualTo("XX000");
        assertThat(d.message()).doesNotContain("For input string").doesNotContain("Exception");
    }
}
