package io.stillwater.engine.sql.parse;

import static io.stillwater.engine.sql.parse.SqlErrors.assertSqlError;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.ObjectKind;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.Statement.Begin;
import io.stillwater.engine.sql.Statement.Commit;
import io.stillwater.engine.sql.Statement.CreateTable;
import io.stillwater.engine.sql.Statement.DropTable;
import io.stillwater.engine.sql.Statement.ResetVariable;
import io.stillwater.engine.sql.Statement.Rollback;
import io.stillwater.engine.sql.Statement.SetVariable;
import io.stillwater.engine.sql.Statement.ShowVariable;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UtilityParserTest {
    static Statement parse(String sql) {
        return UtilityParser.parse(sql).orElseThrow(() -> new AssertionError("not a utility statement: " + sql));
    }

    static CreateTable create(String sql) { return (CreateTable) parse(sql); }

    @Nested
    class Dispatch {
        @ParameterizedTest
        @ValueSource(strings = {
            "SELECT 1", "select * from t", "INSERT INTO t VALUES (1)", "UPDATE t SET a = 1", "DELETE FROM t",
            "VALUES (1)", "WITH x AS (SELECT 1) SELECT * FROM x", "TABLE t", "(SELECT 1) UNION (SELECT 2)",
            "  /* c */ SELECT 1", "SELECT 'unterminated", "SELECT 123abc"})
        void queriesAndDmlGoToCalcite(String sql) {
            // Not lexed past the first word, so even a broken query is Calcite's to report.
            assertThat(UtilityParser.parse(sql)).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   ", "-- nothing\n", "/* nothing */", ";", " ; ; "})
        void emptyStatements(String sql) {
            assertThat(parse(sql)).isEqualTo(new Statement.Empty());
        }

        @Test
        void trailingSemicolonsAreAllowed() {
            assertThat(parse("COMMIT;")).isEqualTo(new Commit());
            assertThat(parse("COMMIT ; ; -- done")).isEqualTo(new Commit());
        }

        @Test
        void unknownFirstWordIsASyntaxError() {
            SqlSyntaxException e = (SqlSyntaxException) assertSqlError(() -> UtilityParser.parse("  FOO bar"),
                    SqlState.SYNTAX_ERROR, "syntax error at or near \"FOO\"");
            assertThat(e.offset()).isEqualTo(2);
            assertSqlError(() -> UtilityParser.parse("42"), SqlState.SYNTAX_ERROR, "syntax error at or near \"42\"");
        }

        @Test
        void textAfterTheStatementIsASyntaxError() {
            SqlSyntaxException e = (SqlSyntaxException) assertSqlError(() -> UtilityParser.parse("COMMIT now"),
                    SqlState.SYNTAX_ERROR, "syntax error at or near \"now\"");
            assertThat(e.position()).isEqualTo(8);
            assertSqlError(() -> UtilityParser.parse("COMMIT; COMMIT"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"COMMIT\"");
        }
    }

    @Nested
    class Unsupported {
        @ParameterizedTest
        @ValueSource(strings = {
            "CREATE TRIGGER t1r1 UPDATE ON t1 BEGIN SELECT 1| CREATE TRIGGER",
            "CREATE OR REPLACE TABLE t (a int)| CREATE OR REPLACE TABLE",
            "CREATE TEMP VIEW v AS SELECT 1| CREATE TEMP VIEW",
            "ALTER CLUSTER REPLICA c.r OWNER TO u| ALTER CLUSTER REPLICA",
            "CREATE TEMP TABLE t (a int)| CREATE TEMP TABLE",
            "CREATE SCHEMA s| CREATE SCHEMA",
            "DROP TRIGGER t1r1| DROP TRIGGER",
            "ALTER TABLE t ADD COLUMN b int| ALTER TABLE",
            "ALTER ROLE r RENAME TO s| ALTER ROLE ... RENAME",
            "GRANT r TO u| GRANT of role membership",
            "COPY t FROM '/tmp/f'| COPY from a file",
            "REINDEX t1i1| REINDEX",
            "REPLACE INTO t1 VALUES(2, 'replace')| REPLACE INTO",
            "PRAGMA foo| PRAGMA",
            "EXPLAIN ANALYZE SELECT 1| EXPLAIN ANALYZE",
            "DECLARE c SCROLL CURSOR FOR SELECT 1| DECLARE ... SCROLL CURSOR",
            "FETCH ABSOLUTE 3 FROM c| FETCH ABSOLUTE",
            "COMMIT PREPARED 'x'| COMMIT PREPARED",
            "SET ROLE admin| SET ROLE",
            "SET SESSION AUTHORIZATION u| SET SESSION AUTHORIZATION",
            "SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE| SET TIME ZONE INTERVAL"})
        void knownStatementsAreFeatureNotSupported(String line) {
            String sql = line.substring(0, line.indexOf('|'));
            String name = line.substring(line.indexOf('|') + 1).strip();
            assertSqlError(() -> UtilityParser.parse(sql), SqlState.FEATURE_NOT_SUPPORTED, name + " is not supported");
        }

        @Test
        void unknownObjectKindIsASyntaxError() {
            assertSqlError(() -> UtilityParser.parse("CREATE WIDGET w"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"WIDGET\"");
            assertSqlError(() -> UtilityParser.parse("DROP"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
        }
    }

    @Nested
    class Views {
        @Test
        void createViewKeepsTheQueryText() {
            assertThat(parse("CREATE VIEW v AS SELECT x FROM t1 WHERE x>0;"))
                    .isEqualTo(new Statement.CreateView("v", List.of(), "SELECT x FROM t1 WHERE x>0", 17, false, false));
            assertThat(parse("create or replace view public.\"V\" (a, \"B\") as  values (1, 2) ;; "))
                    .isEqualTo(new Statement.CreateView("V", List.of("a", "B"), "values (1, 2)", 47, true, false));
            assertThat(parse("CREATE VIEW IF NOT EXISTS v AS (SELECT 1)"))
                    .isEqualTo(new Statement.CreateView("v", List.of(), "(SELECT 1)", 31, false, true));
        }

        @Test
        void createViewSyntaxErrors() {
            assertSqlError(() -> UtilityParser.parse("CREATE VIEW v SELECT 1"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"SELECT\"");
            assertSqlError(() -> UtilityParser.parse("CREATE VIEW v AS"), SqlState.SYNTAX_ERROR,
                    "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1"),
                    SqlState.SYNTAX_ERROR, "cannot specify both OR REPLACE and IF NOT EXISTS");
        }

        @Test
        void dropViewAndTableWithBehaviour() {
            assertThat(parse("DROP VIEW IF EXISTS a, b CASCADE"))
                    .isEqualTo(new Statement.DropView(List.of("a", "b"), true, true));
            assertThat(parse("DROP VIEW a RESTRICT")).isEqualTo(new Statement.DropView(List.of("a"), false, false));
            assertThat(parse("DROP TABLE t CASCADE")).isEqualTo(new DropTable(List.of("t"), false, true));
            assertThat(parse("DROP TABLE t")).isEqualTo(new DropTable(List.of("t"), false, false));
        }

        @Test
        void showTablesAndViews() {
            assertThat(parse("SHOW TABLES")).isEqualTo(new Statement.ShowObjects(ObjectKind.TABLE));
            assertThat(parse("show views;")).isEqualTo(new Statement.ShowObjects(ObjectKind.VIEW));
            assertThat(parse("SHOW search_path")).isEqualTo(new ShowVariable("search_path"));
        }
    }

    @Nested
    class CreateTables {
        @Test
        void columnsTypesAndNullability() {
            CreateTable t = create("CREATE TABLE Orders (id bigint NOT NULL, \"Note\" text NULL, amount numeric(10,2))");
            assertThat(t.name()).isEqualTo("orders");
            assertThat(t.ifNotExists()).isFalse();
            assertThat(t.columns()).containsExactly(
                    new ColumnDef("id", SqlType.BIGINT, true, null),
                    new ColumnDef("Note", SqlType.TEXT, false, null),
                    new ColumnDef("amount", SqlType.numeric(10, 2), false, null));
            assertThat(t.commandVerb()).isEqualTo("CREATE TABLE");
        }

        @Test
        void ifNotExistsAndQualifiedNames() {
            CreateTable t = create("create table if not exists public.\"My Table\" (a int)");
            assertThat(t.ifNotExists()).isTrue();
            assertThat(t.name()).isEqualTo("My Table");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE other.t (a int)"), SqlState.FEATURE_NOT_SUPPORTED,
                    "schema \"other\" is not supported: tables live in schema \"public\"");
        }

        @Test
        void allTypeSpellings() {
            CreateTable t = create("""
                    CREATE TABLE t (a bool, b int2, c int, d int8, e float4, f double precision, g decimal,
                      h varchar(5), i character(2), j date, k time without time zone, l timestamp,
                      m timestamp with time zone, n interval, o bytea, p character varying)""");
            assertThat(t.columns()).extracting(c -> c.type().displayName()).containsExactly(
                    "boolean", "smallint", "integer", "bigint", "real", "double precision", "numeric",
                    "character varying(5)", "character(2)", "date", "time without time zone",
                    "timestamp without time zone", "timestamp with time zone", "interval", "bytea",
                    "character varying");
        }

        @Test
        void zeroColumnsIsAllowedAsInPostgres() {
            assertThat(create("CREATE TABLE t ()").columns()).isEmpty();
        }

        @Test
        void columnNamesThatAreReservedWordsMustBeQuoted() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (select int)"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"select\"");
            assertThat(create("CREATE TABLE t (\"select\" int, name text, value int)").columns())
                    .extracting(ColumnDef::name).containsExactly("select", "name", "value");
        }

        @Test
        void duplicateColumns() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int, b int, A text)"), SqlState.DUPLICATE_COLUMN,
                    "column \"a\" specified more than once");
        }

        @Test
        void typeErrors() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a foo)"), SqlState.UNDEFINED_OBJECT,
                    "type \"foo\" does not exist");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a numeric(2000))"), SqlState.INVALID_PARAMETER_VALUE,
                    "NUMERIC precision 2000 must be between 1 and 1000");
        }

        @Test
        void primaryKeyAndUniqueAreAcceptedNotEnforcedAndPrimaryKeyImpliesNotNull() {
            CreateTable t = create("CREATE TABLE t1(a INTEGER PRIMARY KEY, b TEXT UNIQUE, c int CONSTRAINT u UNIQUE NULLS NOT DISTINCT)");
            assertThat(t.columns()).containsExactly(
                    new ColumnDef("a", SqlType.INTEGER, true, null),
                    new ColumnDef("b", SqlType.TEXT, false, null),
                    new ColumnDef("c", SqlType.INTEGER, false, null));
            CreateTable u = create("CREATE TABLE t (a int, b int, c int, PRIMARY KEY (a, b), CONSTRAINT cu UNIQUE (c))");
            assertThat(u.columns()).extracting(ColumnDef::notNull).containsExactly(true, true, false);
        }

        @Test
        void keyErrors() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int, PRIMARY KEY (b))"), SqlState.UNDEFINED_COLUMN,
                    "column \"b\" named in key does not exist");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int, UNIQUE (a, z))"), SqlState.UNDEFINED_COLUMN,
                    "column \"z\" named in key does not exist");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int PRIMARY KEY, b int PRIMARY KEY)"),
                    SqlState.INVALID_TABLE_DEFINITION, "multiple primary keys for table \"t\" are not allowed");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int NULL PRIMARY KEY)"), SqlState.SYNTAX_ERROR,
                    "conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\"");
            // MySQL's prefix index syntax is not SQL
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t7(a TEXT, UNIQUE (a(1)))"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"(\"");
        }

        @Test
        void nullabilityConflicts() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int NOT NULL NULL)"), SqlState.SYNTAX_ERROR,
                    "conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int NULL NOT NULL)"), SqlState.SYNTAX_ERROR,
                    "conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\"");
            assertThat(create("CREATE TABLE t (a int NOT NULL NOT NULL CONSTRAINT nn NOT NULL)").columns().getFirst().notNull())
                    .isTrue();
        }

        @Test
        void unsupportedConstraints() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int CHECK (a > 0))"), SqlState.FEATURE_NOT_SUPPORTED,
                    "CHECK constraints are not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int, CONSTRAINT c CHECK (a > 0))"),
                    SqlState.FEATURE_NOT_SUPPORTED, "CHECK constraints are not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int REFERENCES u(a))"), SqlState.FEATURE_NOT_SUPPORTED,
                    "foreign key constraints are not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int, FOREIGN KEY (a) REFERENCES u(a))"),
                    SqlState.FEATURE_NOT_SUPPORTED, "foreign key constraints are not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int GENERATED ALWAYS AS (1) STORED)"),
                    SqlState.FEATURE_NOT_SUPPORTED, "generated columns are not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a text COLLATE \"C\")"), SqlState.FEATURE_NOT_SUPPORTED,
                    "COLLATE is not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t AS SELECT 1"), SqlState.FEATURE_NOT_SUPPORTED,
                    "CREATE TABLE AS is not supported");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int) WITH OIDS"),
                    SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE ... WITH OIDS is not supported");
        }

        @Test
        void syntaxErrorsPointAtTheToken() {
            SqlSyntaxException e = (SqlSyntaxException) assertSqlError(
                    () -> UtilityParser.parse("CREATE TABLE t (a int,)"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \")\"");
            assertThat(e.offset()).isEqualTo(22);
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int"), SqlState.SYNTAX_ERROR,
                    "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t a int"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"a\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE (a int)"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"(\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int) extra"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"extra\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a 'x')"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"'x'\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a text DEFAULT 'abc)"), SqlState.SYNTAX_ERROR,
                    "unterminated quoted string at or near \"'abc)\"");
        }
    }

    @Nested
    class Defaults {
        private static Object defaultOf(String columnSql) {
            return create("CREATE TABLE t (" + columnSql + ")").columns().getFirst().defaultValue();
        }

        @Test
        void constantsOfTheColumnsType() {
            assertThat(defaultOf("a int DEFAULT 5")).isEqualTo(5);
            assertThat(defaultOf("a int DEFAULT -5")).isEqualTo(-5);
            assertThat(defaultOf("a int DEFAULT - -5")).isEqualTo(5);
            assertThat(defaultOf("a int DEFAULT +7")).isEqualTo(7);
            assertThat(defaultOf("a int DEFAULT (((3)))")).isEqualTo(3);
            assertThat(defaultOf("a integer DEFAULT -2147483648")).isEqualTo(Integer.MIN_VALUE);
            assertThat(defaultOf("a bigint DEFAULT 5000000000")).isEqualTo(5_000_000_000L);
            assertThat(defaultOf("a numeric DEFAULT 1.50")).isEqualTo(new BigDecimal("1.50"));
            assertThat(defaultOf("a numeric DEFAULT 99999999999999999999")).isEqualTo(new BigDecimal("99999999999999999999"));
            assertThat(defaultOf("a numeric DEFAULT -1e3")).isEqualTo(new BigDecimal("-1000"));
            assertThat(defaultOf("a text DEFAULT 'it''s'")).isEqualTo("it's");
            assertThat(defaultOf("a varchar DEFAULT $$x$$")).isEqualTo("x");
            assertThat(defaultOf("a boolean DEFAULT TRUE")).isEqualTo(true);
            assertThat(defaultOf("a bool DEFAULT false")).isEqualTo(false);
            assertThat(defaultOf("a int DEFAULT NULL")).isNull();
            assertThat(defaultOf("a int NOT NULL DEFAULT NULL")).isNull();
            assertThat(defaultOf("a int")).isNull();
            assertThat(defaultOf("a int DEFAULT CAST(4 AS integer)")).isEqualTo(4);
            assertThat(defaultOf("a int DEFAULT 4::int4")).isEqualTo(4);
            assertThat(defaultOf("a text DEFAULT 'x'::text")).isEqualTo("x");
            assertThat(defaultOf("a text DEFAULT text 'y'")).isEqualTo("y");
            assertThat(defaultOf("a date DEFAULT NULL::date")).isNull();
        }

        @Test
        void defaultsCombineWithConstraintsInAnyOrder() {
            CreateTable t = create("CREATE TABLE t (a int DEFAULT 1 NOT NULL, b text NOT NULL DEFAULT 'b' UNIQUE, c int DEFAULT 3)");
            assertThat(t.columns()).containsExactly(
                    new ColumnDef("a", SqlType.INTEGER, true, 1),
                    new ColumnDef("b", SqlType.TEXT, true, "b"),
                    new ColumnDef("c", SqlType.INTEGER, false, 3));
        }

        @ParameterizedTest
        @ValueSource(strings = {
            "a timestamptz DEFAULT CURRENT_TIMESTAMP", "a timestamptz DEFAULT now()", "a int DEFAULT 1 + 2",
            "a int DEFAULT nextval('s')", "a int DEFAULT b", "a int DEFAULT $1", "a date DEFAULT CURRENT_DATE",
            "a text DEFAULT 'a' || 'b'", "a boolean DEFAULT 1 IS NULL", "a int DEFAULT -'5'"})
        void expressionsThatAreNotConstantsAreNotSupported(String column) {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (" + column + ")"), SqlState.FEATURE_NOT_SUPPORTED,
                    "DEFAULT expressions that are not constants are not supported");
        }

        @Test
        void defaultSyntaxErrors() {
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int DEFAULT)"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \")\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int DEFAULT 1 DEFAULT 2)"), SqlState.SYNTAX_ERROR,
                    "multiple default values specified for column \"a\" of table \"t\"");
            assertSqlError(() -> UtilityParser.parse("CREATE TABLE t (a int DEFAULT (1)"), SqlState.SYNTAX_ERROR,
                    "syntax error at end of input");
        }
    }

    @Nested
    class DropTables {
        @Test
        void forms() {
            assertThat(parse("DROP TABLE t")).isEqualTo(new DropTable(List.of("t"), false));
            assertThat(parse("drop table if exists A, \"B\", public.c CASCADE")).isEqualTo(
                    new DropTable(List.of("a", "B", "c"), true, true));
            assertThat(parse("DROP TABLE t RESTRICT;")).isEqualTo(new DropTable(List.of("t"), false));
            assertThat(parse("DROP TABLE t").commandVerb()).isEqualTo("DROP TABLE");
        }

        @Test
        void errors() {
            assertSqlError(() -> UtilityParser.parse("DROP TABLE"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("DROP TABLE a,"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("DROP TABLE a b"), SqlState.SYNTAX_ERROR, "syntax error at or near \"b\"");
        }
    }

    @Nested
    class Transactions {
        @ParameterizedTest
        @ValueSource(strings = {"BEGIN", "begin work", "BEGIN TRANSACTION", "START TRANSACTION", "BEGIN; ",
            "BEGIN NOT DEFERRABLE"})
        void beginWithoutIsolationLevel(String sql) {
            assertThat(parse(sql)).isEqualTo(new Begin(null));
        }

        @Test
        void accessModes() {
            assertThat(parse("BEGIN READ WRITE")).isEqualTo(new Begin(null, false));
            assertThat(parse("START TRANSACTION READ ONLY, NOT DEFERRABLE")).isEqualTo(new Begin(null, true));
        }

        @Test
        void savepoints() {
            assertThat(parse("SAVEPOINT s")).isEqualTo(new Statement.Savepoint("s", Statement.SavepointAction.DEFINE));
            assertThat(parse("ROLLBACK TO SAVEPOINT s"))
                    .isEqualTo(new Statement.Savepoint("s", Statement.SavepointAction.ROLLBACK_TO));
            assertThat(parse("rollback work to \"S\""))
                    .isEqualTo(new Statement.Savepoint("S", Statement.SavepointAction.ROLLBACK_TO));
            assertThat(parse("RELEASE s")).isEqualTo(new Statement.Savepoint("s", Statement.SavepointAction.RELEASE));
            assertThat(parse("RELEASE SAVEPOINT s"))
                    .isEqualTo(new Statement.Savepoint("s", Statement.SavepointAction.RELEASE));
            assertSqlError(() -> UtilityParser.parse("SAVEPOINT"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
        }

        @Test
        void cursorStatements() {
            assertThat(parse("FETCH c")).isEqualTo(new Statement.FetchCursor("c", 1, false));
            assertThat(parse("FETCH NEXT FROM c")).isEqualTo(new Statement.FetchCursor("c", 1, false));
            assertThat(parse("fetch forward 2000 from \"c\"")).isEqualTo(new Statement.FetchCursor("c", 2000, false));
            assertThat(parse("FETCH 5 IN c")).isEqualTo(new Statement.FetchCursor("c", 5, false));
            assertThat(parse("FETCH ALL c")).isEqualTo(new Statement.FetchCursor("c", Long.MAX_VALUE, false));
            assertThat(parse("FETCH FORWARD ALL FROM c")).isEqualTo(new Statement.FetchCursor("c", Long.MAX_VALUE, false));
            assertThat(parse("MOVE FORWARD 3 IN c")).isEqualTo(new Statement.FetchCursor("c", 3, true));
            assertThat(parse("CLOSE c")).isEqualTo(new Statement.CloseCursor("c"));
            assertThat(parse("CLOSE ALL")).isEqualTo(new Statement.CloseCursor(null));
            assertSqlError(() -> UtilityParser.parse("FETCH BACKWARD 1 FROM c"), SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "cursor can only scan forward");
            assertSqlError(() -> UtilityParser.parse("FETCH -1 FROM c"), SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "cursor can only scan forward");
            assertThat(CursorParser.declared("DECLARE c CURSOR WITH HOLD FOR SELECT 1"))
                    .contains(new CursorParser.Declared("c", true, 31));
            assertThat(CursorParser.declared("DECLARE \"c\" BINARY NO SCROLL CURSOR WITHOUT HOLD FOR SELECT 1"))
                    .contains(new CursorParser.Declared("c", false, 53));
            assertThat(CursorParser.declared("SELECT 1")).isEmpty();
        }

        @Test
        void isolationLevels() {
            assertThat(parse("BEGIN ISOLATION LEVEL SERIALIZABLE")).isEqualTo(new Begin("serializable"));
            assertThat(parse("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
                    .isEqualTo(new Begin("repeatable read", true));
            assertThat(parse("START TRANSACTION READ WRITE ISOLATION LEVEL READ COMMITTED"))
                    .isEqualTo(new Begin("read committed", false));
            assertThat(parse("begin isolation level read uncommitted")).isEqualTo(new Begin("read uncommitted"));
            assertThat(parse("BEGIN ISOLATION LEVEL STRICT SERIALIZABLE")).isEqualTo(new Begin("strict serializable"));
            assertSqlError(() -> UtilityParser.parse("BEGIN ISOLATION LEVEL CHAOS"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"CHAOS\"");
            assertSqlError(() -> UtilityParser.parse("BEGIN READ ONLY,"), SqlState.SYNTAX_ERROR,
                    "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("START"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
        }

        @ParameterizedTest
        @ValueSource(strings = {"COMMIT", "commit work", "COMMIT TRANSACTION", "END", "end transaction"})
        void commit(String sql) {
            assertThat(parse(sql)).isEqualTo(new Commit());
        }

        @ParameterizedTest
        @ValueSource(strings = {"ROLLBACK", "rollback work", "ROLLBACK TRANSACTION", "ABORT", "abort work"})
        void rollback(String sql) {
            assertThat(parse(sql)).isEqualTo(new Rollback());
        }
    }

    @Nested
    class Settings {
        @Test
        void setForms() {
            assertThat(parse("SET search_path TO public")).isEqualTo(new SetVariable("search_path", "public", false));
            assertThat(parse("SET SESSION statement_timeout = '5s'")).isEqualTo(new SetVariable("statement_timeout", "5s", false));
            assertThat(parse("SET LOCAL statement_timeout = 5000")).isEqualTo(new SetVariable("statement_timeout", "5000", true));
            assertThat(parse("SET extra_float_digits = -3")).isEqualTo(new SetVariable("extra_float_digits", "-3", false));
            assertThat(parse("SET x = +1.5")).isEqualTo(new SetVariable("x", "1.5", false));
            assertThat(parse("SET x = 0x10")).isEqualTo(new SetVariable("x", "16", false));
            assertThat(parse("SET DateStyle TO ISO, MDY")).isEqualTo(new SetVariable("datestyle", "iso, mdy", false));
            assertThat(parse("SET cluster = \"Quoted\"")).isEqualTo(new SetVariable("cluster", "Quoted", false));
            assertThat(parse("SET enable_x = on")).isEqualTo(new SetVariable("enable_x", "on", false));
            assertThat(parse("SET enable_x TO OFF")).isEqualTo(new SetVariable("enable_x", "off", false));
            assertThat(parse("SET enable_x = TRUE")).isEqualTo(new SetVariable("enable_x", "true", false));
            assertThat(parse("SET my.custom = 'v'")).isEqualTo(new SetVariable("my.custom", "v", false));
            assertThat(parse("SET \"TimeZone\" = 'UTC'")).isEqualTo(new SetVariable("timezone", "UTC", false));
            assertThat(parse("SET application_name = DEFAULT")).isEqualTo(new SetVariable("application_name", null, false));
            assertThat(parse("SET local = 1")).isEqualTo(new SetVariable("local", "1", false));
            assertThat(parse("SET x = 1").commandVerb()).isEqualTo("SET");
        }

        @Test
        void setSpecialForms() {
            assertThat(parse("SET TIME ZONE 'Europe/Paris'")).isEqualTo(new SetVariable("timezone", "Europe/Paris", false));
            assertThat(parse("SET TIME ZONE UTC")).isEqualTo(new SetVariable("timezone", "utc", false));
            assertThat(parse("SET LOCAL TIME ZONE -7")).isEqualTo(new SetVariable("timezone", "-7", true));
            assertThat(parse("SET TIME ZONE LOCAL")).isEqualTo(new SetVariable("timezone", null, false));
            assertThat(parse("SET TIME ZONE DEFAULT")).isEqualTo(new SetVariable("timezone", null, false));
            assertThat(parse("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
                    .isEqualTo(new SetVariable("transaction_isolation", "serializable", false));
            assertThat(parse("SET TRANSACTION READ ONLY")).isEqualTo(new SetVariable("transaction_read_only", "on", false));
            assertThat(parse("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED"))
                    .isEqualTo(new SetVariable("default_transaction_isolation", "read committed", false));
            assertThat(parse("SET NAMES 'UTF8'")).isEqualTo(new SetVariable("client_encoding", "UTF8", false));
            assertThat(parse("SET SCHEMA 'public'")).isEqualTo(new SetVariable("search_path", "public", false));
            assertThat(parse("SET transaction_isolation = 'serializable'"))
                    .isEqualTo(new SetVariable("transaction_isolation", "serializable", false));
        }

        @Test
        void setErrors() {
            assertSqlError(() -> UtilityParser.parse("SET x"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("SET x 1"), SqlState.SYNTAX_ERROR, "syntax error at or near \"1\"");
            assertSqlError(() -> UtilityParser.parse("SET x ="), SqlState.SYNTAX_ERROR, "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("SET x = select"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"select\"");
            assertSqlError(() -> UtilityParser.parse("SET x = 1,"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("SET x = - 'a'"), SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"'a'\"");
            assertSqlError(() -> UtilityParser.parse("SET TRANSACTION READ ONLY, ISOLATION LEVEL SERIALIZABLE"),
                    SqlState.FEATURE_NOT_SUPPORTED, "setting more than one transaction mode in one statement is not supported");
        }

        @Test
        void resetAndShow() {
            assertThat(parse("RESET search_path")).isEqualTo(new ResetVariable("search_path"));
            assertThat(parse("RESET ALL")).isEqualTo(new ResetVariable("all"));
            assertThat(parse("RESET TIME ZONE")).isEqualTo(new ResetVariable("timezone"));
            assertThat(parse("RESET \"Foo\".Bar")).isEqualTo(new ResetVariable("foo.bar"));
            assertThat(parse("SHOW search_path")).isEqualTo(new ShowVariable("search_path"));
            assertThat(parse("show ALL")).isEqualTo(new ShowVariable("all"));
            assertThat(parse("SHOW TIME ZONE")).isEqualTo(new ShowVariable("timezone"));
            assertThat(parse("SHOW TRANSACTION ISOLATION LEVEL")).isEqualTo(new ShowVariable("transaction_isolation"));
            assertThat(parse("SHOW session authorization")).isEqualTo(new ShowVariable("session_authorization"));
            assertThat(parse("SHOW x").commandVerb()).isEqualTo("SHOW");
            assertThat(parse("RESET x").commandVerb()).isEqualTo("RESET");
            assertSqlError(() -> UtilityParser.parse("SHOW"), SqlState.SYNTAX_ERROR, "syntax error at end of input");
            assertSqlError(() -> UtilityParser.parse("SHOW a b"), SqlState.SYNTAX_ERROR, "syntax error at or near \"b\"");
            assertSqlError(() -> UtilityParser.parse("RESET 'x'"), SqlState.SYNTAX_ERROR, "syntax error at or near \"'x'\"");
        }
    }
}
