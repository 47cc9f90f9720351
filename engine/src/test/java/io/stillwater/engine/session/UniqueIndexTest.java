package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** CREATE UNIQUE INDEX enforced where writes are sequenced: concurrent writers, COPY, restart. */
class UniqueIndexTest extends SessionTestBase {

    @Test
    void twoSessionsInsertingTheSameKeyExactlyOneSucceeds() throws Exception {
        s.execute("CREATE TABLE k (id INT, who TEXT)");
        s.execute("CREATE UNIQUE INDEX k_id ON k (id)");
        Session other = engine.connect("materialize", "materialize", Map.of());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int iterations = 200;
            for (int i = 0; i < iterations; i++) {
                CountDownLatch go = new CountDownLatch(1);
                String sql = "INSERT INTO k VALUES (" + i + ", '%s')";
                List<Future<Boolean>> results = new ArrayList<>();
                for (Session session : List.of(s, other)) {
                    results.add(pool.submit(() -> {
                        go.await();
                        try {
                            session.execute(sql.formatted(session == s ? "a" : "b"));
                            return true;
                        } catch (SqlException e) {
                            assertThat(e.state().code()).isEqualTo("23505");
                            return false;
                        }
                    }));
                }
                go.countDown();
                int succeeded = 0;
                for (Future<Boolean> f : results) if (f.get()) succeeded++;
                assertThat(succeeded).as("iteration %d", i).isEqualTo(1);
            }
            assertThat(q("SELECT count(*), count(DISTINCT id) FROM k")).containsExactly(List.of("200", "200"));
        } finally {
            pool.shutdownNow();
            other.close();
        }
    }

    @Test
    void violationsNameTheConstraintAndKeyAndWriteNothing() {
        s.execute("CREATE TABLE t (a INT, b TEXT)");
        s.execute("INSERT INTO t VALUES (1, 'x')");
        s.execute("CREATE UNIQUE INDEX t_ab ON t (a, b)");
        assertThatThrownBy(() -> s.execute("INSERT INTO t VALUES (2, 'y'), (1, 'x')"))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state().code()).isEqualTo("23505");
                    assertThat(e.getMessage()).isEqualTo("duplicate key value violates unique constraint \"t_ab\"");
                    assertThat(e.detail()).isEqualTo("Key (a, b)=(1, x) already exists.");
                });
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("1"));
        s.execute("INSERT INTO t VALUES (1, NULL), (1, NULL)"); // NULLs are distinct
        s.execute("INSERT INTO t SELECT a + 10, b FROM t");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("6"));
    }

    @Test
    void buildingOverDuplicatesFails() {
        s.execute("CREATE TABLE t (a INT)");
        s.execute("INSERT INTO t VALUES (1), (2), (2)");
        assertThatThrownBy(() -> s.execute("CREATE UNIQUE INDEX t_a ON t (a)"))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state().code()).isEqualTo("23505");
                    assertThat(e.getMessage()).isEqualTo("could not create unique index \"t_a\"");
                    assertThat(e.detail()).isEqualTo("Key (a)=(2) is duplicated.");
                });
        assertThat(q("SELECT count(*) FROM mz_catalog.mz_indexes WHERE name = 't_a'")).containsExactly(List.of("0"));
        assertState("0A000", "CREATE UNIQUE INDEX t_expr ON t (a + 1)");
        s.execute("CREATE VIEW v AS SELECT a FROM t");
        assertState("42809", "CREATE UNIQUE INDEX v_a ON v (a)");
    }

    @Test
    void copyIsCheckedAsOneWrite() {
        s.execute("CREATE TABLE t (a INT)");
        s.execute("CREATE UNIQUE INDEX t_a ON t (a)");
        ExecutionResult.CopyIn copy = (ExecutionResult.CopyIn) s.execute("COPY t FROM STDIN");
        copy.target().data("1\n2\n3\n2\n".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> copy.target().done()).isInstanceOfSatisfying(SqlException.class,
                e -> assertThat(e.state().code()).isEqualTo("23505"));
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("0"));
    }

    @Test
    void theConstraintSurvivesARestart() {
        s.execute("CREATE TABLE t (a INT)");
        s.execute("CREATE UNIQUE INDEX t_a ON t (a)");
        s.execute("INSERT INTO t VALUES (1)");
        reopen();
        assertState("23505", "INSERT INTO t VALUES (1)");
        s.execute("INSERT INTO t VALUES (2)");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("2"));
    }
}
