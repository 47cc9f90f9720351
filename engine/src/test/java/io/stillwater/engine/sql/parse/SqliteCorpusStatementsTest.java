package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.Statement.CreateTable;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statement shapes from the SQLite sqllogictest corpus (select1.test, evidence/*.test):
 * its tables must be creatable, and the statements Stillwater lacks must fail with 0A000
 * (so {@code statement ok} records report "not supported", not a confusing syntax error).
 */
class SqliteCorpusStatementsTest {
    @Test
    void createTablesOfTheSelectTests() {
        CreateTable t = (CreateTable) UtilityParser.parse("CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)")
                .orElseThrow();
        assertThat(t.name()).isEqualTo("t1");
        assertThat(t.columns()).extracting(ColumnDef::name).containsExactly("a", "b", "c", "d", "e");
        assertThat(t.columns()).extracting(ColumnDef::type).containsOnly(SqlType.INTEGER);
        assertThat(t.columns()).extracting(ColumnDef::notNull).containsOnly(false);
    }

    @Test
    void createTablesOfTheEvidenceTests() {
        assertThat(columns("CREATE TABLE t1( x INTEGER, y VARCHAR(8) )")).containsExactly(
                new ColumnDef("x", SqlType.INTEGER, false, null), new ColumnDef("y", SqlType.varchar(8), false, null));
        assertThat(columns("CREATE TABLE t1( x INTEGER PRIMARY KEY, y VARCHAR(16) )")).containsExactly(
                new ColumnDef("x", SqlType.INTEGER, true, null), new ColumnDef("y", SqlType.varchar(16), false, null));
        assertThat(columns("CREATE TABLE t1( x INTEGER, y TEXT )")).extracting(ColumnDef::type)
                .containsExactly(SqlType.INTEGER, SqlType.TEXT);
        assertThat(columns("CREATE TABLE t3(z INTEGER UNIQUE)")).containsExactly(new ColumnDef("z", SqlType.INTEGER, false, null));
        assertThat(columns("CREATE TABLE t7(a TEXT UNIQUE)")).containsExactly(new ColumnDef("a", SqlType.TEXT, false, null));
        assertThat(columns("CREATE TABLE t2(y INTEGER PRIMARY KEY)")).containsExactly(new ColumnDef("y", SqlType.INTEGER, true, null));
        assertThat(UtilityParser.parse("DROP TABLE IF EXISTS t1")).contains(new Statement.DropTable(List.of("t1"), true));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            CREATE TEMP VIEW view2 AS SELECT x FROM t1 WHERE x>0  | CREATE TEMP VIEW
            CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1       | CREATE TRIGGER
            DROP TRIGGER t1r1                                     | DROP TRIGGER
            REINDEX t1i1                                          | REINDEX
            REPLACE INTO t1 VALUES(2, 'replace')                  | REPLACE INTO
            """)
    void statementsStillwaterLacksAreFeatureNotSupported(String sql, String statement) {
        assertSqlError(() -> UtilityParser.parse(sql), SqlState.FEATURE_NOT_SUPPORTED, statement + " is not supported");
    }

    @Test
    void triggerBodiesSplitLikePsqlDoes() {
        // The corpus writes "CREATE TRIGGER ... BEGIN SELECT 1; END;": PostgreSQL has no such
        // syntax, and like psql the splitter ends the statement at the first semicolon.
        assertThat(SqlSplitter.split("CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1; END;"))
                .containsExactly("CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1", "END");
    }

    @ParameterizedTest
    @ValueSource(strings = {"INSERT INTO t1(e,c,b,d,a) VALUES(103,102,100,101,104)", "INSERT OR REPLACE INTO t1 VALUES(1, 'x')",
        "UPDATE t1 SET x=1 WHERE x>0", "DELETE FROM t1 WHERE x=1", "SELECT CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END FROM t1"})
    void dmlAndQueriesAreLeftToCalcite(String sql) {
        assertThat(UtilityParser.parse(sql)).isEmpty();
    }

    private static List<ColumnDef> columns(String sql) {
        return ((CreateTable) UtilityParser.parse(sql).orElseThrow()).columns();
    }
}
