package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Read-write transaction blocks through the Session API: reads see the block's own
 * writes, other sessions see nothing before COMMIT, ROLLBACK and ROLLBACK TO SAVEPOINT
 * discard, COMMIT validates the block's reads (40001 on a concurrent change), READ ONLY
 * refuses writes (25006), and the status follows PostgreSQL's state machine.
 */
class ReadWriteTransactionTest extends SessionTestBase {
    private Session other() { return engine.connect("materialize", "materialize", Map.of()); }

    private void setUp() {
        s.execute("CREATE TABLE acct (id int, bal int)");
        s.execute("INSERT INTO acct VALUES (1, 100), (2, 50)");
    }

    @Test
    void readsThenWritesThenReadsSeeTheBlocksOwnWritesOnly() {
        setUp();
        s.execute("BEGIN");
        assertThat(q("SELECT sum(bal) FROM acct")).containsExactly(List.of("150"));
        assertThat(tag("INSERT INTO acct VALUES (3, 10)")).isEqualTo("INSERT 0 1");
        assertThat(tag("UPDATE acct SET bal = bal + 1 WHERE id = 1")).isEqualTo("UPDATE 1");
        assertThat(tag("DELETE FROM acct WHERE id = 2")).isEqualTo("DELETE 1");
        assertThat(tag("UPDATE acct SET bal = bal * 2 WHERE id = 3")).isEqualTo("UPDATE 1");
        assertThat(q("SELECT id, bal FROM acct ORDER BY id")).containsExactly(List.of("1", "101"), List.of("3", "20"));
        try (Session o = other()) {
            assertThat(rows(o.execute("SELECT id, bal FROM acct ORDER BY id")))
                    .containsExactly(List.of("1", "100"), List.of("2", "50"));
        }
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IN_TRANSACTION);
        assertThat(tag("COMMIT")).isEqualTo("COMMIT");
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IDLE);
        try (Session o = other()) {
            assertThat(rows(o.execute("SELECT id, bal FROM acct ORDER BY id")))
                    .containsExactly(List.of("1", "101"), List.of("3", "20"));
        }
    }

    @Test
    void rollbackDiscardsEveryWrite() {
        setUp();
        s.execute("BEGIN");
        s.execute("UPDATE acct SET bal = 0");
        s.execute("INSERT INTO acct SELECT id + 10, bal FROM acct");
        assertThat(q("SELECT count(*), sum(bal) FROM acct")).containsExactly(List.of("4", "0"));
        assertThat(tag("ROLLBACK")).isEqualTo("ROLLBACK");
        assertThat(q("SELECT count(*), sum(bal) FROM acct")).containsExactly(List.of("2", "150"));
    }

    @Test
    void aConcurrentIncrementFailsTheLaterCommitWith40001() {
        setUp();
        try (Session o = other()) {
            s.execute("BEGIN");
            o.execute("BEGIN");
            s.execute("UPDATE acct SET bal = bal + 1 WHERE id = 1");
            o.execute("UPDATE acct SET bal = bal + 1 WHERE id = 1");
            assertThat(tag("COMMIT")).isEqualTo("COMMIT");
            assertThatState("40001", () -> o.execute("COMMIT"));
            assertThat(o.transactionStatus()).isEqualTo(TransactionStatus.IDLE);
            // The retry sees the first increment: none is lost.
            o.execute("BEGIN");
            o.execute("UPDATE acct SET bal = bal + 1 WHERE id = 1");
            o.execute("COMMIT");
        }
        assertThat(q("SELECT bal FROM acct WHERE id = 1")).containsExactly(List.of("102"));
    }

    @Test
    void aBlockThatOnlyInsertsBlindlyNeverConflicts() {
        setUp();
        try (Session o = other()) {
            s.execute("BEGIN");
            s.execute("INSERT INTO acct VALUES (5, 5)");
            o.execute("UPDATE acct SET bal = 0 WHERE id = 1");
            assertThat(tag("COMMIT")).isEqualTo("COMMIT");
        }
        assertThat(q("SELECT count(*) FROM acct")).containsExactly(List.of("3"));
    }

    @Test
    void readOnlyBlocksRefuseWritesWith25006() {
        setUp();
        s.execute("BEGIN READ ONLY");
        assertThat(q("SHOW transaction_read_only")).containsExactly(List.of("on"));
        assertState("25006", "INSERT INTO acct VALUES (9, 9)");
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.FAILED);
        s.execute("ROLLBACK");
        s.execute("BEGIN");
        s.execute("SET TRANSACTION READ ONLY");
        assertState("25006", "DELETE FROM acct");
        s.execute("ROLLBACK");
        assertThat(q("SHOW transaction_read_only")).containsExactly(List.of("off"));
        s.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ WRITE");
        assertThat(q("SHOW transaction_isolation")).containsExactly(List.of("repeatable read"));
        assertThat(tag("DELETE FROM acct WHERE id = 2")).isEqualTo("DELETE 1");
        s.execute("COMMIT");
        assertThat(q("SELECT count(*) FROM acct")).containsExactly(List.of("1"));
    }

    @Test
    void savepointsUndoTheWritesAfterThemAndClearAFailure() {
        setUp();
        s.execute("BEGIN");
        s.execute("INSERT INTO acct VALUES (3, 3)");
        assertThat(tag("SAVEPOINT a")).isEqualTo("SAVEPOINT");
        s.execute("INSERT INTO acct VALUES (4, 4)");
        assertState("22012", "INSERT INTO acct VALUES (5, 1 / 0)");
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.FAILED);
        assertThat(tag("ROLLBACK TO SAVEPOINT a")).isEqualTo("ROLLBACK");
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.IN_TRANSACTION);
        assertThat(q("SELECT id FROM acct ORDER BY id")).containsExactly(List.of("1"), List.of("2"), List.of("3"));
        s.execute("SAVEPOINT b");
        s.execute("INSERT INTO acct VALUES (6, 6)");
        assertThat(tag("RELEASE SAVEPOINT b")).isEqualTo("RELEASE");
        assertState("3B001", "ROLLBACK TO b");
        s.execute("ROLLBACK TO a");
        s.execute("COMMIT");
        assertThat(q("SELECT id FROM acct ORDER BY id")).containsExactly(List.of("1"), List.of("2"), List.of("3"));
        assertState("25P01", "SAVEPOINT c");
    }

    @Test
    void cursorsFetchForwardInPiecesAndCloseWithTheBlock() {
        s.execute("CREATE TABLE big (n int)");
        s.execute("INSERT INTO big SELECT * FROM generate_series(1, 5000)");
        assertState("25P01", "DECLARE c CURSOR FOR SELECT n FROM big");
        s.execute("BEGIN");
        assertThat(tag("DECLARE c CURSOR FOR SELECT n FROM big ORDER BY n")).isEqualTo("DECLARE CURSOR");
        assertState("42P03", "DECLARE c CURSOR FOR SELECT 1");
        s.execute("ROLLBACK");
        s.execute("BEGIN");
        s.execute("DECLARE c NO SCROLL CURSOR WITHOUT HOLD FOR SELECT n FROM big ORDER BY n");
        assertThat(q("FETCH 3 FROM c")).containsExactly(List.of("1"), List.of("2"), List.of("3"));
        assertThat(q("FETCH NEXT c")).containsExactly(List.of("4"));
        assertThat(tag("MOVE FORWARD 1000 IN c")).isEqualTo("MOVE 1000");
        assertThat(q("FETCH FORWARD 2 FROM c")).containsExactly(List.of("1005"), List.of("1006"));
        assertThat(tag("FETCH ALL FROM c")).isEqualTo("FETCH 3994");
        assertThat(tag("FETCH c")).isEqualTo("FETCH 0");
        assertState("55000", "FETCH BACKWARD 1 FROM c");
        s.execute("ROLLBACK");
        s.execute("BEGIN");
        s.execute("INSERT INTO big VALUES (0)");
        s.execute("DECLARE d CURSOR FOR SELECT min(n) FROM big");
        assertThat(q("FETCH 1 FROM d")).containsExactly(List.of("0")); // the block's own write
        assertThat(tag("CLOSE d")).isEqualTo("CLOSE CURSOR");
        assertState("34000", "FETCH 1 FROM d");
        s.execute("ROLLBACK");
        s.execute("BEGIN");
        s.execute("DECLARE e CURSOR FOR SELECT n FROM big");
        s.execute("COMMIT");
        assertState("34000", "FETCH 1 FROM e");
    }

    @Test
    void aWithHoldCursorOutlivesItsCommittedBlockButNotAFailedCommit() {
        setUp();
        s.execute("BEGIN");
        s.execute("DECLARE kept CURSOR WITH HOLD FOR SELECT id FROM acct ORDER BY id");
        assertThat(q("FETCH 1 FROM kept")).containsExactly(List.of("1"));
        s.execute("COMMIT");
        assertThat(q("FETCH ALL FROM kept")).containsExactly(List.of("2"));
        try (Session o = other()) {
            s.execute("BEGIN");
            s.execute("UPDATE acct SET bal = 0 WHERE id = 2");
            s.execute("DECLARE lost CURSOR WITH HOLD FOR SELECT id FROM acct");
            o.execute("UPDATE acct SET bal = 1 WHERE id = 1");
            assertThatState("40001", () -> s.execute("COMMIT"));
        }
        assertState("34000", "FETCH 1 FROM lost");
        assertThat(tag("CLOSE kept")).isEqualTo("CLOSE CURSOR");
    }

    @Test
    void aFetchTimesOutByItsOwnStatementTimeout() {
        s.execute("CREATE TABLE xa (x int)");
        s.execute("CREATE TABLE xb (y int)");
        s.execute("INSERT INTO xa SELECT * FROM generate_series(1, 4000)");
        s.execute("INSERT INTO xb SELECT * FROM generate_series(1, 4000)");
        s.execute("BEGIN");
        s.execute("DECLARE pairs CURSOR FOR SELECT x, y FROM xa, xb"); // 16M rows, produced only as fetched
        assertThat(q("FETCH 2 FROM pairs")).hasSize(2);
        s.execute("SET statement_timeout = '50ms'");
        assertState("57014", "MOVE ALL IN pairs");
        assertThat(s.transactionStatus()).isEqualTo(TransactionStatus.FAILED);
        s.execute("ROLLBACK");
        s.execute("RESET statement_timeout");
    }

    private static void assertThatState(String state, Runnable r) {
        org.assertj.core.api.Assertions.assertThatThrownBy(r::run)
                .isInstanceOf(io.stillwater.engine.error.SqlException.class)
                .satisfies(e -> assertThat(((io.stillwater.engine.error.SqlException) e).state().code())
                        .as(e.getMessage()).isEqualTo(state));
    }
}
