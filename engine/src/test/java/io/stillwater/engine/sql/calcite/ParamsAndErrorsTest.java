package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParamsAndErrorsTest extends PlannerFixture {

    @Test
    void paramTypesAreInferredFromContext() {
        assertThat(select("SELECT a FROM t WHERE a = $1 AND b = $2 AND f = $3").paramTypes())
                .containsExactly(SqlType.INTEGER, SqlType.TEXT, SqlType.DATE);
        assertThat(select("SELECT a FROM t WHERE a IN ($1, $2)").paramTypes())
                .containsExactly(SqlType.INTEGER, SqlType.INTEGER);
        assertThat(select("SELECT $1::int + $2").paramTypes()).containsExactly(SqlType.INTEGER, SqlType.INTEGER);
        assertThat(select("SELECT * FROM t WHERE a BETWEEN $1 AND $2").paramTypes())
                .containsExactly(SqlType.INTEGER, SqlType.INTEGER);
    }

    @Test
    void paramTypesFromFunctionsAndSiblings() {
        assertThat(select("SELECT coalesce(a, $1), nullif(b, $2), greatest(a, $3) FROM t").paramTypes())
                .containsExactly(SqlType.INTEGER, SqlType.TEXT, SqlType.INTEGER);
        assertThat(select("SELECT a FROM t WHERE b LIKE $1 AND a + $2 > 0").paramTypes())
                .containsExactly(SqlType.TEXT, SqlType.INTEGER);
        assertThat(select("SELECT * FROM t WHERE g > $1 AND f < $2 AND c = $3 AND e > $4 AND h = $5").paramTypes())
                .containsExactly(SqlType.TIMESTAMP, SqlType.DATE, SqlType.NUMERIC, SqlType.DOUBLE, SqlType.BOOLEAN);
        assertThat(select("SELECT CASE WHEN $1 THEN 1 ELSE 2 END, upper($2)").paramTypes())
                .containsExactly(SqlType.BOOLEAN, SqlType.TEXT);
        assertThat(select("SELECT $2").paramTypes()).containsExactly(SqlType.TEXT, SqlType.TEXT);
        assertThat(select("SELECT a FROM t WHERE a * $1 > 0 AND ($2 + 1) * c > 0").paramTypes())
                .containsExactly(SqlType.INTEGER, SqlType.INTEGER);
    }

    @Test
    void paramWithoutContextIsTextOrTheHint() {
        var q = select("SELECT $1");
        assertThat(q.paramTypes()).containsExactly(SqlType.TEXT);
        assertThat(q.plan().columnNames()).containsExactly("?column?");
        assertThat(q.plan().columnTypes()).containsExactly(SqlType.TEXT);
        var hinted = select("SELECT $1", SqlType.BIGINT);
        assertThat(hinted.paramTypes()).containsExactly(SqlType.BIGINT);
        assertThat(hinted.plan().columnTypes()).containsExactly(SqlType.BIGINT);
    }

    @Test
    void hintIsTheParameterTypeAndContextCastsIt() {
        var q = select("SELECT abalance FROM pgbench_accounts WHERE aid = $1", SqlType.BIGINT);
        assertThat(q.paramTypes()).containsExactly(SqlType.BIGINT);
        var filter = (PlanNode.Filter) ((PlanNode.Project) q.plan().body()).input();
        assertThat(filter.predicates().toString()).contains("Param[index=0, type=bigint]");
        // UNKNOWN hints mean "infer"
        assertThat(select("SELECT a FROM t WHERE a = $1", SqlType.UNKNOWN).paramTypes()).containsExactly(SqlType.INTEGER);
    }

    @Test
    void hintsBeyondTheUsedParamsStillCount() {
        assertThat(select("SELECT 1", SqlType.INTEGER).paramTypes()).containsExactly(SqlType.INTEGER);
    }

    @Test
    void paramComparedWithVarcharColumnIsNotTruncated() {
        var q = select("SELECT a FROM t WHERE v = $1 AND c = $2");
        assertThat(q.paramTypes()).containsExactly(SqlType.TEXT, SqlType.NUMERIC);
        var filter = (PlanNode.Filter) ((PlanNode.Project) q.plan().body()).input();
        assertThat(filter.predicates().toString()).doesNotContain("Cast");
    }

    @Test
    void paramUsedTwiceKeepsOneType() {
        var q = select("SELECT a FROM t WHERE a = $1 OR s = $1");
        assertThat(q.paramTypes()).containsExactly(SqlType.INTEGER);
    }

    @Test
    void syntaxErrors() {
        var e = error("SELEC 1");
        assertThat(e.state()).isEqualTo(SqlState.SYNTAX_ERROR);
        assertThat(e.getMessage()).isEqualTo("syntax error at or near \"SELEC\"");
        assertThat(error("SELECT a, FROM t").getMessage()).isEqualTo("syntax error at or near \"FROM\"");
        assertThat(error("SELECT (1").getMessage()).isEqualTo("syntax error at end of input");
    }

    @Test
    void undefinedObjects() {
        var table = error("SELECT * FROM nosuch");
        assertThat(table.state()).isEqualTo(SqlState.UNDEFINED_TABLE);
        assertThat(table.getMessage()).isEqualTo("relation \"nosuch\" does not exist");
        var column = error("SELECT nosuch FROM t");
        assertThat(column.state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
        assertThat(column.getMessage()).isEqualTo("column \"nosuch\" does not exist");
        var qualified = error("SELECT t.nosuch FROM t");
        assertThat(qualified.state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
        var fn = error("SELECT nofunc(a) FROM t");
        assertThat(fn.state()).isEqualTo(SqlState.UNDEFINED_FUNCTION);
        assertThat(fn.getMessage()).startsWith("function nofunc(");
    }

    @Test
    void ambiguityGroupingAndTypeErrors() {
        var amb = error("SELECT a FROM t, u");
        assertThat(amb.state()).isEqualTo(SqlState.AMBIGUOUS_COLUMN);
        assertThat(amb.getMessage()).isEqualTo("column reference \"a\" is ambiguous");
        var grp = error("SELECT a, b FROM t GROUP BY a");
        assertThat(grp.state()).isEqualTo(SqlState.GROUPING_ERROR);
        assertThat(grp.getMessage()).contains("must appear in the GROUP BY clause");
        assertThat(error("SELECT a FROM t WHERE count(*) > 1").state()).isEqualTo(SqlState.GROUPING_ERROR);
        var op = error("SELECT 1 + true");
        assertThat(op.state()).isEqualTo(SqlState.UNDEFINED_FUNCTION);
        assertThat(op.getMessage()).isEqualTo("operator does not exist: integer + boolean");
        assertThat(error("SELECT a FROM t UNION SELECT a, x FROM u").state()).isEqualTo(SqlState.SYNTAX_ERROR);
        assertThat(error("SELECT a, b FROM t ORDER BY 3").state()).isEqualTo(SqlState.INVALID_COLUMN_REFERENCE);
    }

    @Test
    void moreValidationErrors() {
        assertThat(error("SELECT 'x'::nosuchtype").state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
        assertThat(error("SELECT a FROM t WHERE a").getMessage()).isEqualTo("argument of WHERE must be type boolean");
        assertThat(error("SELECT CASE WHEN a > 1 THEN 1 ELSE true END FROM t").state())
                .isEqualTo(SqlState.DATATYPE_MISMATCH);
        assertThat(error("SELECT a FROM t t1, t t1").state()).isEqualTo(SqlState.DUPLICATE_ALIAS);
        assertThat(error("SELECT max(count(*)) FROM t").state()).isEqualTo(SqlState.GROUPING_ERROR);
        assertThat(error("SELECT (SELECT a, x FROM u)").getMessage()).isEqualTo("subquery must return only one column");
        // PostgreSQL 15: a well-formed but impossible datetime literal is 22008, bad syntax 22007
        var date = error("SELECT DATE '2024-13-45'");
        assertThat(date.state()).isEqualTo(SqlState.DATETIME_FIELD_OVERFLOW);
        assertThat(date.getMessage()).isEqualTo("date/time field value out of range: \"2024-13-45\"");
        assertThat(error("SELECT DATE '2023-02-29'").state()).isEqualTo(SqlState.DATETIME_FIELD_OVERFLOW);
        assertThat(error("SELECT TIMESTAMP '2023-02-29 10:00'").getMessage())
                .isEqualTo("date/time field value out of range: \"2023-02-29 10:00\"");
        assertThat(error("SELECT TIME '25:00:00'").state()).isEqualTo(SqlState.DATETIME_FIELD_OVERFLOW);
        var bad = error("SELECT DATE 'nope'");
        assertThat(bad.state()).isEqualTo(SqlState.INVALID_DATETIME_FORMAT);
        assertThat(bad.getMessage()).isEqualTo("invalid input syntax for type date: \"nope\"");
        assertThat(error("SELECT coalesce(a, true) FROM t").state()).isEqualTo(SqlState.DATATYPE_MISMATCH);
    }

    @Test
    void typedStringsDoNotCoerceImplicitlyLikePostgres() {
        var cmp = error("SELECT a FROM t WHERE b = 1");
        assertThat(cmp.state()).isEqualTo(SqlState.UNDEFINED_FUNCTION);
        assertThat(cmp.getMessage()).isEqualTo("operator does not exist: text = integer");
        assertThat(error("SELECT a FROM t WHERE b IN (1, 2)").state()).isEqualTo(SqlState.UNDEFINED_FUNCTION);
        assertThat(error("SELECT sum(b) FROM t").getMessage()).isEqualTo("function sum(text) does not exist");
        assertThat(error("SELECT length(a) FROM t").getMessage()).isEqualTo("function length(integer) does not exist");
        // untyped literals and parameters still adapt, and || and concat take anything
        query("SELECT a FROM t WHERE a = '1' AND f = '2024-01-01' AND h = 'true' AND a IN ('1', '2') AND a = $1");
        query("SELECT b || a, concat(a, b), a + '1' FROM t");
    }

    @Test
    void commentOnlyStatementIsEmpty() {
        assertThat(plan("-- nothing here\n/* nor here */ ;")).isEqualTo(new Statement.Empty());
    }

    @Test
    void unsupportedFeaturesAre0A000() {
        assertThat(error("CREATE TABLE x (a int)").state()).isIn(SqlState.FEATURE_NOT_SUPPORTED, SqlState.SYNTAX_ERROR);
    }

    @Test
    void utilityParserIsTriedFirst() {
        var planner = new StatementPlanner(sql -> sql.startsWith("BEGIN") ? Optional.of(new Statement.Begin(null))
                : Optional.empty());
        assertThat(planner.plan("BEGIN", List.of(), catalog)).isEqualTo(new Statement.Begin(null));
        assertThat(planner.plan("SELECT 1", List.of(), catalog)).isInstanceOf(Statement.Query.class);
        assertThat(planner.plan("  ; ", List.of(), catalog)).isEqualTo(new Statement.Empty());
    }

    @Test
    void paramAndLiteralsBecomeExprs() {
        var q = select("SELECT $1::bigint, 1.5::real, '1.5'::numeric(10,2), b::varchar(3) FROM t");
        var exprs = ((PlanNode.Project) q.plan().body()).exprs();
        assertThat(exprs.get(0)).isEqualTo(new Expr.Param(0, SqlType.BIGINT));
        assertThat(q.plan().columnTypes()).containsExactly(SqlType.BIGINT, SqlType.REAL, SqlType.numeric(10, 2),
                SqlType.varchar(3));
    }
}
