package io.stillwater.engine.session;

import java.util.Arrays;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.IntervalText;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL 15 behaviours the Calcite front end used to get wrong: {@code ::interval},
 * multi-unit interval literals, literals read with the target type's input format,
 * DEFAULT in INSERT/UPDATE, parameterized LIMIT/OFFSET and non-reserved keywords as
 * column names. Expected outputs were taken from PostgreSQL 15.
 */
class PgCompatGapsTest extends SessionTestBase {
    String one(String sql) { return q(sql).get(0).get(0); }

    @Test
    void doubleColonInterval() {
        assertThat(one("SELECT '1 day 02:00:00'::interval")).isEqualTo("1 day 02:00:00");
        assertThat(one("SELECT '2 hours'::interval")).isEqualTo("02:00:00");
        // As in PostgreSQL, the parameter's type is the cast's (interval) when the client gives none.
        assertThat(q("SELECT $1::interval", List.of(), List.of(IntervalText.parse("3 days 04:05:06"))))
                .containsExactly(List.of("3 days 04:05:06"));
        assertThat(one("SELECT now() - '7 days'::interval < now()")).isEqualTo("t");
        assertThat(one("SELECT (timestamp '2024-01-31 10:00:00' - '7 days 1 hour'::interval)::text"))
                .isEqualTo("2024-01-24 09:00:00");
    }

    @Test
    void multiUnitIntervalLiterals() {
        assertThat(one("SELECT interval '1 day 2 hours'")).isEqualTo("1 day 02:00:00");
        assertThat(one("SELECT interval '1 year 2 mons'")).isEqualTo("1 year 2 mons");
        assertThat(one("SELECT interval '01:02:03'")).isEqualTo("01:02:03");
        assertThat(one("SELECT interval '-1 day'")).isEqualTo("-1 days");
        assertThat(one("SELECT interval '1 day'")).isEqualTo("1 day");
        assertThat(one("SELECT interval '1.5 hours'")).isEqualTo("01:30:00");
        assertThat(one("SELECT interval '1 month' + interval '1 day'")).isEqualTo("1 mon 1 day");
        var r = (ExecutionResult.Rows) s.execute("SELECT interval '1 day', '1 day'::interval, CAST('1 day' AS interval)");
        assertThat(r.columns()).extracting(ResultColumn::name).containsExactly("interval", "interval", "interval");
    }

    @Test
    void intervalTextInsideStringsAndCommentsIsNotRewritten() {
        assertThat(one("SELECT 'interval ''1 day'' is text'")).isEqualTo("interval '1 day' is text");
        assertThat(one("SELECT /* interval '1 day' */ 'x ''2 hours''::interval'"))
                .isEqualTo("x '2 hours'::interval");
    }

    @Test
    void intervalColumnsAndComparisons() {
        s.execute("CREATE TABLE iv (i interval)");
        s.execute("INSERT INTO iv VALUES ('1 day 2 hours'), (interval '3 mons')");
        assertThat(q("SELECT i FROM iv ORDER BY i")).containsExactly(List.of("1 day 02:00:00"), List.of("3 mons"));
        assertThat(q("SELECT i FROM iv WHERE i > interval '1 day 1 hour'"))
                .containsExactlyInAnyOrder(List.of("1 day 02:00:00"), List.of("3 mons"));
    }

    @Test
    void byteaLiteralsUseTheByteaInputFormat() {
        assertThat(one("SELECT '\\x00ff10'::bytea")).isEqualTo("\\x00ff10");
        assertThat(one("SELECT CAST('\\x41' AS bytea)")).isEqualTo("\\x41");
        assertThat(one("SELECT 'abc'::bytea")).isEqualTo("\\x616263");
        s.execute("CREATE TABLE b (id int, b bytea)");
        s.execute("INSERT INTO b(id, b) VALUES (1, '\\x00ff')");
        s.execute("UPDATE b SET b = '\\xcafe' WHERE id = 1");
        assertThat(q("SELECT b FROM b")).containsExactly(List.of("\\xcafe"));
        assertThat(q("SELECT id FROM b WHERE b = '\\xcafe'")).containsExactly(List.of("1"));
    }

