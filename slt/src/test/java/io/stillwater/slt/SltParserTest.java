package io.stillwater.slt;

import java.nio.file.Files;
import java.nio.file.Path;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SltParserTest {
    private static List<Record> parse(String text) {
        return SltParser.parse("t.slt", text).records();
    }

    private static <T extends Record> T only(String text, Class<T> type) {
        List<Record> rs = parse(text);
        assertThat(rs).hasSize(1);
        assertThat(rs.get(0)).isInstanceOf(type);
        return type.cast(rs.get(0));
    }

    @Test
    void statementOkWithMultiLineSql() {
        Record.Statement s = only("statement ok\nCREATE TABLE t(\n  a INT)\n", Record.Statement.class);
        assertThat(s.expectation()).isInstanceOf(Record.StatementExpectation.Ok.class);
        assertThat(s.sql()).isEqualTo("CREATE TABLE t(\n  a INT)");
        assertThat(s.location()).isEqualTo(new Location("t.slt", 1));
        assertThat(only("statement OK\nSELECT 1", Record.Statement.class).expectation())
                .isInstanceOf(Record.StatementExpectation.Ok.class);
    }

    @Test
    void statementErrorPlainRegexAndPgcode() {
        Record.Statement plain = only("statement error\nDROP TABLE nope\n", Record.Statement.class);
        assertThat(plain.expectation()).isEqualTo(new Record.StatementExpectation.Error(new ExpectedError("", "")));

        Record.Statement regex = only("statement error relation \"nope\" does not exist\nDROP TABLE nope\n",
                Record.Statement.class);
        assertThat(regex.expectation()).isEqualTo(new Record.StatementExpectation.Error(
                new ExpectedError("relation \"nope\" does not exist", "")));

        Record.Statement code = only("statement error pgcode 42p01 does not exist\nDROP TABLE nope\n",
                Record.Statement.class);
        assertThat(code.expectation()).isEqualTo(new Record.StatementExpectation.Error(
                new ExpectedError("does not exist", "42P01")));
    }

    @Test
    void statementCount() {
        Record.Statement s = only("statement count 3\nINSERT INTO t VALUES (1),(2),(3)\n", Record.Statement.class);
        assertThat(s.expectation()).isEqualTo(new Record.StatementExpectation.Count(3));
    }

    @Test
    void queryWithTypesSortLabelAndValues() {
        Record.Query q = only("query IT rowsort label-1\nSELECT a, b\nFROM t\n----\n1\nx\n2\n(empty)\n",
                Record.Query.class);
        assertThat(q.types()).containsExactly(ColumnType.INTEGER, ColumnType.TEXT);
        assertThat(q.sort()).isEqualTo(SortMode.ROWSORT);
        assertThat(q.label()).isEqualTo("label-1");
        assertThat(q.sql()).isEqualTo("SELECT a, b\nFROM t");
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Values(List.of("1", "x", "2", "(empty)")));
        assertThat(q.mode()).isEqualTo(Mode.STANDARD);
        assertThat(q.span()).isEqualTo(new OutputSpan(3, 3, 4, 8));
    }

    @Test
    void queryTypeLettersIncludeBoolAndOid() {
        Record.Query q = only("query TIRBO valuesort\nSELECT 1\n----\n", Record.Query.class);
        assertThat(q.types()).containsExactly(ColumnType.TEXT, ColumnType.INTEGER, ColumnType.REAL, ColumnType.BOOL,
                ColumnType.OID);
        assertThat(q.sort()).isEqualTo(SortMode.VALUESORT);
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Values(List.of()));
    }

    @Test
    void queryWithoutSeparatorExpectsNoRowsAndDefaultsToNosort() {
        Record.Query q = only("query I\nSELECT 1 WHERE false\n\nstatement ok\nSELECT 1\n".split("\n\n")[0], Record.Query.class);
        assertThat(q.sort()).isEqualTo(SortMode.NOSORT);
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Values(List.of()));
        assertThat(q.span().separator()).isEqualTo(-1);
    }

    @Test
    void hashedResult() {
        Record.Query q = only("query III rowsort\nSELECT a,b,c FROM t1\n----\n30 values hashing to 3C13DEE48D9356AE19AF2515E05E6B54\n",
                Record.Query.class);
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Hashed(30, "3c13dee48d9356ae19af2515e05e6b54"));
    }

    @Test
    void queryErrorWithPgcode() {
        Record.QueryError q = only("query error pgcode 22012 division by zero\nSELECT 1/0\n", Record.QueryError.class);
        assertThat(q.error()).isEqualTo(new ExpectedError("division by zero", "22012"));
        assertThat(q.sql()).isEqualTo("SELECT 1/0");
    }

    @Test
    void colnamesReadsTheFirstOutputLineWithSpaceMarks() {
        Record.Query q = only("query IT colnames\nSELECT 1 AS a, 'x' AS \"b c\"\n----\na b\u2420c\n1\nx\n", Record.Query.class);
        assertThat(q.checkColumnNames()).isTrue();
        assertThat(q.columnNames()).containsExactly("a", "b c");
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Values(List.of("1", "x")));
    }

    @Test
    void multilineKeepsTextUntilEof() {
        Record.Query q = only("query T multiline\nSELECT 'a' || chr(10) || 'b'\n----\na\nb\n\nc\nEOF\n", Record.Query.class);
        assertThat(q.multiline()).isTrue();
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Values(List.of("a\nb\n\nc")));
        assertThat(q.span()).isEqualTo(new OutputSpan(2, 2, 3, 7));
    }

    @Test
    void cockroachModeSplitsRowsAndSortsExpected() {
        List<Record> rs = parse("mode cockroach\n\nquery IT rowsort\nSELECT 1\n----\n2  b\u2420c\n1   a\n\nmode standard\n\n"
                + "query I nosort\nSELECT 1\n----\n1\n");
        assertThat(rs).hasSize(2);
        Record.Query c = (Record.Query) rs.get(0);
        assertThat(c.mode()).isEqualTo(Mode.COCKROACH);
        assertThat(c.expected()).isEqualTo(new ExpectedOutput.Values(List.of("1", "a", "2", "b c")));
        assertThat(((Record.Query) rs.get(1)).mode()).isEqualTo(Mode.STANDARD);
    }

    @Test
    void simpleBlockWithConnectionAndUser() {
        Record.Simple s = only("simple conn=admin,user=postgres\nCREATE TABLE x(a int); SELECT 1;\n----\nCOMPLETE 0\n1\nCOMPLETE 1\n",
                Record.Simple.class);
        assertThat(s.connection()).isEqualTo("admin");
        assertThat(s.user()).isEqualTo("postgres");
        assertThat(s.sql()).isEqualTo("CREATE TABLE x(a int); SELECT 1;");
        assertThat(s.expected()).containsExactly("COMPLETE 0", "1", "COMPLETE 1");
    }

    @Test
    void simpleMultilineThenCompleteLines() {
        Record.Simple s = only("simple multiline\nSELECT 'a' || chr(10) || 'b'\n----\na\nb\nEOF\nCOMPLETE 1\n", Record.Simple.class);
        assertThat(s.expected()).containsExactly("a\nb", "COMPLETE 1");
    }

    @Test
    void conditionsHaltHashThresholdAndResetServer() {
        List<Record> rs = parse("hash-threshold 8\n\nskipif mysql # comment\nonlyif postgresql\nstatement ok\nSELECT 1\n\n"
                + "reset-server\n\nonlyif mssql\nhalt\n\nhalt\n");
        assertThat(rs).hasSize(5);
        assertThat(rs.get(0)).isEqualTo(new Record.HashThreshold(new Location("t.slt", 1), List.of(), 8));
        Record.Statement s = (Record.Statement) rs.get(1);
        assertThat(s.conditions()).containsExactly(new Condition(Condition.Kind.SKIPIF, "mysql"),
                new Condition(Condition.Kind.ONLYIF, "postgresql"));
        assertThat(s.location().line()).isEqualTo(5); // the record's keyword line
        assertThat(s.appliesTo("postgresql")).isTrue();
        assertThat(s.appliesTo("mysql")).isFalse();
        assertThat(s.appliesTo("sqlite")).isFalse();
        assertThat(rs.get(2)).isInstanceOf(Record.ResetServer.class);
        assertThat(rs.get(3)).isInstanceOf(Record.Halt.class);
        assertThat(rs.get(3).appliesTo("postgresql")).isFalse();
        assertThat(rs.get(4).appliesTo("postgresql")).isTrue();
    }

    @Test
    void commentsAreIgnoredAndDoNotSeparateRecords() {
        List<Record> rs = parse("# leading comment\nstatement ok\n# inside\nSELECT 1\n\n\n# between\n\nquery I nosort\nSELECT 2\n----\n2\n");
        assertThat(rs).hasSize(2);
        assertThat(((Record.Statement) rs.get(0)).sql()).isEqualTo("SELECT 1");
        assertThat(rs.get(1).location().line()).isEqualTo(9);
    }

    @Test
    void crlfLineEndingsAreAccepted() {
        Record.Query q = only("query I nosort\r\nSELECT 1\r\n----\r\n1\r\n", Record.Query.class);
        assertThat(q.expected()).isEqualTo(new ExpectedOutput.Values(List.of("1")));
    }

    @Test
    void malformedRecordsAreReportedWithLineAndParsingContinues() {
        String text = String.join("\n",
                "statement maybe", "SELECT 1", "",                  // 1: bad disposition
                "query X nosort", "SELECT 1", "----", "1", "",      // 4: bad type letter
                "query I sideways", "SELECT 1", "",                 // 9: bad option
                "frobnicate now", "",                                // 12: unknown record
                "hash-threshold many", "",                           // 14
                "statement count lots", "SELECT 1", "",             // 16
                "query T multiline", "SELECT 1", "----", "x", "",   // 19: no EOF -> swallows to end
                "");
        List<Record> rs = parse(text);
        assertThat(rs).allMatch(r -> r instanceof Record.Malformed);
        assertThat(rs).extracting(r -> r.location().line()).containsExactly(1, 4, 9, 12, 14, 16, 19);
        assertThat(((Record.Malformed) rs.get(1)).message()).contains("'X'");
        assertThat(((Record.Malformed) rs.get(6)).message()).contains("EOF");
    }

    @Test
    void malformedRecordDoesNotHideTheNextOne() {
        List<Record> rs = parse("query I nosort wrongly extra\nSELECT 1\n\nstatement error [unclosed\nSELECT 1\n\nstatement ok\nSELECT 1\n");
        assertThat(rs).hasSize(3);
        assertThat(rs.get(0)).isInstanceOf(Record.Query.class); // extra words after the label are ignored
        assertThat(rs.get(1)).isInstanceOf(Record.Malformed.class);
        assertThat(((Record.Malformed) rs.get(1)).message()).contains("invalid error regex");
        assertThat(rs.get(2)).isInstanceOf(Record.Statement.class);
    }

    @Test
    void emptySqlAndMissingSeparatorsAreMalformed() {
        assertThat(parse("statement ok\n")).singleElement().isInstanceOf(Record.Malformed.class);
        assertThat(parse("query I nosort\n----\n1\n")).singleElement().isInstanceOf(Record.Malformed.class);
        assertThat(parse("simple\nSELECT 1\n")).singleElement().isInstanceOf(Record.Malformed.class);
        assertThat(parse("simple user=x\nSELECT 1\n----\n1\n")).singleElement()
                .satisfies(r -> assertThat(((Record.Malformed) r).message()).contains("conn="));
        assertThat(parse("query I multiline,rowsort\nSELECT 1\n----\nx\nEOF\n")).singleElement()
                .isInstanceOf(Record.Malformed.class);
        assertThat(parse("mode fancy\n")).singleElement().isInstanceOf(Record.Malformed.class);
    }

    @Test
    void conditionsSeparatedFromTheirRecordByABlankLineAreMalformed() {
        List<Record> rs = parse("onlyif sqlite\n\nstatement ok\nSELECT 1\n\nskipif postgresql\n");
        assertThat(rs).hasSize(3);
        assertThat(rs.get(0)).isInstanceOf(Record.Malformed.class);
        assertThat(rs.get(0).location().line()).isEqualTo(1);
        assertThat(rs.get(1)).isInstanceOf(Record.Statement.class);
        assertThat(rs.get(1).conditions()).isEmpty();
        assertThat(rs.get(2)).isInstanceOf(Record.Malformed.class);
        assertThat(rs.get(2).location().line()).isEqualTo(6);
    }

    @Test
    void copyDirectiveIsUnsupportedNotMalformed() {
        assertThat(parse("copy t data.tsv\n")).singleElement().isInstanceOf(Record.Unsupported.class);
    }

    @Test
    void corpusFilesParseWithoutMalformedRecords() throws Exception {
        Path dir = Corpus.sqlite();
        for (String name : List.of("select1.test", "select2.test", "select3.test")) {
            Script s = SltParser.parse(name, Files.readString(dir.resolve(name)));
            assertThat(s.records()).noneMatch(r -> r instanceof Record.Malformed);
        }
        Script s1 = SltParser.parse("select1.test", Files.readString(dir.resolve("select1.test")));
        assertThat(s1.records()).filteredOn(r -> r instanceof Record.Query).hasSize(1031 - 31);
        assertThat(s1.records()).filteredOn(r -> r instanceof Record.Query q && q.expected() instanceof ExpectedOutput.Hashed)
                .isNotEmpty();
    }
}
