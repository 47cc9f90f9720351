package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The token rewrites of array/jsonb operators, nested ARRAY brackets, jsonb type names and aggregate ORDER BY. */
class PgInfixOperatorsTest {
    private static String rw(String sql) { return PgInfixOperators.rewrite(sql); }

    @Test
    void operatorsBecomeCallsOverTheirTerms() {
        assertThat(rw("SELECT a @> b")).isEqualTo("SELECT PG_CONTAINS(a , b)");
        assertThat(rw("SELECT t.xs <@ ARRAY[1,2] AND x")).isEqualTo("SELECT PG_CONTAINED(t.xs , ARRAY[1,2]) AND x");
        assertThat(rw("SELECT f(a)&&'{1}'::int[]")).isEqualTo("SELECT PG_OVERLAP(f(a),'{1}'::int[])");
    }

    @Test
    void chainsAreLeftAssociativeAndCastsStayWithTheirTerm() {
        assertThat(rw("SELECT j->'a'->>'b'")).isEqualTo("SELECT PG_JSON_GET_TEXT(PG_JSON_GET(j,'a'),'b')");
        assertThat(rw("SELECT (j->'a')::text, (j->'b')::int"))
                .isEqualTo("SELECT (PG_JSON_GET(j,'a'))::text, (PG_JSON_GET(j,'b'))::int");
        assertThat(rw("SELECT x::jsonb #>> '{a}' = 'v'")).isEqualTo("SELECT PG_JSON_PATH_TEXT(x::VARIANT , '{a}') = 'v'");
        assertThat(rw("SELECT j ? 'k', j ?| ARRAY['a']"))
                .isEqualTo("SELECT PG_JSON_EXISTS(j , 'k'), PG_JSON_EXISTS_ANY(j , ARRAY['a'])");
    }

    @Test
    void textInLiteralsIsNotTouched() {
        assertThat(rw("SELECT '@>', \"a->b\" FROM t -- x -> y")).isEqualTo("SELECT '@>', \"a->b\" FROM t -- x -> y");
    }

    @Test
    void nestedArrayBracketsAndJsonbTypeNames() {
        assertThat(rw("SELECT ARRAY[[1,2],[3,4]]")).isEqualTo("SELECT ARRAY[ARRAY[1,2],ARRAY[3,4]]");
        assertThat(rw("SELECT xs[1] FROM t")).isEqualTo("SELECT xs[1] FROM t");
        assertThat(rw("SELECT CAST(x AS jsonb), jsonb '{}'")).isEqualTo("SELECT CAST(x AS VARIANT), CAST('{}' AS VARIANT)");
    }

    @Test
    void aggregateOrderBy() {
        assertThat(rw("SELECT jsonb_agg(x ORDER BY y DESC) FILTER (WHERE z) FROM t"))
                .isEqualTo("SELECT jsonb_agg(x ) WITHIN GROUP (ORDER BY y DESC) FILTER (WHERE z) FROM t");
        assertThat(rw("SELECT sum(x ORDER BY y), count(*) FROM t")).isEqualTo("SELECT sum(x ), count(*) FROM t");
        assertThat(rw("SELECT array_agg(x ORDER BY y) FROM t")).isEqualTo("SELECT array_agg(x ORDER BY y) FROM t");
        assertThat(rw("SELECT sum((SELECT a FROM u ORDER BY a LIMIT 1))")).isEqualTo("SELECT sum((SELECT a FROM u ORDER BY a LIMIT 1))");
    }
}