    @Test
    void dateTimeLiteralsUsePostgresInputRules() {
        assertThat(one("SELECT '2024-01-31 13:04:05.5'::timestamp")).isEqualTo("2024-01-31 13:04:05.5");
        assertThat(one("SELECT '13:04:05.25'::time")).isEqualTo("13:04:05.25");
        assertThat(one("SELECT '2024-1-5'::date")).isEqualTo("2024-01-05");
        assertThat(one("SELECT timestamp '2024-01-31 13:04:05.5'")).isEqualTo("2024-01-31 13:04:05.5");
        assertThat(one("SELECT date '2024-02-29' + 1")).isEqualTo("2024-03-01");
    }

    @Test
    void otherLiteralCastsFollowPostgres() {
        assertThat(q("SELECT '2024-01-01 00:00:00+02'::timestamptz, ' 12 '::int + 1, 'true'::boolean, "
                + "'1.55'::numeric(3,1), '1e3'::float8")).containsExactly(
                List.of("2023-12-31 22:00:00+00", "13", "t", "1.6", "1000"));
        assertThat(q("SELECT interval '1 day' * 2, '1 week'::interval, interval '1 year -1 day'"))
                .containsExactly(List.of("2 days", "7 days", "1 year -1 days"));
        assertThat(q("SELECT x FROM (VALUES (date '2024-01-01'), (date '2024-02-01')) v(x) WHERE x > '2024-01-15'"))
                .containsExactly(List.of("2024-02-01"));
    }

    @Test
    void invalidLiteralsFailAtPlanTimeAsInPostgres() {
        assertError("SELECT 'abc'::int", "22P02", "invalid input syntax for type integer: \"abc\"");
        assertError("SELECT '25:00'::time", "22008", "date/time field value out of range: \"25:00\"");
        assertError("SELECT interval 'abc'", "22007", "invalid input syntax for type interval: \"abc\"");
        assertError("SELECT '\\xzz'::bytea", "22023", "invalid hexadecimal digit: \"z\"");
    }

