package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** psql's and drivers' catalog spellings, respelled for Babel ({@link PgCatalogSyntax} through {@link PgTokens}). */
class PgCatalogSyntaxTest {
    static String rw(String sql) { return PgTokens.rewrite(sql).sql(); }

    @Test
    void operatorSyntaxBecomesTheBareOperator() {
        assertThat(rw("SELECT 1 WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$'").replaceAll(" +", " "))
                .isEqualTo("SELECT 1 FROM (VALUES (0)) AS \"?one_row\"(\"?one_row\") WHERE c.relname ~ '^(t)$'");
        assertThat(rw("SELECT a OPERATOR(!~) b, a OPERATOR(pg_catalog.=) b FROM t").replaceAll(" +", " "))
                .isEqualTo("SELECT a !~ b, a = b FROM t");
    }

    @Test
    void defaultCollationIsDroppedAndOthersKept() {
        assertThat(rw("SELECT x FROM t WHERE a ~ '^t$' COLLATE pg_catalog.default").strip())
                .isEqualTo("SELECT x FROM t WHERE a ~ '^t$'");
        assertThat(rw("SELECT x COLLATE \"default\" FROM t").replaceAll(" +", " ")).isEqualTo("SELECT x FROM t");
        assertThat(rw("SELECT x COLLATE \"C\" FROM t")).isEqualTo("SELECT x COLLATE \"C\" FROM t");
    }

    @Test
    void pgCatalogQualifiersGoButOtherSchemasStay() {
        assertThat(rw("SELECT pg_catalog.format_type(a.atttypid, NULL), x::pg_catalog.regtype::pg_catalog.text "
                + "FROM pg_catalog.pg_attribute a, information_schema.tables"))
                .isEqualTo("SELECT format_type(a.atttypid, NULL), x::regtype::text FROM pg_attribute a, information_schema.tables");
        // Inside strings and quoted names nothing changes.
        assertThat(rw("SELECT 'pg_catalog.x', \"pg_catalog.y\" FROM t")).isEqualTo("SELECT 'pg_catalog.x', \"pg_catalog.y\" FROM t");
    }
}
