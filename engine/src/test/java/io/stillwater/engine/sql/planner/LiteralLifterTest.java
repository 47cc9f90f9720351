package io.stillwater.engine.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.sql.parse.TokenKind;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LiteralLifterTest {
    private static String lifted(String sql) {
        return LiteralLifter.lift(sql).map(LiteralLifter.LiftedStatement::text).orElse(null);
    }

    @Test
    void comparisonsWithColumnsAreLifted() {
        assertThat(lifted("SELECT v FROM t WHERE k = 1")).isEqualTo("SELECT v FROM t WHERE k = $1");
        assertThat(lifted("SELECT v FROM t WHERE k = 1 AND t.s <> 'x';")).isEqualTo("SELECT v FROM t WHERE k = $1 AND t.s <> $2;");
        assertThat(lifted("UPDATE t SET v = 2.5, w = 'a' WHERE k = 7")).isEqualTo("UPDATE t SET v = $1, w = $2 WHERE k = $3");
        assertThat(lifted("DELETE FROM t WHERE (k >= 3) OR k < 1")).isEqualTo("DELETE FROM t WHERE (k >= $1) OR k < $2");
        assertThat(LiteralLifter.lift("SELECT v FROM t WHERE k = 1 AND s = 'it''s'").orElseThrow().literals())
                .containsExactly(new LiftedLiteral(TokenKind.INTEGER, "1"), new LiftedLiteral(TokenKind.STRING, "it's"));
    }

    @Test
    void insertValuesAreLifted() {
        assertThat(lifted("INSERT INTO t VALUES (1, 'a'), (2, 'b')")).isEqualTo("INSERT INTO t VALUES ($1, $2), ($3, $4)");
        assertThat(lifted("INSERT INTO t (k, v) VALUES (1, DEFAULT);")).isEqualTo("INSERT INTO t (k, v) VALUES ($1, DEFAULT);");
    }

    @Test
    void literalsThatShapeThePlanStayInPlace() {
        assertThat(lifted("SELECT 1")).isNull();
        assertThat(lifted("SELECT k FROM t ORDER BY 1 LIMIT 2 OFFSET 3")).isNull();
        assertThat(lifted("SELECT k, count(*) FROM t GROUP BY 1")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE k IN (1, 2)")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE d = DATE '2020-01-01'")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE k = '1'::int")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE k = -1")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE k = 1 + 2")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE f(k) = 1")).isNull();
        assertThat(lifted("SELECT k FROM t WHERE k = $1 AND v = 2")).isNull();
        assertThat(lifted("INSERT INTO t VALUES (1 + 1, -2, 'a'::text)")).isNull();
        assertThat(lifted("INSERT INTO t VALUES (1) RETURNING k")).isNull();
        assertThat(lifted("INSERT INTO t SELECT k FROM u WHERE k = 1")).isNull();
        assertThat(lifted("CREATE VIEW v AS SELECT k FROM t WHERE k = 1")).isNull();
        assertThat(lifted("EXPLAIN SELECT k FROM t WHERE k = 1")).isNull();
    }

    @Test
    void aLiteralIsBoundOnlyWhereItKeepsItsMeaning() {
        LiftedLiteral one = new LiftedLiteral(TokenKind.INTEGER, "1");
        assertThat(one.valueAs(SqlType.INTEGER)).contains(1);
        assertThat(one.valueAs(SqlType.BIGINT)).contains(1L);
        assertThat(one.valueAs(SqlType.TEXT)).isEmpty();
        assertThat(new LiftedLiteral(TokenKind.INTEGER, "100000").valueAs(SqlType.SMALLINT)).isEmpty();
        assertThat(new LiftedLiteral(TokenKind.INTEGER, "99999999999999999999").valueAs(SqlType.BIGINT)).isEmpty();
        assertThat(new LiftedLiteral(TokenKind.DECIMAL, "1.5").valueAs(SqlType.INTEGER)).isEmpty();
        assertThat(new LiftedLiteral(TokenKind.DECIMAL, "1.5").valueAs(SqlType.DOUBLE)).contains(1.5);
        assertThat(new LiftedLiteral(TokenKind.STRING, "abc").valueAs(SqlType.TEXT)).contains("abc");
        assertThat(new LiftedLiteral(TokenKind.STRING, "abc").valueAs(SqlType.INTEGER)).isEmpty();
        assertThat(new LiftedLiteral(TokenKind.STRING, "abcd").valueAs(SqlType.varchar(3))).isEqualTo(Optional.empty());
    }
}