    @Test
    void syntaxErrorPositionsAreInTheClientsText() {
        // The front end respells interval '1 day' and date before parsing; the position is
        // still the one in the text the client sent (PostgreSQL: the caret under "2").
        assertThatThrownBy(() -> s.prepare("SELECT interval '1 day', date 2 FROM k", List.of()))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("syntax error at or near \"2\"");
                    assertThat(e.detail()).isEqualTo("at character 31");
                });
    }

    void assertError(String sql, String state, String message) {
        assertThatThrownBy(() -> s.prepare(sql, List.of())).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state().code()).as(sql).isEqualTo(state);
            assertThat(e.getMessage()).as(sql).isEqualTo(message);
        });
    }

    @Test
    void defaultInInsertValuesAndUpdateSet() {
        s.execute("CREATE TABLE d (id int, n int DEFAULT 42, t text DEFAULT 'x')");
        s.execute("INSERT INTO d VALUES (1, DEFAULT, 'a'), (2, 7, DEFAULT)");
        s.execute("INSERT INTO d(id, t) VALUES (3, DEFAULT)");
        s.execute("INSERT INTO d(t, id) VALUES ('c', 4)");
        assertThat(q("SELECT id, n, t FROM d ORDER BY id")).containsExactly(
                List.of("1", "42", "a"), List.of("2", "7", "x"), List.of("3", "42", "x"), List.of("4", "42", "c"));
        s.execute("UPDATE d SET n = DEFAULT, t = 'z' WHERE id = 2");
        assertThat(q("SELECT id, n, t FROM d WHERE id = 2")).containsExactly(List.of("2", "42", "z"));
        // Defaults of any type round-trip through their text form.
        s.execute("CREATE TABLE u8 (id int, t text DEFAULT '日本 ''q''', b bytea DEFAULT '\\x00ff', "
                + "i interval DEFAULT '1 day 2 hours', v varchar(3) DEFAULT 'abc', ts timestamptz DEFAULT "
                + "'2024-01-01 00:00:00+02')");
        s.execute("INSERT INTO u8 (id, t) VALUES (0, '日本')");
        s.execute("INSERT INTO u8 VALUES (1, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT)");
        assertThat(q("SELECT id, t || '!' FROM u8 WHERE t = '日本'")).containsExactly(List.of("0", "日本!"));
        assertThat(q("SELECT t, b, i, v, ts FROM u8 WHERE id = 1")).containsExactly(
                List.of("日本 'q'", "\\x00ff", "1 day 02:00:00", "abc", "2023-12-31 22:00:00+00"));
        s.execute("CREATE TABLE nd (id int, v int)");
        s.execute("INSERT INTO nd VALUES (1, DEFAULT)");
        s.execute("UPDATE nd SET v = 5");
        s.execute("UPDATE nd SET v = DEFAULT");
        assertThat(q("SELECT id, v FROM nd")).containsExactly(Arrays.asList("1", null));
    }

    @Test
    void parameterizedLimitAndOffset() {
        s.execute("CREATE TABLE l (x int)");
        s.execute("INSERT INTO l SELECT * FROM generate_series(1, 10)");
        assertThat(q("SELECT x FROM l ORDER BY x LIMIT $1", List.of(), List.of(3L)))
                .containsExactly(List.of("1"), List.of("2"), List.of("3"));
        assertThat(q("SELECT x FROM l ORDER BY x LIMIT $1 OFFSET $2", List.of(SqlType.BIGINT, SqlType.BIGINT),
                List.of(2L, 5L))).containsExactly(List.of("6"), List.of("7"));
        assertThat(q("SELECT x FROM l ORDER BY x OFFSET $1", List.of(), List.of(8L)))
                .containsExactly(List.of("9"), List.of("10"));
        assertThat(s.prepare("SELECT x FROM l LIMIT $1", List.of()).paramTypes()).containsExactly(SqlType.BIGINT);
        assertThatThrownBy(() -> q("SELECT x FROM l LIMIT $1", List.of(), List.of(-1L)))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state().code()).isEqualTo("2201W");
                    assertThat(e.getMessage()).isEqualTo("LIMIT must not be negative");
                });
        assertThat(q("SELECT x FROM l ORDER BY x LIMIT $1", List.of(), Arrays.asList((Object) null)))
                .hasSize(10);
    }

    @Test
    void nonReservedKeywordsAsColumnNames() {
        s.execute("CREATE TABLE k (date date, time time, timestamp timestamp, year int, month int, value int, "
                + "name text, text text)");
        s.execute("INSERT INTO k (date, time, timestamp, year, month, value, name, text) VALUES "
                + "('2024-01-02', '03:04:05', '2024-01-02 03:04:05', 2024, 1, 10, 'n', 't')");
        assertThat(q("SELECT date, time, timestamp, year, month, value, name, text FROM k"))
                .containsExactly(List.of("2024-01-02", "03:04:05", "2024-01-02 03:04:05", "2024", "1", "10", "n", "t"));
        assertThat(q("SELECT k.date, value + 1 FROM k WHERE year = 2024 AND name = 'n' ORDER BY date"))
                .containsExactly(List.of("2024-01-02", "11"));
        // The same words still work as types and in typed literals next to the columns.
        assertThat(q("SELECT CAST(date AS date) AS date, date::text, extract(year from date), "
                + "CAST(timestamp AS timestamp) = timestamp '2024-01-02 03:04:05', time < time '04:00' FROM k"))
                .containsExactly(List.of("2024-01-02", "2024-01-02", "2024", "t", "t"));
        var r = (ExecutionResult.Rows) s.execute("SELECT date, timestamp AS time FROM k");
        assertThat(r.columns()).extracting(ResultColumn::name).containsExactly("date", "time");
        s.execute("CREATE TABLE iv2 (id int, interval interval)");
        s.execute("INSERT INTO iv2 (id, interval) VALUES (1, interval '1 day'), (2, '2 hours'::interval)");
        assertThat(q("SELECT interval, interval + interval '1 hour' AS later FROM iv2 WHERE interval < interval '1 day' "
                + "ORDER BY interval")).containsExactly(List.of("02:00:00", "03:00:00"));
        s.execute("UPDATE k SET value = 11 WHERE month = 1");
        assertThat(one("SELECT value FROM k")).isEqualTo("11");
    }
}
