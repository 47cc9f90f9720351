package io.stillwater.bench.feature.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.scenario.ScenarioDefinitionException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptsTest {

    private static List<String> sql(String script) {
        return Scripts.parse(script).stream().map(ScriptStatement::sql).toList();
    }

    @Test
    void splitsOnSemicolonsAndDropsEmptyStatements() {
        assertThat(sql("CREATE TABLE t (a int);\n\n INSERT INTO t VALUES (1) ;;  ; SELECT * FROM t"))
                .containsExactly("CREATE TABLE t (a int)", "INSERT INTO t VALUES (1)", "SELECT * FROM t");
        assertThat(Scripts.parse("")).isEmpty();
        assertThat(Scripts.parse("  ;\n-- only a comment\n; /* and another */ ;")).isEmpty();
    }

    @Test
    void semicolonsInsideQuotesDollarQuotesAndCommentsDoNotSplit() {
        String script = "SELECT 'a;b', 'it''s; fine' FROM t;"
                + "SELECT \"we;ird\"\"col\" FROM t;"
                + "SELECT E'back\\'slash;' ;"
                + "SELECT $$ ; ' \" $$;"
                + "SELECT $fn$ body; $$ inner $$ ; $fn$;"
                + "SELECT 1 -- a comment; with a semicolon\n + 1;"
                + "SELECT /* block; /* nested; */ still comment; */ 2";
        assertThat(sql(script)).containsExactly(
                "SELECT 'a;b', 'it''s; fine' FROM t",
                "SELECT \"we;ird\"\"col\" FROM t",
                "SELECT E'back\\'slash;'",
                "SELECT $$ ; ' \" $$",
                "SELECT $fn$ body; $$ inner $$ ; $fn$",
                "SELECT 1 -- a comment; with a semicolon\n + 1",
                "SELECT /* block; /* nested; */ still comment; */ 2");
    }

    @Test
    void positionalParametersAndDollarsInIdentifiersAreNotDollarQuotes() {
        assertThat(sql("SELECT $1; SELECT a$b$ FROM t; SELECT 2"))
                .containsExactly("SELECT $1", "SELECT a$b$ FROM t", "SELECT 2");
    }

    @Test
    void markersAreReadIgnoringWhitespaceInsideTheComment() {
        List<ScriptStatement> s = Scripts.parse("SET x = 1; SELECT 1 /* A */; SELECT 2 /*A*/; SELECT 3 /*\tB\n*/;"
                + "/* B */ SELECT 4; SELECT 5 /* a */; SELECT 6 -- A\n; SELECT 7 /* AB */");
        assertThat(s).extracting(ScriptStatement::startsTimer)
                .containsExactly(false, true, true, false, false, false, false, false);
        assertThat(s).extracting(ScriptStatement::stopsTimer)
                .containsExactly(false, false, false, true, true, false, false, false);
        // the text is kept as sent, markers included
        assertThat(s.get(1).sql()).isEqualTo("SELECT 1 /* A */");
        assertThat(s.get(4).sql()).isEqualTo("/* B */ SELECT 4");
    }

    @Test
    void markersInsideStringsAreNotMarkers() {
        List<ScriptStatement> s = Scripts.parse("SELECT '/* A */', $$/* B */$$");
        assertThat(s).singleElement().satisfies(st -> {
            assertThat(st.startsTimer()).isFalse();
            assertThat(st.stopsTimer()).isFalse();
        });
    }

    @Test
    void oneStatementMayCarryBothMarkers() {
        List<ScriptStatement> s = Scripts.parseBenchmark("Both", "SELECT 1 /* A */ /* B */");
        assertThat(s).singleElement().satisfies(st -> {
            assertThat(st.startsTimer()).isTrue();
            assertThat(st.stopsTimer()).isTrue();
        });
    }

    @Test
    void theExpectCommentIsReadTrimmed() {
        List<ScriptStatement> s = Scripts.parse("SELECT count(*) FROM v /* expect:   100000  */; SELECT 1, 'a'"
                + " /*expect:1 a*/; SELECT 2");
        assertThat(s.get(0).expected()).contains("100000");
        assertThat(s.get(1).expectedOrNull()).isEqualTo("1 a");
        assertThat(s.get(2).expected()).isEmpty();
    }

    @Test
    void twoExpectationsOnOneStatementAreRejected() {
        assertThatThrownBy(() -> Scripts.parse("SELECT 1 /* expect: 1 */ /* expect: 2 */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("two /* expect: ... */");
    }

    @Test
    void aMarkerOnAnEmptyStatementIsRejectedNotDropped() {
        assertThatThrownBy(() -> Scripts.parse("SELECT 1; /* A */; SELECT 2 /* B */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("/* A */ comment is not on any statement");
    }

    @Test
    void unterminatedQuotesAndCommentsAreErrorsNamingWhatAndWhere() {
        assertThatThrownBy(() -> Scripts.parse("SELECT 1;\nSELECT 'oops; SELECT 2"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("unterminated string literal")
                .hasMessageContaining("line 2, column 8");
        assertThatThrownBy(() -> Scripts.parse("SELECT \"col FROM t"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("unterminated quoted identifier");
        assertThatThrownBy(() -> Scripts.parse("SELECT $x$ body $y$"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("unterminated dollar-quoted string (no closing $x$)");
        assertThatThrownBy(() -> Scripts.parse("SELECT 1 /* A /* nested */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("unterminated block comment");
        assertThatThrownBy(() -> Scripts.parse("SELECT 'it''s"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("unterminated string literal");
    }

    @Test
    void aBenchmarkNeedsExactlyOneAAndOneBWithANotAfterB() {
        assertThat(Scripts.parseBenchmark("Ok", "SET a = 1; SELECT 1 /* A */; SELECT 2; SELECT 3 /* B */; DROP x"))
                .hasSize(5);
        assertThatThrownBy(() -> Scripts.parseBenchmark("NoA", "SELECT 1; SELECT 2 /* B */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageStartingWith("NoA: benchmark() must mark exactly one statement /* A */, found none");
        assertThatThrownBy(() -> Scripts.parseBenchmark("NoB", "SELECT 1 /* A */; SELECT 2"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageStartingWith("NoB: benchmark() must mark exactly one statement /* B */, found none");
        assertThatThrownBy(() -> Scripts.parseBenchmark("TwoAs", "SELECT 1 /* A */; SELECT 2 /*A*/; SELECT 3 /* B */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageStartingWith("TwoAs:")
                .hasMessageContaining("found 2 (statements 1, 2)");
        assertThatThrownBy(() -> Scripts.parseBenchmark("BThenA", "SELECT 1 /* B */; SELECT 2 /* A */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageStartingWith("BThenA: benchmark() marks statement 2 /* A */ after statement 1 /* B */");
        assertThatThrownBy(() -> Scripts.parseBenchmark("Broken", "SELECT 'x /* A */ /* B */"))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageStartingWith("Broken: benchmark(): unterminated string literal");
    }

    @Test
    void repeatTimedProducesAValidBenchmark() {
        String body = new FeatureScenario() {
            @Override
            public Body benchmark() {
                return Body.script(repeatTimed(3, "SELECT 1"));
            }
        }.benchmark().rendered();
        List<ScriptStatement> s = Scripts.parseBenchmark("Repeat", body);
        assertThat(s).extracting(ScriptStatement::startsTimer).containsExactly(true, false, false);
        assertThat(s).extracting(ScriptStatement::stopsTimer).containsExactly(false, false, true);
    }

    @Test
    void normalizeIgnoresCaseLayoutSemicolonsAndComments() {
        String a = "CREATE TABLE t (a int);\nSELECT count(*) FROM t /* A */ /* B */;";
        String b = "create   table T(A INT)  -- make it\n;;select COUNT( * )from t /*A*/";
        assertThat(Scripts.normalize(a)).isEqualTo("create table t(a int)select count(*)from t");
        assertThat(Scripts.normalize(b)).isEqualTo(Scripts.normalize(a));
        assertThat(Scripts.normalize("  SELECT\t1  ;  ")).isEqualTo("select 1");
    }

    @Test
    void normalizeKeepsLiteralsAndQuotedIdentifiersExactly() {
        assertThat(Scripts.normalize("SELECT 'A  B; /* c */' FROM \"Tab\"")).isEqualTo("select'A  B; /* c */'from\"Tab\"");
        assertThat(Scripts.normalize("SELECT 'A'")).isNotEqualTo(Scripts.normalize("SELECT 'a'"));
        assertThat(Scripts.normalize("SELECT $$X;Y$$")).isEqualTo("select $$X;Y$$");
        assertThat(Scripts.normalize("SELECT 'a'\n'b'")).isNotEqualTo(Scripts.normalize("SELECT 'a''b'"));
    }

    @Test
    void normalizeToleratesFreeTextThatIsNotSql() {
        assertThat(Scripts.normalize("Restart; then read ALL_V (don't wait)"))
                .isEqualTo("restart then read all_v(don't wait)");
    }
}
