package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.Statement.CreateIndex;
import io.stillwater.engine.sql.Statement.CreateMaterializedView;
import io.stillwater.engine.sql.Statement.DropObjects;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.sql.Statement.ShowObjects;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Materialize's DDL for indexes and materialized views, and the SHOW statements that list them. */
class IndexDdlParserTest {
    static Statement parse(String sql) {
        return UtilityParser.parse(sql).orElseThrow(() -> new AssertionError("not a utility statement: " + sql));
    }

    @Test
    void createIndexForms() {
        assertThat(parse("CREATE INDEX i ON t (a, b + 1)"))
                .isEqualTo(new CreateIndex("i", false, null, "t", List.of("a", "b + 1"), false));
        assertThat(parse("create index on T(A)")).isEqualTo(new CreateIndex(null, false, null, "t", List.of("A"), false));
        assertThat(parse("CREATE INDEX IF NOT EXISTS i IN CLUSTER default ON public.t USING arrangement (lower(s), f(x, y));"))
                .isEqualTo(new CreateIndex("i", false, "default", "t", List.of("lower(s)", "f(x, y)"), true));
        assertThat(parse("CREATE DEFAULT INDEX ON v")).isEqualTo(new CreateIndex(null, true, null, "v", List.of(), false));
        assertThat(parse("CREATE DEFAULT INDEX IN CLUSTER c ON \"V\""))
                .isEqualTo(new CreateIndex(null, true, "c", "V", List.of(), false));
        // No key list: every column, like DEFAULT.
        assertThat(parse("CREATE INDEX i ON t")).isEqualTo(new CreateIndex("i", true, null, "t", List.of(), false));
    }

    @Test
    void keyOrderingWordsOfPostgresAndSqliteScriptsAreDropped() {
        assertThat(((CreateIndex) parse("CREATE INDEX t1i1 ON t1(b DESC, a ASC, c NULLS LAST, d DESC NULLS FIRST)")).keySql())
                .containsExactly("b", "a", "c", "d");
        assertThat(((CreateIndex) parse("CREATE INDEX i ON t ((a, b), CASE WHEN a > 0 THEN 1 END)")).keySql())
                .containsExactly("(a, b)", "CASE WHEN a > 0 THEN 1 END");
    }

