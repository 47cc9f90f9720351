package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Session#executeImmediate}: a fast-path lookup outside a transaction block runs at
 * once with the rows and errors of {@link Session#execute}; everything else is declined
 * (null) without a trace, and a declined statement then runs normally. It never reads
 * older data than {@code execute} would (strict serializable).
 */
class ImmediateReadsTest extends SessionTestBase {
    private static final List<SqlType> INT = List.of(SqlType.INTEGER);

    @BeforeEach
    void data() {
        s.execute("CREATE TABLE t (a int, b int)");
        s.execute("CREATE INDEX t_a ON t (a)");
        s.execute("INSERT INTO t SELECT g, g * 10 FROM generate_series(1, 100) g");
        s.execute("INSERT INTO t VALUES (0, 0)");
        s.execute("INSERT INTO t SELECT -1, g FROM generate_series(1, 300) g"); // more than an immediate read may visit
    }

    @Test
    void aLookupRunsAtOnceWithTheRowsOfExecute() {
        PreparedStatement lookup = s.prepare("SELECT b FROM t WHERE a = $1", INT);
        for (int key = 1; key <= 100; key++) {
            ExecutionResult now = s.executeImmediate(lookup, List.of(key));
            assertThat(now).as("key %d", key).isNotNull();
            assertThat(rows(now)).isEqualTo(rows(s.execute(lookup, List.of(key)))).containsExactly(List.of(Integer.toString(key * 10)));
        }
        assertThat(rows(s.executeImmediate(lookup, List.of(1000)))).isEmpty();
    }

    @Test
    void anEvaluationErrorIsExecutesError() {
        PreparedStatement div = s.prepare("SELECT 10 / b FROM t WHERE a = $1", INT);
        SqlException immediate = catchSql(() -> s.executeImmediate(div, List.of(0)));
        SqlException ordinary = catchSql(() -> s.execute(div, List.of(0)));
        assertThat(immediate.state().code()).isEqualTo("22012");
        assertThat(immediate.getMessage()).isEqualTo(ordinary.getMessage());
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IDLE);
    }

    @Test
    void everyOtherStatementIsDeclinedAndThenRunsNormally() {
        PreparedStatement many = s.prepare("SELECT b FROM t WHERE a = $1", INT);
        PreparedStatement walk = s.prepare("SELECT b FROM t WHERE b > $1", INT);
        PreparedStatement count = s.prepare("SELECT count(*) FROM t", List.of());
        PreparedStatement series = s.prepare("SELECT count(*) FROM generate_series(1, 10)", List.of());
        PreparedStatement insert = s.prepare("INSERT INTO t VALUES ($1, 1)", INT);

        assertThat(s.executeImmediate(many, List.of(-1))).as("300 rows under the key").isNull();
        assertThat(s.executeImmediate(walk, List.of(0))).as("walk").isNull();
        assertThat(s.executeImmediate(count, List.of())).as("peek dataflow").isNull();
        assertThat(s.executeImmediate(series, List.of())).as("constant").isNull();
        assertThat(s.executeImmediate(insert, List.of(5000))).as("write").isNull();
        assertThat(q("SELECT count(*) FROM t WHERE a = 5000")).containsExactly(List.of("0"));

        assertThat(rows(s.execute(many, List.of(-1)))).hasSize(300);
        assertThat(rows(s.execute(count, List.of()))).containsExactly(List.of("401"));

        PreparedStatement lookup = s.prepare("SELECT b FROM t WHERE a = $1", INT);
        s.execute("BEGIN");
        assertThat(s.executeImmediate(lookup, List.of(1))).as("inside BEGIN").isNull();
        assertThat(rows(s.execute(lookup, List.of(1)))).containsExactly(List.of("10"));
        s.execute("COMMIT");
        assertThat(s.executeImmediate(lookup, List.of(1))).isNotNull();
    }

    /**
     * Right after a write the index may not have caught up with the read timestamp yet:
     * then the immediate read is declined (it never waits), and never reads without the
     * write. Many rounds, to meet the index both behind and caught up.
     */
    @Test
    void rightAfterAWriteItDeclinesOrSeesTheWrite() {
        PreparedStatement insert = s.prepare("INSERT INTO t VALUES ($1, $1)", INT);
        PreparedStatement lookup = s.prepare("SELECT b FROM t WHERE a = $1", INT);
        for (int key = 10_000; key < 10_300; key++) {
            s.execute(insert, List.of(key));
            ExecutionResult now = s.executeImmediate(lookup, List.of(key));
            if (now == null) now = s.execute(lookup, List.of(key));
            assertThat(rows(now)).as("key %d", key).containsExactly(List.of(Integer.toString(key)));
        }
    }

    private static SqlException catchSql(Runnable r) {
        try {
            r.run();
        } catch (SqlException e) {
            return e;
        }
        throw new AssertionError("expected a SqlException");
    }
}
