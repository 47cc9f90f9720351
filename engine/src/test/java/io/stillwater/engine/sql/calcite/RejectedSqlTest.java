package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Errors PostgreSQL 15 gives that the front end used to report with the wrong class or
 * with Java's text (issue 14): each asserts PostgreSQL's SQLSTATE and that no Java
 * exception text reaches the message. test/slt/reject_sql.slt runs the same cases end to end.
 */
class RejectedSqlTest extends PlannerFixture {
    private static void assertNoJavaText(SqlException e) {
        assertThat(e.getMessage()).doesNotContain("Exception").doesNotContain("java.")
                .doesNotContain("For input string").doesNotContain("Overflow");
    }

    @Test
    void aParameterNumberBeyondAnyParameterIs42P02() {
        SqlException e = error("SELECT $99999999999");
        assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_PARAMETER);
        assertThat(e.getMessage()).isEqualTo("there is no parameter $99999999999");
    }

    @Test
    void aLimitBeyondBigintIs22003() {
        for (String sql : new String[] {"SELECT 1 LIMIT 9223372036854775808", "SELECT 1 OFFSET 99999999999999999999"}) {
            SqlException e = error(sql);
            assertThat(e.state()).as(sql).isEqualTo(SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
            assertThat(e.getMessage()).isEqualTo("bigint out of range");
        }
    }

    @Test
    void deepNestingIsPlannedOnADeepStackInsteadOfASyntaxError() {
        String sql = "SELECT " + "(".repeat(5000) + "1" + ")".repeat(5000);
        assertThat(plan(sql)).isInstanceOf(Statement.Query.class);
    }

    @Test
    void aStackOverflowThatNoRuleMapsIs54001() {
        SqlException e = CalciteErrors.translate(new RuntimeException(new StackOverflowError()), "SELECT 1");
        assertThat(e.state()).isEqualTo(SqlState.STATEMENT_TOO_COMPLEX);
        assertThat(e.getMessage()).isEqualTo("stack depth limit exceeded");
    }

    @Test
    void javaFailuresAreInternalErrorsWithoutJavaText() {
        SqlException e = CalciteErrors.translate(new NumberFormatException("For input string: \"99\""), "SELECT 1");
        assertThat(e.state()).isEqualTo(SqlState.INTERNAL_ERROR);
        assertNoJavaText(e);
        SqlException overflow = CalciteErrors.translate(new ArithmeticException("Overflow"), "SELECT 1");
        assertThat(overflow.state()).isEqualTo(SqlState.INTERNAL_ERROR);
        assertNoJavaText(overflow);
    }

    @Test
    void anExplicitUnsupportedOperationStays0A000() {
        SqlException e = CalciteErrors.translate(new UnsupportedOperationException("windowed aggregates"), "SELECT 1");
        assertThat(e.state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        assertThat(e.getMessage()).contains("windowed aggregates");
    }

    @Test
    void concatenatingTwoNonTextValuesHasNoOperator() {
        SqlException e = error("SELECT 1 || 2");
        assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_FUNCTION);
        assertThat(e.getMessage()).isEqualTo("operator does not exist: integer || integer");
        assertThat(plan("SELECT 1 || 'a'")).isInstanceOf(Statement.Query.class);
    }

    @Test
    void aTimestampPlusAnIntegerHasNoOperator() {
        SqlException e = error("SELECT now() + 1");
        assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_FUNCTION);
        assertThat(e.getMessage()).isEqualTo("operator does not exist: timestamp with time zone + integer");
    }

    @Test
    void orderByANameOfTwoDifferentOutputColumnsIsAmbiguous() {
        SqlException e = error("SELECT 1 AS a, 2 AS a ORDER BY a");
        assertThat(e.state()).isEqualTo(SqlState.AMBIGUOUS_COLUMN);
        assertThat(e.getMessage()).isEqualTo("ORDER BY \"a\" is ambiguous");
        assertThat(plan("SELECT 1 AS a, 1 AS a ORDER BY a")).isInstanceOf(Statement.Query.class);
    }
}
