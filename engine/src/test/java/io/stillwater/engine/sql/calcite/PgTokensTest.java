package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The token-level respellings that let Babel parse PostgreSQL text. */
class PgTokensTest {
    static String rw(String sql) { return PgTokens.rewrite(sql).sql(); }

    @Test
    void typedLiteralsBecomeCasts() {
        assertThat(rw("SELECT interval '1 day 2 hours'")).isEqualTo("SELECT CAST('1 day 2 hours' AS INTERVAL DAY TO SECOND)");
        assertThat(rw("SELECT timestamp '2024-01-31 13:04:05.5', DATE '2024-01-01'"))
                .isEqualTo("SELECT CAST('2024-01-31 13:04:05.5' AS timestamp), CAST('2024-01-01' AS date)");
        // With a unit the qualifier is Calcite's (and means the same).
        assertThat(rw("SELECT INTERVAL '1' DAY")).isEqualTo("SELECT INTERVAL '1' DAY");
    }

    @Test
    void intervalCasts() {
        assertThat(rw("SELECT x::interval, CAST(y AS interval), z::INTERVAL")).isEqualTo(
                "SELECT x::\"interval\", CAST(y AS INTERVAL DAY TO SECOND), z::\"interval\"");
        assertThat(rw("SELECT CAST(y AS interval day)")).isEqualTo("SELECT CAST(y AS interval day)");
    }

    @Test
    void stringsQuotedIdentifiersAndCommentsAreNeverRewritten() {
        String sql = "SELECT 'interval ''1 day''', \"date\", $$timestamp 'x'$$ -- interval '1 day'\n"
                + "/* x::interval LIMIT $1 */ FROM t";
        assertThat(rw(sql)).isEqualTo(sql);
        assertThat(PgTokens.rewrite(sql).limitParams()).isEmpty();
    }

    @Test
    void keywordColumnNamesBecomeIdentifiers() {
        assertThat(rw("SELECT date, t.time, timestamp AS x FROM t ORDER BY date"))
                .isEqualTo("SELECT \"date\", t.\"time\", \"timestamp\" AS x FROM t ORDER BY \"date\"");
        assertThat(rw("SELECT 1 AS date, CAST(a AS date), a::timestamp, CAST(b AS timestamp(3)), "
                + "c::timestamp with time zone, d AT TIME ZONE 'UTC'")).isEqualTo(
                "SELECT 1 AS \"date\", CAST(a AS date), a::timestamp, CAST(b AS timestamp(3)), "
                        + "c::timestamp with time zone, d AT TIME ZONE 'UTC'");
    }

    @Test
    void selectWithoutFromGetsOneRowBeforeWhereGroupByOrHaving() {
        String one = PgTokens.ONE_ROW_FROM;
        assertThat(rw("SELECT 1 WHERE false")).isEqualTo("SELECT 1 " + one + "WHERE false");
        assertThat(rw("SELECT count(*) GROUP BY 1 HAVING true")).isEqualTo("SELECT count(*) " + one + "GROUP BY 1 HAVING true");
        assertThat(rw("SELECT 1 HAVING count(*) > 0")).isEqualTo("SELECT 1 " + one + "HAVING count(*) > 0");
        // Each SELECT of a set operation or a subquery on its own.
        assertThat(rw("SELECT a FROM t WHERE a IN (SELECT 1 WHERE true) UNION SELECT 2 WHERE false")).isEqualTo(
                "SELECT a FROM t WHERE a IN (SELECT 1 " + one + "WHERE true) UNION SELECT 2 " + one + "WHERE false");
        // FROM inside parentheses or after IS [NOT] DISTINCT is not the SELECT's FROM clause.
        assertThat(rw("SELECT extract(year FROM d) WHERE 1 IS NOT DISTINCT FROM 1")).isEqualTo(
                "SELECT extract(year FROM d) " + one + "WHERE 1 IS NOT DISTINCT FROM 1");
        // Statements that have their FROM, or no SELECT, are untouched.
        for (String sql : List.of("SELECT a FROM t WHERE a > 1 GROUP BY a HAVING count(*) > 1",
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM t", "DELETE FROM t WHERE a = 1",
                "UPDATE t SET a = (SELECT 1) WHERE a = 2", "SELECT 1 IS DISTINCT FROM 2 FROM t WHERE true")) {
            assertThat(rw(sql)).as(sql).isEqualTo(sql);
        }
    }

    @Test
    void aStarWithNothingToExpandIsPostgresqlsSyntaxError() {
        for (String sql : List.of("SELECT * WHERE true", "SELECT 1, * WHERE true", "SELECT DISTINCT * GROUP BY 1",
                "SELECT a FROM t WHERE a IN (SELECT * WHERE true)")) {
            assertThatThrownBy(() -> rw(sql)).as(sql).isInstanceOfSatisfying(SqlException.class, e -> {
                assertThat(e.state()).isEqualTo(SqlState.SYNTAX_ERROR);
                assertThat(e.getMessage()).isEqualTo("SELECT * with no tables specified is not valid");
            });
        }
        // A * that is not a select item, or one with a FROM to expand, is fine.
        String one = PgTokens.ONE_ROW_FROM;
        assertThat(rw("SELECT count(*) WHERE true")).isEqualTo("SELECT count(*) " + one + "WHERE true");
        assertThat(rw("SELECT 2 * 3 WHERE true")).isEqualTo("SELECT 2 * 3 " + one + "WHERE true");
        assertThat(rw("SELECT * FROM t WHERE a IN (SELECT 1 WHERE true)")).isEqualTo(
                "SELECT * FROM t WHERE a IN (SELECT 1 " + one + "WHERE true)");
    }

    @Test
    void limitAndOffsetParameters() {
        PgTokens.Rewritten r = PgTokens.rewrite("SELECT $3 FROM t LIMIT $2 OFFSET $1");
        assertThat(r.sql()).isEqualTo("SELECT $3 FROM t LIMIT ? OFFSET ?");
        assertThat(r.limitParams()).containsExactly(1, 0);
    }

    @Test
    void defaultInUpdateSet() {
        assertThat(rw("UPDATE t SET a = DEFAULT, b = 'default'")).isEqualTo(
                "UPDATE t SET a = " + PgTokens.DEFAULT_MARKER + ", b = 'default'");
        assertThat(rw("INSERT INTO t VALUES (DEFAULT)")).isEqualTo("INSERT INTO t VALUES (DEFAULT)");
    }
}