    @Test
    void createIndexErrors() {
        assertSqlError(() -> UtilityParser.parse("CREATE INDEX i ON t ()"), SqlState.SYNTAX_ERROR, "syntax error at or near \")\"");
        assertSqlError(() -> UtilityParser.parse("CREATE INDEX i ON t (a"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
        assertSqlError(() -> UtilityParser.parse("CREATE DEFAULT INDEX ON t (a)"), SqlState.SYNTAX_ERROR, "syntax error at or near \"(\"");
        assertSqlError(() -> UtilityParser.parse("CREATE DEFAULT INDEX i ON t"), SqlState.SYNTAX_ERROR, "syntax error at or near \"i\"");
        assertSqlError(() -> UtilityParser.parse("CREATE INDEX IF NOT EXISTS ON t (a)"), SqlState.SYNTAX_ERROR,
                "syntax error at or near \"ON\"");
        assertSqlError(() -> UtilityParser.parse("CREATE INDEX i ON t USING btree (a)"), SqlState.UNDEFINED_OBJECT,
                "access method \"btree\" does not exist");
        assertSqlError(() -> UtilityParser.parse("CREATE INDEX i ON t (a) WHERE a > 0"), SqlState.FEATURE_NOT_SUPPORTED,
                "CREATE INDEX ... WHERE is not supported");
        assertSqlError(() -> UtilityParser.parse("CREATE UNIQUE INDEX i ON t"), SqlState.SYNTAX_ERROR,
                "syntax error at end of input");
    }

    @Test
    void createUniqueIndexIsAnIndexThatIsAConstraint() {
        assertThat(UtilityParser.parse("CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a, \"B\")")).contains(
                new Statement.CreateIndex("i", false, null, "t", List.of("a", "\"B\""), true, true));
        assertThat(UtilityParser.parse("ALTER TABLE t ADD PRIMARY KEY (a)")).contains(
                new Statement.CreateIndex("t_pkey", false, null, "t", List.of("\"a\""), false, true));
        assertThat(UtilityParser.parse("ALTER TABLE t ADD UNIQUE (a, b)")).contains(
                new Statement.CreateIndex("t_a_b_key", false, null, "t", List.of("\"a\"", "\"b\""), false, true));
    }

    @Test
    void createMaterializedView() {
        String sql = "CREATE MATERIALIZED VIEW mv (x, y) IN CLUSTER default AS SELECT a, count(*) FROM t GROUP BY a;";
        CreateMaterializedView mv = (CreateMaterializedView) parse(sql);
        assertThat(mv).isEqualTo(new CreateMaterializedView("mv", List.of("x", "y"), "default",
                "SELECT a, count(*) FROM t GROUP BY a", sql.indexOf("SELECT"), false, false));
        assertThat(parse("CREATE OR REPLACE MATERIALIZED VIEW m AS SELECT 1"))
                .isEqualTo(new CreateMaterializedView("m", List.of(), null, "SELECT 1", 41, true, false));
        assertThat(((CreateMaterializedView) parse("CREATE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT 1")).ifNotExists()).isTrue();
        assertSqlError(() -> UtilityParser.parse("CREATE OR REPLACE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT 1"),
                SqlState.SYNTAX_ERROR, "cannot specify both OR REPLACE and IF NOT EXISTS");
        assertSqlError(() -> UtilityParser.parse("CREATE MATERIALIZED VIEW m AS"), SqlState.SYNTAX_ERROR,
                "syntax error at end of input");
    }

    @Test
    void dropIndexesAndMaterializedViews() {
        assertThat(parse("DROP INDEX i")).isEqualTo(new DropObjects(ObjectKind.INDEX, List.of("i"), false, false));
        assertThat(parse("DROP INDEX IF EXISTS i, public.j CASCADE"))
                .isEqualTo(new DropObjects(ObjectKind.INDEX, List.of("i", "j"), true, true));
        assertThat(parse("drop materialized view mv restrict"))
                .isEqualTo(new DropObjects(ObjectKind.MATERIALIZED_VIEW, List.of("mv"), false, false));
        assertThat(parse("DROP MATERIALIZED VIEW IF EXISTS a, b CASCADE").commandVerb()).isEqualTo("DROP MATERIALIZED VIEW");
        assertSqlError(() -> UtilityParser.parse("DROP INDEX CONCURRENTLY i"), SqlState.FEATURE_NOT_SUPPORTED,
                "DROP INDEX CONCURRENTLY is not supported");
    }

    @Test
    void showObjects() {
        assertThat(parse("SHOW INDEXES")).isEqualTo(new ShowObjects(ObjectKind.INDEX, null, null));
        assertThat(parse("SHOW INDEXES ON t IN CLUSTER default")).isEqualTo(new ShowObjects(ObjectKind.INDEX, "t", "default"));
        assertThat(parse("show indexes in cluster c")).isEqualTo(new ShowObjects(ObjectKind.INDEX, null, "c"));
        assertThat(parse("SHOW VIEWS")).isEqualTo(new ShowObjects(ObjectKind.VIEW));
        assertThat(parse("SHOW MATERIALIZED VIEWS")).isEqualTo(new ShowObjects(ObjectKind.MATERIALIZED_VIEW));
        assertThat(parse("SHOW MATERIALIZED VIEWS IN CLUSTER default"))
                .isEqualTo(new ShowObjects(ObjectKind.MATERIALIZED_VIEW, null, "default"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"CREATE INDEX t1i1 ON t1(x)", "CREATE INDEX t1i0 ON t1(a1,b1,c1,d1,e1,x1)", "DROP INDEX t1i1"})
    void sqliteCorpusIndexStatementsParse(String sql) {
        assertThat(parse(sql)).isInstanceOfAny(CreateIndex.class, DropObjects.class);
    }
}
