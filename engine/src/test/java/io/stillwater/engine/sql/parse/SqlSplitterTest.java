package io.stillwater.engine.sql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class SqlSplitterTest {
    @Test
    void splitsOnTopLevelSemicolons() {
        assertThat(SqlSplitter.split("SELECT 1; SELECT 2;SELECT 3")).containsExactly("SELECT 1", "SELECT 2", "SELECT 3");
    }

    @Test
    void semicolonsInsideQuotesCommentsAndParenthesesDoNotSplit() {
        assertThat(SqlSplitter.split("SELECT 'a;b', \"c;d\"; SELECT E'\\';'")).containsExactly(
                "SELECT 'a;b', \"c;d\"", "SELECT E'\\';'");
        assertThat(SqlSplitter.split("SELECT $$a;b$$, $t$;$$;$t$; SELECT 2")).containsExactly(
                "SELECT $$a;b$$, $t$;$$;$t$", "SELECT 2");
        assertThat(SqlSplitter.split("SELECT 1 -- not ; here\n, 2; SELECT /* ; /* ; */ ; */ 3")).containsExactly(
                "SELECT 1 -- not ; here\n, 2", "SELECT /* ; /* ; */ ; */ 3");
        assertThat(SqlSplitter.split("SELECT 'a'\n';b'; SELECT 2")).containsExactly("SELECT 'a'\n';b'", "SELECT 2");
        assertThat(SqlSplitter.split("SELECT (1; 2); SELECT ((;));")).containsExactly("SELECT (1; 2)", "SELECT ((;))");
    }

    @Test
    void dropsEmptyStatementsAndTrims() {
        assertThat(SqlSplitter.split("")).isEmpty();
        assertThat(SqlSplitter.split(" ;; \n ; ")).isEmpty();
        assertThat(SqlSplitter.split("-- just a comment")).isEmpty();
        assertThat(SqlSplitter.split("SELECT 1; -- trailing comment\n /* and another */ ")).containsExactly("SELECT 1");
        assertThat(SqlSplitter.split(";;\n  SELECT 1  ;;; ")).containsExactly("SELECT 1");
        // comments inside a statement are kept; those before its first or after its last token are not
        assertThat(SqlSplitter.split("/* lead */ SELECT /* in */ 1 /* tail */; SELECT 2 -- end")).containsExactly(
                "SELECT /* in */ 1", "SELECT 2");
    }

    @Test
    void trailingTextWithoutSemicolonIsAStatement() {
        assertThat(SqlSplitter.split("BEGIN; INSERT INTO t VALUES (1)")).containsExactly("BEGIN", "INSERT INTO t VALUES (1)");
    }

    @Test
    void unbalancedParenthesesAndUnterminatedQuotesKeepTheRestTogether() {
        // an unclosed ( keeps the rest in one statement; its parse reports the error
        assertThat(SqlSplitter.split("SELECT 1; SELECT (1; SELECT 2")).containsExactly("SELECT 1", "SELECT (1; SELECT 2");
        // a stray ) does not make later semicolons nested
        assertThat(SqlSplitter.split("SELECT 1); SELECT 2")).containsExactly("SELECT 1)", "SELECT 2");
        assertThat(SqlSplitter.split("SELECT 1; SELECT 'abc; SELECT 3")).containsExactly("SELECT 1", "SELECT 'abc; SELECT 3");
        assertThat(SqlSplitter.split("SELECT 1; /* open; SELECT 3")).containsExactly("SELECT 1", "/* open; SELECT 3");
        assertThat(SqlSplitter.split("SELECT 1; SELECT /* open; SELECT 3")).containsExactly("SELECT 1", "SELECT /* open; SELECT 3");
    }

    @Test
    void piecesKnowTheirOffsets() {
        String sql = "SELECT 1;\n  SHOW x ; ";
        assertThat(SqlSplitter.pieces(sql)).containsExactly(
                new SqlSplitter.Piece("SELECT 1", 0), new SqlSplitter.Piece("SHOW x", 12));
        SqlSplitter.Piece second = SqlSplitter.pieces(sql).get(1);
        assertThat(sql.substring(second.offset())).startsWith(second.text());
    }

    // ---- property: splitting statements joined by ';' gives them back

    @Property(tries = 300)
    void splittingJoinedStatementsGivesThemBack(
            @ForAll("statements") List<String> statements, @ForAll("separators") List<String> separators) {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < statements.size(); i++) {
            sql.append(statements.get(i));
            sql.append(separators.get(i % separators.size()));
        }
        assertThat(SqlSplitter.split(sql.toString())).isEqualTo(statements);
    }

    @Provide
    Arbitrary<List<String>> separators() {
        return Arbitraries.of(";", " ;", ";\n", " ; ;  ", ";-- c\n", "; /* ; */ ;").list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<List<String>> statements() {
        return statement().list().ofMinSize(0).ofMaxSize(6);
    }

    /** A statement: a leading word, then tokens (each may hide semicolons), space-separated. */
    private Arbitrary<String> statement() {
        Arbitrary<String> lead = Arbitraries.of("SELECT", "insert", "CREATE TABLE", "SET", "\"q;\"");
        return Combinators.combine(lead, token().list().ofMaxSize(6))
                .as((first, rest) -> rest.isEmpty() ? first : first + " " + String.join(" ", rest));
    }

    private Arbitrary<String> token() {
        Arbitrary<String> text = Arbitraries.strings().withChars("ab;'\"$ \n*/-()").ofMaxLength(8);
        Arbitrary<String> ident = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(5);
        return Arbitraries.oneOf(
                ident,
                Arbitraries.integers().between(0, 100000).map(String::valueOf),
                Arbitraries.of("+", "<>", "::", ",", ".", "=", "*", "-"),
                text.map(s -> "'" + s.replace("'", "''") + "'"),
                text.map(s -> "E'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"),
                text.filter(s -> !s.isEmpty()).map(s -> "\"" + s.replace("\"", "\"\"") + "\""),
                text.filter(s -> !s.contains("$")).map(s -> "$q$" + s + "$q$"),
                text.filter(s -> !s.contains("$")).map(s -> "$$" + s + "$$"),
                text.filter(s -> !s.contains("*/") && !s.contains("/*") && !s.endsWith("/") && !s.startsWith("*"))
                        .map(s -> "/*" + s + "*/ y"),
                text.filter(s -> !s.contains("\n") && !s.contains("\r")).map(s -> "--" + s + "\nx"),
                text.filter(s -> !s.contains("(") && !s.contains(")") && !s.contains("'") && !s.contains("\"")
                        && !s.contains("$") && !s.contains("--") && !s.contains("/*")).map(s -> "(" + s + ")"));
    }
}
