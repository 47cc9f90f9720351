package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.DatumText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Session API end to end inside the engine (no wire): plan, execute, transactions. */
class EngineSessionTest extends SessionTestBase {
    @Test
    void createInsertSelectUpdateDelete() {
        assertThat(tag("CREATE TABLE t (a int NOT NULL, b text DEFAULT 'x')")).isEqualTo("CREATE TABLE");
        assertThat(tag("INSERT INTO t VALUES (1, 'one'), (2, 'two')")).isEqualTo("INSERT 0 2");
        assertThat(tag("INSERT INTO t (a) VALUES (3)")).isEqualTo("INSERT 0 1");
        assertThat(q("SELECT a, b FROM t ORDER BY a")).containsExactly(
                List.of("1", "one"), List.of("2", "two"), List.of("3", "x"));
        assertThat(tag("UPDATE t SET b = upper(b) WHERE a >= 2")).isEqualTo("UPDATE 2");
        assertThat(tag("DELETE FROM t WHERE a = 1")).isEqualTo("DELETE 1");
        assertThat(q("SELECT a, b FROM t ORDER BY a")).containsExactly(List.of("2", "TWO"), List.of("3", "X"));
        assertThat(tag("INSERT INTO t SELECT a * 10, b FROM t")).isEqualTo("INSERT 0 2");
        assertThat(q("SELECT count(*), sum(a) FROM t")).containsExactly(List.of("4", "55"));
    }

    @Test
    void tablesCreatedEarlierStayReadableAfterLaterDdl() {
        s.execute("CREATE TABLE first (a int)");
        s.execute("CREATE TABLE second (a int)");
        s.execute("DROP TABLE second");
        assertThat(q("SELECT count(*) FROM first")).containsExactly(List.of("0"));
    }

    @Test
    void intervalColumnsAndParameters() {
        s.execute("CREATE TABLE iv (a interval)");
        s.execute("INSERT INTO iv VALUES ('1 year 2 mons 3 days 04:05:06'), (interval '2 hours')");
        assertThat(q("SELECT a FROM iv ORDER BY a")).containsExactly(
                List.of("02:00:00"), List.of("1 year 2 mons 3 days 04:05:06"));
        PreparedStatement ps = s.prepare("SELECT CAST($1 AS interval)", List.of());
        ExecutionResult.Rows r = (ExecutionResult.Rows) s.execute(ps, List.of("1 day 02:00:00"));
        assertThat(r.rows()).hasSize(1);
    }

    @Test
    void byteaValuesRoundTrip() {
        s.execute("CREATE TABLE blobs (b bytea)");
        s.execute("INSERT INTO blobs VALUES (decode('00ff10', 'hex'))");
        assertThat(q("SELECT b, length(b) FROM blobs")).containsExactly(List.of("\\x00ff10", "3"));
    }

    @Test
    void sqliteExtensionsAreUnsupportedWithAReason() {
        s.execute("CREATE TABLE ext (a int)");
        assertState("0A000", "INSERT OR REPLACE INTO ext VALUES (1)");
        assertState("0A000", "SELECT 1 IN ()");
        assertState("0A000", "SELECT a FROM ext WHERE a NOT IN ( )");
        // a plain syntax error stays one
        assertState("42601", "SELECT 1 IN (");
    }

    @Test
    void errorsHaveSqlStates() {
        s.execute("CREATE TABLE e (a int NOT NULL)");
        assertState("23502", "INSERT INTO e VALUES (NULL)");
        assertState("22012", "SELECT 1 / 0");
        assertState("42P01", "SELECT * FROM nope");
        assertState("42703", "SELECT nope FROM e");
        assertState("42601", "SELEC 1");
        assertThat(q("SELECT count(*) FROM e")).containsExactly(List.of("0"));
    }

    @Test
    void parametersBindAtExecution() {
        s.execute("CREATE TABLE p (a int, b text)");
        s.execute("INSERT INTO p VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        PreparedStatement ps = s.prepare("SELECT b FROM p WHERE a = $1", List.of());
        assertThat(ps.paramTypes()).hasSize(1);
        ExecutionResult.Rows r = (ExecutionResult.Rows) s.execute(ps, List.of(2));
        assertThat(r.rows()).containsExactly(Row.of("b"));
        r = (ExecutionResult.Rows) s.execute(ps, List.of(3));
        assertThat(r.rows()).containsExactly(Row.of("c"));
    }

}
