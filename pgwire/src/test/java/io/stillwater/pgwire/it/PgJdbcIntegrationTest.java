package io.stillwater.pgwire.it;

import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End-to-end tests through pgjdbc against a real engine and wire server: DDL, DML,
 * types in text and binary, prepared statements, queries, transactions, cancellation
 * and errors with their SQLSTATEs. Each test uses its own tables.
 */
class PgJdbcIntegrationTest {
    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    // ------------------------------------------------------------ helpers

    static List<List<String>> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<List<String>> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) row.add(rs.getString(i));
                out.add(row);
            }
            return out;
        }
    }

    static List<String> column(Connection c, String sql) throws SQLException {
        return rows(c, sql).stream().map(r -> r.get(0)).toList();
    }

    static String scalar(Connection c, String sql) throws SQLException {
        List<List<String>> r = rows(c, sql);
        assertThat(r).hasSize(1);
        return r.get(0).get(0);
    }

    static int update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    static void exec(Connection c, String... sqls) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : sqls) s.execute(sql);
        }
    }

    static void assertSqlState(String state, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(e.getMessage()).isEqualTo(state));
    }

    // ------------------------------------------------------------ DDL

    @Test
    void createAndDropTables() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE ddl_a (x integer NOT NULL, y text DEFAULT 'dflt')");
            exec(c, "CREATE TABLE IF NOT EXISTS ddl_a (z integer)");
            assertSqlState("42P07", () -> exec(c, "CREATE TABLE ddl_a (z integer)"));
            exec(c, "INSERT INTO ddl_a (x) VALUES (1)");
            assertThat(rows(c, "SELECT x, y FROM ddl_a")).containsExactly(List.of("1", "dflt"));
            exec(c, "DROP TABLE ddl_a");
            assertSqlState("42P01", () -> rows(c, "SELECT * FROM ddl_a"));
            exec(c, "DROP TABLE IF EXISTS ddl_a");
            assertSqlState("42P01", () -> exec(c, "DROP TABLE ddl_a"));
            assertSqlState("42704", () -> exec(c, "CREATE TABLE ddl_b (x nosuchtype)"));
            assertSqlState("42701", () -> exec(c, "CREATE TABLE ddl_b (x int, x int)"));
        }
    }

    @Test
    void tablesAndRowsSurviveRestart() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE durable (id bigint, name text)",
                    "INSERT INTO durable VALUES (1, 'one'), (2, 'two'), (3, NULL)",
                    "UPDATE durable SET name = 'TWO' WHERE id = 2",
                    "DELETE FROM durable WHERE id = 1",
                    "CREATE TABLE dropped_before_restart (x int)",
                    "DROP TABLE dropped_before_restart");
        }
        db.restart();
        try (Connection c = db.connect()) {
            assertThat(rows(c, "SELECT id, name FROM durable ORDER BY id"))
                    .containsExactly(List.of("2", "TWO"), Arrays.asList("3", null));
            assertSqlState("42P01", () -> rows(c, "SELECT * FROM dropped_before_restart"));
            exec(c, "INSERT INTO durable VALUES (4, 'four')");
            assertThat(scalar(c, "SELECT count(*) FROM durable")).isEqualTo("3");
        }
    }

    // ------------------------------------------------------------ DML

    @Test
    void dmlReturnsRowCounts() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE dml (k int, v int)");
            assertThat(update(c, "INSERT INTO dml VALUES (1, 10), (2, 20), (3, 30)")).isEqualTo(3);
            assertThat(update(c, "INSERT INTO dml SELECT k + 10, v FROM dml WHERE k >= 2")).isEqualTo(2);
            assertThat(update(c, "UPDATE dml SET v = v + 1 WHERE k > 2")).isEqualTo(3);
            assertThat(update(c, "UPDATE dml SET v = 0 WHERE k = 999")).isEqualTo(0);
            assertThat(update(c, "DELETE FROM dml WHERE v = 21")).isEqualTo(1);
            assertThat(rows(c, "SELECT k, v FROM dml ORDER BY k")).containsExactly(
                    List.of("1", "10"), List.of("2", "20"), List.of("3", "31"), List.of("13", "31"));
            assertThat(update(c, "DELETE FROM dml")).isEqualTo(4);
            assertThat(scalar(c, "SELECT count(*) FROM dml")).isEqualTo("0");
        }
    }

    @Test
    void duplicatesAreKeptAndDeletedTogether() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE bag (x int)");
            update(c, "INSERT INTO bag VALUES (1), (1), (1), (2)");
            assertThat(scalar(c, "SELECT count(*) FROM bag WHERE x = 1")).isEqualTo("3");
            assertThat(update(c, "UPDATE bag SET x = 5 WHERE x = 1")).isEqualTo(3);
            assertThat(column(c, "SELECT x FROM bag ORDER BY x")).containsExactly("2", "5", "5", "5");
        }
    }

    @Test
    void failedStatementsLeaveTheTableUnchanged() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE strict_t (a int NOT NULL, b varchar(3), c smallint)");
            exec(c, "INSERT INTO strict_t VALUES (1, 'abc', 1)");
            assertSqlState("23502", () -> exec(c, "INSERT INTO strict_t VALUES (2, 'x', 1), (NULL, 'y', 1)"));
            assertSqlState("22001", () -> exec(c, "INSERT INTO strict_t VALUES (3, 'abcd', 1)"));
            assertSqlState("22003", () -> exec(c, "INSERT INTO strict_t VALUES (4, 'a', 40000)"));
            assertSqlState("22P02", () -> exec(c, "INSERT INTO strict_t VALUES ('nope', 'a', 1)"));
            assertSqlState("22012", () -> exec(c, "UPDATE strict_t SET c = 1 / (a - 1)"));
            assertSqlState("23502", () -> exec(c, "UPDATE strict_t SET a = NULL"));
            assertThat(rows(c, "SELECT a, b, c FROM strict_t")).containsExactly(List.of("1", "abc", "1"));
        }
    }

    // ------------------------------------------------------------ types

    static final String TYPES_DDL = """
            CREATE TABLE %s (b boolean, i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision,
              n numeric(10,2), t text, vc varchar(10), ch char(4), d date, tm time, ts timestamp,
              tstz timestamptz, iv interval, by bytea)""";

    static final String TYPES_ROW = """
            INSERT INTO %s VALUES (true, -32768, 2147483647, -9223372036854775808, 1.5, 0.1,
              12345678.91, 'héllo wörld', 'varchar', 'ab', '2024-02-29', '13:04:05.25',
              '2024-01-31 13:04:05.5', '2024-01-31 13:04:05+02', '1 year 2 mons 3 days 04:05:06', decode('00ff10', 'hex'))""";

    @Test
    void everyTypeRoundTripsInTextFormat() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, TYPES_DDL.formatted("types_text"), TYPES_ROW.formatted("types_text"));
            exec(c, "INSERT INTO types_text (b) VALUES (NULL)");
            List<List<String>> r = rows(c, "SELECT * FROM types_text WHERE b");
            assertThat(r).containsExactly(List.of("t", "-32768", "2147483647", "-9223372036854775808", "1.5", "0.1",
                    "12345678.91", "héllo wörld", "varchar", "ab  ", "2024-02-29", "13:04:05.25",
                    "2024-01-31 13:04:05.5", "2024-01-31 11:04:05+00", "1 year 2 mons 3 days 04:05:06", "\\x00ff10"));
            assertThat(scalar(c, "SELECT count(*) FROM types_text WHERE b IS NULL AND i4 IS NULL")).isEqualTo("1");
        }
    }

    @Test
    void everyTypeRoundTripsInBinaryFormat() throws Exception {
        try (Connection c = db.connectBinary()) {
            exec(c, TYPES_DDL.formatted("types_bin"));
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO types_bin VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS time), ?, ?, CAST(? AS interval), ?)")) {
                ps.setBoolean(1, true);
                ps.setShort(2, (short) -32768);
                ps.setInt(3, Integer.MAX_VALUE);
                ps.setLong(4, Long.MIN_VALUE);
                ps.setFloat(5, 1.5f);
                ps.setDouble(6, 0.1);
                ps.setBigDecimal(7, new BigDecimal("12345678.91"));
                ps.setString(8, "héllo wörld");
                ps.setString(9, "varchar");
                ps.setString(10, "ab");
                ps.setDate(11, Date.valueOf(LocalDate.of(2024, 2, 29)));
                ps.setString(12, "13:04:05.25");
                ps.setTimestamp(13, Timestamp.valueOf(LocalDateTime.of(2024, 1, 31, 13, 4, 5, 500_000_000)));
                ps.setObject(14, OffsetDateTime.parse("2024-01-31T13:04:05+02:00"));
                ps.setString(15, "1 day 02:00:00");
                ps.setBytes(16, new byte[] {0, (byte) 0xff, 0x10});
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM types_bin WHERE i4 = ?")) {
                ps.setInt(1, Integer.MAX_VALUE);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBoolean(1)).isTrue();
                    assertThat(rs.getShort(2)).isEqualTo((short) -32768);
                    assertThat(rs.getInt(3)).isEqualTo(Integer.MAX_VALUE);
                    assertThat(rs.getLong(4)).isEqualTo(Long.MIN_VALUE);
                    assertThat(rs.getFloat(5)).isEqualTo(1.5f);
                    assertThat(rs.getDouble(6)).isEqualTo(0.1);
                    assertThat(rs.getBigDecimal(7)).isEqualByComparingTo("12345678.91");
                    assertThat(rs.getString(8)).isEqualTo("héllo wörld");
                    assertThat(rs.getString(9)).isEqualTo("varchar");
                    assertThat(rs.getString(10)).isEqualTo("ab  ");
                    assertThat(rs.getDate(11).toLocalDate()).isEqualTo(LocalDate.of(2024, 2, 29));
                    assertThat(rs.getString(12)).isEqualTo("13:04:05.25");
                    assertThat(rs.getTimestamp(13).toLocalDateTime()).isEqualTo(LocalDateTime.of(2024, 1, 31, 13, 4, 5, 500_000_000));
                    assertThat(rs.getObject(14, OffsetDateTime.class).toInstant())
                            .isEqualTo(Instant.parse("2024-01-31T11:04:05Z"));
                    assertThat(rs.getString(15)).isEqualTo("1 day 02:00:00");
                    assertThat(rs.getBytes(16)).containsExactly(0, 0xff, 0x10);
                    assertThat(rs.next()).isFalse();
                }
            }
        }
    }

    // ------------------------------------------------------------ prepared statements

    @Test
    void preparedStatementsWithParameters() throws Exception {
        try (Connection c = db.connectBinary()) {
            exec(c, "CREATE TABLE prep (id int, name text, amount numeric(8,2), day date)");
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO prep VALUES (?, ?, ?, ?)")) {
                for (int i = 1; i <= 50; i++) {
                    ins.setInt(1, i);
                    if (i % 10 == 0) ins.setNull(2, Types.VARCHAR); else ins.setString(2, "name" + i);
                    ins.setBigDecimal(3, BigDecimal.valueOf(i * 100 + 25, 2));
                    ins.setDate(4, Date.valueOf(LocalDate.of(2024, 1, 1).plusDays(i)));
                    assertThat(ins.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement q = c.prepareStatement(
                    "SELECT name, amount FROM prep WHERE id = ? OR (name = ? AND day > ?)")) {
                for (int i = 1; i <= 20; i++) {
                    q.setInt(1, i);
                    q.setString(2, "name49");
                    q.setDate(3, Date.valueOf("2024-01-02"));
                    List<String> names = new ArrayList<>();
                    try (ResultSet rs = q.executeQuery()) {
                        while (rs.next()) names.add(rs.getString(1));
                    }
                    assertThat(names).containsExactlyInAnyOrder(i % 10 == 0 ? null : "name" + i, "name49");
                }
            }
            try (PreparedStatement q = c.prepareStatement("SELECT count(*) FROM prep WHERE name IS NULL AND amount > ?")) {
                q.setBigDecimal(1, new BigDecimal("15.00"));
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(4);
                }
            }
        }
    }

    @Test
    void fetchSizeReadsInPortionsInsideATransaction() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE fetched (x int)", "INSERT INTO fetched SELECT g FROM generate_series(1, 1000) g");
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(7);
                long sum = 0;
                int n = 0;
                try (ResultSet rs = s.executeQuery("SELECT x FROM fetched")) {
                    while (rs.next()) {
                        sum += rs.getInt(1);
                        n++;
                    }
                }
                assertThat(n).isEqualTo(1000);
                assertThat(sum).isEqualTo(500500);
            }
            c.commit();
        }
    }

    // ------------------------------------------------------------ queries

    @Test
    void joinsSubqueriesAggregatesAndSetOperations() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE emp (id int, name text, dept int, salary int)",
                    "CREATE TABLE dept (id int, dname text)",
                    "INSERT INTO emp VALUES (1,'ann',10,100),(2,'bob',10,200),(3,'cid',20,300),(4,'dee',NULL,400)",
                    "INSERT INTO dept VALUES (10,'eng'),(20,'ops'),(30,'hr')");
            assertThat(rows(c, "SELECT e.name, d.dname FROM emp e JOIN dept d ON e.dept = d.id ORDER BY e.name"))
                    .containsExactly(List.of("ann", "eng"), List.of("bob", "eng"), List.of("cid", "ops"));
            assertThat(column(c, "SELECT coalesce(d.dname, '-') FROM emp e LEFT JOIN dept d ON e.dept = d.id ORDER BY e.id"))
                    .containsExactly("eng", "eng", "ops", "-");
            assertThat(column(c, "SELECT coalesce(e.name, '-') FROM emp e RIGHT JOIN dept d ON e.dept = d.id ORDER BY d.id, e.name"))
                    .containsExactly("ann", "bob", "cid", "-");
            assertThat(scalar(c, "SELECT count(*) FROM emp e FULL JOIN dept d ON e.dept = d.id")).isEqualTo("5");
            assertThat(scalar(c, "SELECT count(*) FROM emp CROSS JOIN dept")).isEqualTo("12");
            assertThat(scalar(c, "SELECT count(*) FROM emp e JOIN dept d ON e.salary > d.id * 10")).isEqualTo("6");
            assertThat(column(c, "SELECT name FROM emp WHERE dept IN (SELECT id FROM dept WHERE dname <> 'eng') ORDER BY 1"))
                    .containsExactly("cid");
            assertThat(column(c, "SELECT dname FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.id)"))
                    .containsExactly("hr");
            assertThat(column(c, "SELECT name FROM emp e WHERE salary > (SELECT avg(salary) FROM emp e2 WHERE e2.dept = e.dept) ORDER BY 1"))
                    .containsExactly("bob");
            assertThat(scalar(c, "SELECT (SELECT max(salary) FROM emp) - (SELECT min(salary) FROM emp)")).isEqualTo("300");
            assertThat(rows(c, "SELECT dept, count(*), sum(salary), min(name), max(name) FROM emp GROUP BY dept HAVING count(*) >= 1 ORDER BY dept NULLS FIRST"))
                    .containsExactly(Arrays.asList(null, "1", "400", "dee", "dee"),
                            List.of("10", "2", "300", "ann", "bob"), List.of("20", "1", "300", "cid", "cid"));
            assertThat(scalar(c, "SELECT avg(salary) FROM emp")).isEqualTo("250.0000000000000000");
            assertThat(scalar(c, "SELECT count(DISTINCT dept) FROM emp")).isEqualTo("2");
            assertThat(scalar(c, "SELECT string_agg(name, ',' ORDER BY name) FROM emp")).isEqualTo("ann,bob,cid,dee");
            assertThat(rows(c, "SELECT bool_and(salary > 50), bool_or(salary > 350) FROM emp")).containsExactly(List.of("t", "t"));
            assertThat(column(c, "SELECT dept FROM emp UNION SELECT id FROM dept ORDER BY 1 NULLS LAST"))
                    .containsExactly("10", "20", "30", null);
            assertThat(scalar(c, "SELECT count(*) FROM (SELECT dept FROM emp UNION ALL SELECT id FROM dept) u")).isEqualTo("7");
            assertThat(column(c, "SELECT id FROM dept EXCEPT SELECT dept FROM emp")).containsExactly("30");
            assertThat(column(c, "SELECT dept FROM emp INTERSECT SELECT id FROM dept ORDER BY 1")).containsExactly("10", "20");
            assertThat(column(c, "SELECT dept FROM emp EXCEPT ALL SELECT 10 ORDER BY 1 NULLS FIRST"))
                    .containsExactly(null, "10", "20");
            assertThat(column(c, "SELECT name FROM emp ORDER BY salary DESC LIMIT 2 OFFSET 1")).containsExactly("cid", "bob");
            assertThat(column(c, "SELECT DISTINCT dept FROM emp ORDER BY dept DESC")).containsExactly(null, "20", "10");
        }
    }

    @Test
    void expressionsWithoutTables() throws Exception {
        try (Connection c = db.connect()) {
            assertThat(scalar(c, "SELECT 7 / 2")).isEqualTo("3");
            assertThat(scalar(c, "SELECT '42'::int + 1")).isEqualTo("43");
            assertThat(scalar(c, "SELECT CASE WHEN 1 > 2 THEN 'a' ELSE 'b' END")).isEqualTo("b");
            assertThat(scalar(c, "SELECT coalesce(NULL, nullif(3, 3), 5)")).isEqualTo("5");
            assertThat(scalar(c, "SELECT upper('abc') || lower('DEF') || length('héllo')")).isEqualTo("ABCdef5");
            assertThat(scalar(c, "SELECT date '2024-01-31' + 1")).isEqualTo("2024-02-01");
            assertThat(scalar(c, "SELECT abs(-4) + round(2.5)")).isEqualTo("7");
            assertThat(scalar(c, "SELECT sum(g) FROM generate_series(1, 100) AS g")).isEqualTo("5050");
            assertThat(scalar(c, "SELECT count(*) FROM (VALUES (1, 'a'), (2, 'b')) AS v(x, y)")).isEqualTo("2");
            assertThat(scalar(c, "SELECT NULL = NULL")).isNull();
        }
    }

    // ------------------------------------------------------------ transactions

    @Test
    void readOnlyTransactionsReadAtOneTimestamp() throws Exception {
        try (Connection reader = db.connect(); Connection writer = db.connect()) {
            exec(writer, "CREATE TABLE txn_r (x int)", "INSERT INTO txn_r VALUES (1)");
            reader.setAutoCommit(false);
            assertThat(scalar(reader, "SELECT count(*) FROM txn_r")).isEqualTo("1");
            exec(writer, "INSERT INTO txn_r VALUES (2)");
            assertThat(scalar(reader, "SELECT count(*) FROM txn_r")).isEqualTo("1");
            reader.commit();
            assertThat(scalar(reader, "SELECT count(*) FROM txn_r")).isEqualTo("2");
        }
    }

    @Test
    void writeTransactionsCommitAtomicallyOrRollBack() throws Exception {
        try (Connection c = db.connect(); Connection other = db.connect()) {
            exec(c, "CREATE TABLE txn_w (x int)");
            c.setAutoCommit(false);
            exec(c, "INSERT INTO txn_w VALUES (1)", "INSERT INTO txn_w VALUES (2)");
            assertThat(scalar(other, "SELECT count(*) FROM txn_w")).isEqualTo("0");
            c.rollback();
            assertThat(scalar(other, "SELECT count(*) FROM txn_w")).isEqualTo("0");
            exec(c, "INSERT INTO txn_w VALUES (1)", "INSERT INTO txn_w VALUES (2)");
            c.commit();
            assertThat(scalar(other, "SELECT count(*) FROM txn_w")).isEqualTo("2");
        }
    }

    @Test
    void anErrorAbortsTheTransactionUntilRollback() throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            assertSqlState("22012", () -> scalar(c, "SELECT 1 / 0"));
            assertSqlState("25P02", () -> scalar(c, "SELECT 1"));
            c.rollback();
            assertThat(scalar(c, "SELECT 1")).isEqualTo("1");
            c.commit();
        }
    }

    // ------------------------------------------------------------ cancellation

    static final String SLOW_QUERY =
            "SELECT count(*) FROM generate_series(1, 20000) a, generate_series(1, 20000) b WHERE a + b = 7";

    @Test
    void cancelStopsARunningStatement() throws Exception {
        ScheduledExecutorService canceller = Executors.newSingleThreadScheduledExecutor();
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rs = s.executeQuery(SLOW_QUERY)) {
                    return rs.next() ? rs.getString(1) : null;
                } catch (SQLException e) {
                    return e;
                }
            });
            // Cancel repeatedly until the statement has ended: a cancel that arrives
            // before execution starts is a no-op, as in PostgreSQL.
            canceller.scheduleWithFixedDelay(() -> {
                try {
                    s.cancel();
                } catch (SQLException ignored) {
                    // the next attempt retries
                }
            }, 50, 50, TimeUnit.MILLISECONDS);
            Object outcome = run.get(60, TimeUnit.SECONDS);
            assertThat(outcome).isInstanceOf(SQLException.class);
            assertThat(((SQLException) outcome).getSQLState()).isEqualTo("57014");
            canceller.shutdownNow();
            assertThat(scalar(c, "SELECT 1")).isEqualTo("1");
        } finally {
            canceller.shutdownNow();
        }
    }

    @Test
    void statementTimeoutCancels() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "SET statement_timeout = '100ms'");
            assertSqlState("57014", () -> scalar(c, SLOW_QUERY));
            exec(c, "SET statement_timeout = 0");
            assertThat(scalar(c, "SELECT 2")).isEqualTo("2");
        }
    }

    // ------------------------------------------------------------ errors

    @Test
    void errorsCarryPostgresSqlStates() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "CREATE TABLE err_t (a int)");
            assertSqlState("22012", () -> scalar(c, "SELECT 1 / 0"));
            assertSqlState("22003", () -> scalar(c, "SELECT 2147483647 + 1"));
            assertSqlState("22P02", () -> scalar(c, "SELECT 'abc'::int"));
            assertSqlState("42P01", () -> scalar(c, "SELECT * FROM no_such_table"));
            assertSqlState("42703", () -> scalar(c, "SELECT no_such_column FROM err_t"));
            assertSqlState("42601", () -> scalar(c, "SELEKT 1"));
            assertSqlState("42883", () -> scalar(c, "SELECT no_such_function(1)"));
            assertSqlState("0A000", () -> exec(c, "CREATE TRIGGER t AFTER INSERT ON err_t EXECUTE FUNCTION f()"));
            assertSqlState("42704", () -> exec(c, "SET no_such_parameter = 1"));
            // the connection is still usable after every error
            assertThat(scalar(c, "SELECT 1")).isEqualTo("1");
        }
    }

    @Test
    void setAndShowSessionParameters() throws Exception {
        try (Connection c = db.connect()) {
            exec(c, "SET application_name = 'itest'");
            assertThat(scalar(c, "SHOW application_name")).isEqualTo("itest");
            assertThat(scalar(c, "SHOW transaction_isolation")).isEqualTo("strict serializable");
            exec(c, "SET transaction_isolation = 'serializable'");
            assertThat(scalar(c, "SHOW transaction_isolation")).isEqualTo("serializable");
            exec(c, "RESET transaction_isolation");
            assertThat(scalar(c, "SHOW transaction_isolation")).isEqualTo("strict serializable");
        }
    }
}
