package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.FaultPoints;
import io.stillwater.engine.error.FaultPoints.Point;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.memory.MemoryPool;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * EngineSession's statement boundary: whatever a statement throws, an explicit
 * transaction is then FAILED as for a SQL error (25P02 until ROLLBACK), an implicit one
 * leaves the session IDLE, the statement's memory is returned, Errors reach the caller as
 * they are (the wire layer maps them to 53200/XX000 with an error id), and an unexpected
 * exception becomes XX000 whose message carries no Java text (the exception stays the
 * cause, for the log).
 */
class StatementBoundaryTest extends SessionTestBase {
    private long poolBefore;

    @BeforeEach
    void table() {
        s.execute("CREATE TABLE t (a int)");
        s.execute("INSERT INTO t VALUES (1), (2)");
        poolBefore = MemoryPool.process().reserved();
    }

    @AfterEach
    void disarm() {
        FaultPoints.disarmAll();
        assertThat(MemoryPool.process().reserved()).as("memory pool after the test").isEqualTo(poolBefore);
    }

    private void assertFailedUntilRollback() {
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.FAILED);
        assertState(SqlState.IN_FAILED_SQL_TRANSACTION.code(), "SELECT count(*) FROM t");
        assertThat(tag("ROLLBACK")).isEqualTo("ROLLBACK");
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IDLE);
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("2"));
    }

    @Test
    void anErrorInAReadInsideATransactionFailsIt() {
        s.execute("BEGIN");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("2"));
        FaultPoints.arm(Point.PEEK, () -> new OutOfMemoryError("Java heap space"));
        assertThatThrownBy(() -> q("SELECT count(*) FROM t WHERE a > 0")).isInstanceOf(OutOfMemoryError.class);
        assertFailedUntilRollback();
    }

    @Test
    void anAssertionErrorInsideATransactionFailsIt() {
        s.execute("BEGIN");
        FaultPoints.arm(Point.PEEK, () -> new AssertionError("invariant broken"));
        assertThatThrownBy(() -> q("SELECT count(*) FROM t")).isInstanceOf(AssertionError.class);
        assertFailedUntilRollback();
    }

    @Test
    void anUnexpectedExceptionIsAnInternalErrorWithoutJavaText() {
        s.execute("BEGIN");
        IllegalStateException bug = new IllegalStateException("boom");
        FaultPoints.arm(Point.PEEK, () -> bug);
        assertThatThrownBy(() -> q("SELECT count(*) FROM t")).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.INTERNAL_ERROR);
            assertThat(e.getMessage()).isEqualTo("internal error");
            assertThat(e.detail()).contains("while executing the statement").doesNotContain("boom", "java.");
            assertThat(e.hint()).doesNotContain("boom", "java.");
            assertThat(e.getCause()).isSameAs(bug);
        });
        assertFailedUntilRollback();
    }

    @Test
    void anErrorInAnImplicitTransactionLeavesTheSessionIdle() {
        FaultPoints.arm(Point.WRITE, () -> new OutOfMemoryError("Java heap space"));
        assertThatThrownBy(() -> q("INSERT INTO t VALUES (3)")).isInstanceOf(OutOfMemoryError.class);
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IDLE);
        FaultPoints.arm(Point.PEEK, () -> new OutOfMemoryError("Java heap space"));
        assertThatThrownBy(() -> q("SELECT count(*) FROM t")).isInstanceOf(OutOfMemoryError.class);
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IDLE);
        assertThat(q("SELECT count(*), max(a) FROM t")).containsExactly(List.of("2", "2"));
    }
}
