package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.DatumText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plain views through the Session API: expansion, replacement, dependencies, durability. */
class ViewsTest extends SessionTestBase {
    List<String> columns(String sql) {
        return ((ExecutionResult.Rows) s.execute(sql)).columns().stream().map(ResultColumn::name).toList();
    }

    AbstractThrowableAssert<?, ? extends Throwable> fails(String sql, String sqlState, String message) {
        return assertThatThrownBy(() -> s.execute(sql))
                .isInstanceOf(SqlException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo(sqlState));
    }

    void setUpTable() {
        s.execute("CREATE TABLE t (a int, b text)");
        s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }

    @Test
    void viewReadsCurrentContentsOfItsTable() {
        setUpTable();
        assertThat(tag("CREATE VIEW v AS SELECT a * 10 AS x, b FROM t WHERE a > 1")).isEqualTo("CREATE VIEW");
        assertThat(q("SELECT x, b FROM v ORDER BY x")).containsExactly(List.of("20", "two"), List.of("30", "three"));
        s.execute("INSERT INTO t VALUES (4, 'four')");
        assertThat(q("SELECT count(*), sum(x) FROM v")).containsExactly(List.of("3", "90"));
        assertThat(columns("SELECT * FROM v")).containsExactly("x", "b");
        assertThat(q("SELECT v.b FROM v WHERE v.x = 40")).containsExactly(List.of("four"));
    }

    @Test
    void columnListRenamesColumns() {
        setUpTable();
        s.execute("CREATE VIEW v (n, label) AS SELECT a, upper(b) FROM t");
        assertThat(columns("SELECT * FROM v")).containsExactly("n", "label");
        assertThat(q("SELECT label FROM v WHERE n = 2")).containsExactly(List.of("TWO"));
        s.execute("CREATE VIEW w (only_first) AS SELECT a, b FROM t");
        assertThat(columns("SELECT * FROM w")).containsExactly("only_first", "b");
        fails("CREATE VIEW x (p, q, r) AS SELECT a, b FROM t", "42601",
                "CREATE VIEW specifies more column names than columns");
        fails("CREATE VIEW x (p, p) AS SELECT a, b FROM t", "42701", "column \"p\" specified more than once");
    }

    @Test
    void viewsOverViewsAndJoins() {
        setUpTable();
        s.execute("CREATE TABLE u (a int, c text)");
        s.execute("INSERT INTO u VALUES (1, 'x'), (3, 'z')");
        s.execute("CREATE VIEW j AS SELECT t.a, t.b, u.c FROM t JOIN u ON t.a = u.a");
        s.execute("CREATE VIEW jj AS SELECT a, b || c AS bc FROM j WHERE a > 1");
        assertThat(q("SELECT * FROM jj")).containsExactly(List.of("3", "threez"));
        assertThat(q("SELECT j.a, jj.bc FROM j LEFT JOIN jj ON j.a = jj.a ORDER BY j.a"))
                .containsExactly(Arrays.asList("1", null), List.of("3", "threez"));
        assertThat(q("SELECT count(*) FROM t WHERE a IN (SELECT a FROM jj)")).containsExactly(List.of("1"));
        s.execute("CREATE VIEW agg AS SELECT b IS NULL AS missing, count(*) AS n FROM t GROUP BY 1");
        assertThat(q("SELECT missing, n FROM agg")).containsExactly(List.of("f", "3"));
        assertThat(q("SELECT * FROM public.j WHERE a = 1")).containsExactly(List.of("1", "one", "x"));
    }

