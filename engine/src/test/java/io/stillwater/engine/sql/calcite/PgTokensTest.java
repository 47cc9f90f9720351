package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

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