    @Test
    void creationValidatesTheQueryAndTheName() {
        setUpTable();
        fails("CREATE VIEW v AS SELECT nope FROM t", "42703", "column \"nope\" does not exist");
        fails("CREATE VIEW v AS SELECT * FROM missing", "42P01", "relation \"missing\" does not exist");
        fails("CREATE VIEW t AS SELECT 1", "42P07", "relation \"t\" already exists");
        s.execute("CREATE VIEW v AS SELECT 1 AS one");
        fails("CREATE VIEW v AS SELECT 2 AS one", "42P07", "relation \"v\" already exists");
        fails("CREATE TABLE v (a int)", "42P07", "relation \"v\" already exists");
        assertThat(tag("CREATE VIEW IF NOT EXISTS v AS SELECT 2 AS one")).isEqualTo("CREATE VIEW");
        assertThat(q("SELECT one FROM v")).containsExactly(List.of("1"));
        fails("CREATE OR REPLACE VIEW t AS SELECT 1", "42809", "\"t\" is not a view");
        fails("CREATE VIEW p AS SELECT $1", "42P02", "there is no parameter $1");
        // Positions of errors in the query point into the whole statement.
        assertThatThrownBy(() -> s.execute("CREATE VIEW p AS\n  SELECT a FROM t x y"))
                .isInstanceOf(SqlException.class)
                .satisfies(e -> assertThat(((SqlException) e).detail()).isEqualTo("at character 38"));
    }

    @Test
    void replaceKeepsOrAddsColumnsOnly() {
        setUpTable();
        s.execute("CREATE VIEW v AS SELECT a, b FROM t");
        assertThat(tag("CREATE OR REPLACE VIEW v AS SELECT a, b FROM t WHERE a = 2")).isEqualTo("CREATE VIEW");
        assertThat(q("SELECT * FROM v")).containsExactly(List.of("2", "two"));
        s.execute("CREATE OR REPLACE VIEW v AS SELECT a, b, a + 1 AS c FROM t WHERE a = 3");
        assertThat(q("SELECT * FROM v")).containsExactly(List.of("3", "three", "4"));
        fails("CREATE OR REPLACE VIEW v AS SELECT a, b FROM t", "42P16", "cannot drop columns from view");
        fails("CREATE OR REPLACE VIEW v AS SELECT a, b AS bb, 1 AS c FROM t", "42P16",
                "cannot change name of view column \"b\" to \"bb\"");
        fails("CREATE OR REPLACE VIEW v AS SELECT a, a AS b, a AS c FROM t", "42P16",
                "cannot change data type of view column \"b\" from text to integer");
        // The replacement's dependencies replace the old ones.
        s.execute("CREATE TABLE t2 (a int, b text)");
        fails("DROP TABLE t", "2BP01", "cannot drop table t because other objects depend on it");
        s.execute("CREATE OR REPLACE VIEW v AS SELECT a, b, a AS c FROM t2");
        assertThat(tag("DROP TABLE t")).isEqualTo("DROP TABLE");
        fails("DROP TABLE t2", "2BP01", "cannot drop table t2 because other objects depend on it");
        s.execute("CREATE OR REPLACE VIEW brand_new AS SELECT 7 AS seven");
        assertThat(q("SELECT seven FROM brand_new")).containsExactly(List.of("7"));
    }

    @Test
    void replacingAViewToReadItselfIsRefused() {
        s.execute("CREATE VIEW a AS SELECT 1 AS x");
        s.execute("CREATE VIEW b AS SELECT x FROM a");
        fails("CREATE OR REPLACE VIEW a AS SELECT x FROM b", "42P17",
                "infinite recursion detected in rules for relation \"a\"");
        assertThat(q("SELECT x FROM b")).containsExactly(List.of("1"));
    }

    @Test
    void restrictRefusesToDropWhatViewsRead() {
        setUpTable();
        s.execute("CREATE VIEW v1 AS SELECT a FROM t");
        s.execute("CREATE VIEW v2 AS SELECT a FROM v1");
        fails("DROP TABLE t", "2BP01", "cannot drop table t because other objects depend on it")
                .satisfies(e -> {
                    SqlException se = (SqlException) e;
                    assertThat(se.detail()).isEqualTo("view v1 depends on table t\nview v2 depends on view v1");
                    assertThat(se.hint()).isEqualTo("Use DROP ... CASCADE to drop the dependent objects too.");
                });
        fails("DROP VIEW v1 RESTRICT", "2BP01", "cannot drop view v1 because other objects depend on it");
        // Dropping a view together with its dependents needs no CASCADE.
        assertThat(tag("DROP VIEW v2, v1")).isEqualTo("DROP VIEW");
        assertThat(tag("DROP TABLE t")).isEqualTo("DROP TABLE");
    }

    @Test
    void cascadeDropsDependentsTransitively() {
        setUpTable();
        s.execute("CREATE TABLE other (z int)");
        s.execute("CREATE VIEW v1 AS SELECT a FROM t");
        s.execute("CREATE VIEW v2 AS SELECT a FROM v1");
        s.execute("CREATE VIEW keep AS SELECT z FROM other");
        assertThat(tag("DROP TABLE t CASCADE")).isEqualTo("DROP TABLE");
        assertThat(q("SHOW VIEWS")).containsExactly(List.of("keep"));
        assertThat(q("SHOW TABLES")).containsExactly(List.of("other"));
        fails("SELECT * FROM v2", "42P01", "relation \"v2\" does not exist");
        s.execute("CREATE TABLE t (a int)");
        s.execute("CREATE VIEW v1 AS SELECT a FROM t");
        assertThat(q("SELECT count(*) FROM v1")).containsExactly(List.of("0"));
    }

    @Test
    void dropChecksKindAndExistence() {
        setUpTable();
        s.execute("CREATE VIEW v AS SELECT a FROM t");
        fails("DROP VIEW t", "42809", "\"t\" is not a view");
        fails("DROP TABLE v", "42809", "\"v\" is not a table");
        fails("DROP VIEW nope", "42P01", "view \"nope\" does not exist");
        assertThat(tag("DROP VIEW IF EXISTS nope, v")).isEqualTo("DROP VIEW");
        assertThat(q("SHOW VIEWS")).isEmpty();
    }

    @Test
    void viewsAreReadOnly() {
        setUpTable();
        s.execute("CREATE VIEW v AS SELECT a, b FROM t");
        fails("INSERT INTO v VALUES (9, 'nine')", "0A000", "cannot write to view \"v\"");
        fails("UPDATE v SET a = 0", "0A000", "cannot write to view \"v\"");
        fails("DELETE FROM v", "0A000", "cannot write to view \"v\"");
        assertThat(q("SELECT count(*) FROM t")).containsExactly(List.of("3"));
    }

    @Test
    void viewBodiesKeepTheirOwnSemantics() {
        setUpTable();
        s.execute("CREATE VIEW top2 AS SELECT a FROM t ORDER BY a DESC LIMIT 2");
        assertThat(q("SELECT a FROM top2 ORDER BY a")).containsExactly(List.of("2"), List.of("3"));
        s.execute("CREATE VIEW vals AS VALUES (1, 'x'), (2, 'y')");
        assertThat(columns("SELECT * FROM vals")).containsExactly("column1", "column2");
        s.execute("CREATE VIEW un AS SELECT a FROM t UNION ALL SELECT column1 FROM vals");
        assertThat(q("SELECT count(*) FROM un")).containsExactly(List.of("5"));
        s.execute("CREATE VIEW cte AS WITH x AS (SELECT a FROM t WHERE a > 1) SELECT count(*) AS n FROM x");
        assertThat(q("SELECT n FROM cte")).containsExactly(List.of("2"));
        s.execute("CREATE VIEW sub AS SELECT a FROM t WHERE a IN (SELECT a FROM top2)"
                + " AND EXISTS (SELECT 1 FROM vals WHERE column1 = t.a)");
        assertThat(q("SELECT * FROM sub")).containsExactly(List.of("2"));
        s.execute("CREATE VIEW gs AS SELECT g FROM generate_series(1, 3) AS g");
        assertThat(q("SELECT sum(g) FROM gs")).containsExactly(List.of("6"));
        s.execute("CREATE VIEW iv AS SELECT a, interval '1 day' AS d FROM t");
        assertThat(q("SELECT d FROM iv WHERE a = 1")).containsExactly(List.of("1 day"));
        // A view over a view of the same table: dependencies are the direct ones only.
        s.execute("CREATE VIEW mix AS SELECT t.a, top2.a AS other FROM t JOIN top2 ON t.a = top2.a");
        fails("DROP VIEW top2", "2BP01", "cannot drop view top2 because other objects depend on it")
                .satisfies(e -> assertThat(((SqlException) e).detail())
                        .isEqualTo("view mix depends on view top2\nview sub depends on view top2"));
        fails("CREATE VIEW dup AS SELECT * FROM t, t AS t2", "42701", "column \"a\" specified more than once");
    }

    @Test
    void viewDdlIsRefusedInsideTransactions() {
        setUpTable();
        s.execute("BEGIN");
        fails("CREATE VIEW v AS SELECT a FROM t", "25001", "CREATE VIEW cannot run inside a transaction block");
        s.execute("ROLLBACK");
        s.execute("CREATE VIEW v AS SELECT a FROM t");
        s.execute("BEGIN");
        fails("DROP VIEW v", "25001", "DROP VIEW cannot run inside a transaction block");
        s.execute("ROLLBACK");
        s.execute("BEGIN");
        assertThat(q("SELECT count(*) FROM v")).containsExactly(List.of("3"));
        s.execute("COMMIT");
    }

    @Test
    void viewsSurviveRestart() {
        setUpTable();
        s.execute("CREATE VIEW v1 (n) AS SELECT a FROM t WHERE a >= 2");
        s.execute("CREATE VIEW v2 AS SELECT sum(n) AS total FROM v1");
        s.execute("CREATE VIEW gone AS SELECT 1 AS x");
        s.execute("CREATE OR REPLACE VIEW v1 (n) AS SELECT a FROM t WHERE a >= 1");
        s.execute("DROP VIEW gone");
        List<List<String>> before = q("SELECT id, name, definition FROM mz_catalog.mz_views ORDER BY name");
        reopen();
        assertThat(q("SELECT total FROM v2")).containsExactly(List.of("6"));
        assertThat(q("SHOW VIEWS")).containsExactly(List.of("v1"), List.of("v2"));
        assertThat(q("SELECT id, name, definition FROM mz_catalog.mz_views ORDER BY name")).isEqualTo(before);
        fails("DROP TABLE t", "2BP01", "cannot drop table t because other objects depend on it");
        // Ids keep growing after a restart: a new object never reuses a view's id.
        s.execute("CREATE TABLE t2 (a int)");
        List<String> ids = q("SELECT id FROM mz_catalog.mz_views UNION ALL SELECT id FROM mz_catalog.mz_tables")
                .stream().map(r -> r.get(0)).toList();
        assertThat(ids).doesNotHaveDuplicates().hasSize(4);
    }

    @Test
    void systemRelationsListTablesAndViews() {
        assertThat(q("SELECT name FROM mz_catalog.mz_views")).isEmpty();
        setUpTable();
        s.execute("CREATE VIEW v AS SELECT a FROM t");
        assertThat(q("SELECT name, definition FROM mz_catalog.mz_views"))
                .containsExactly(List.of("v", "SELECT a FROM t"));
        assertThat(q("SELECT name FROM mz_catalog.mz_tables")).containsExactly(List.of("t"));
        assertThat(q("SELECT v.name, t.name FROM mz_catalog.mz_views v, mz_catalog.mz_tables t"))
                .containsExactly(List.of("v", "t"));
        assertThat(columns("SELECT * FROM mz_catalog.mz_views")).containsExactly("id", "name", "definition");
        assertThat(columns("SHOW TABLES")).containsExactly("name");
    }
}
