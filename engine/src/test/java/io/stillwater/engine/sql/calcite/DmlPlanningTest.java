package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DmlPlanningTest extends PlannerFixture {

    @Test
    void insertValuesWithColumnList() {
        var ins = (Statement.Insert) plan("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')");
        assertThat(ins.table()).isEqualTo(TestCatalog.T);
        assertThat(ins.targetColumns()).containsExactly(0, 1);
        assertThat(ins.source().columnTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT);
        assertThat(ins.commandVerb()).isEqualTo("INSERT");
    }

    @Test
    void insertWithoutColumnListFillsLeadingColumns() {
        var ins = (Statement.Insert) plan("INSERT INTO t VALUES (1, 'x')");
        assertThat(ins.targetColumns()).containsExactly(0, 1);
        var all = (Statement.Insert) plan("INSERT INTO u VALUES (1, 'x')");
        assertThat(all.targetColumns()).containsExactly(0, 1);
    }

    @Test
    void untypedLiteralsAndParamsTakeTheColumnType() {
        var ins = (Statement.Insert) plan("INSERT INTO t (a, c, f, h, d) VALUES ($1, '1.5', '2024-01-01', 'true', NULL)");
        assertThat(ins.source().columnTypes()).containsExactly(SqlType.INTEGER, SqlType.NUMERIC, SqlType.DATE,
                SqlType.BOOLEAN, SqlType.BIGINT);
        assertThat(ins.paramTypes()).containsExactly(SqlType.INTEGER);
        var params = (Statement.Insert) plan("INSERT INTO u VALUES ($1, $2)");
        assertThat(params.paramTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT);
    }

    @Test
    void untypedValuesAreNotCastToColumnModifiers() {
        // the session's assignment cast applies char(84)/varchar(10) with PostgreSQL's errors
        var ins = (Statement.Insert) plan("INSERT INTO pgbench_accounts (aid, filler) VALUES ($1, $2)");
        assertThat(ins.paramTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT);
        assertThat(ins.source().body().toString()).doesNotContain("character(84)");
        var v = (Statement.Insert) plan("INSERT INTO t (a, v) VALUES (1, 'abcdefghijklmnop')");
        assertThat(v.source().columnTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT);
    }

    @Test
    void insertSelectKeepsSourceTypes() {
        var ins = (Statement.Insert) plan("INSERT INTO u (x, a) SELECT b, s FROM t");
        assertThat(ins.targetColumns()).containsExactly(1, 0);
        assertThat(ins.source().columnTypes()).containsExactly(SqlType.TEXT, SqlType.SMALLINT);
    }

    @Test
    void insertErrors() {
        assertThat(error("INSERT INTO nosuch VALUES (1)").state()).isEqualTo(SqlState.UNDEFINED_TABLE);
        var col = error("INSERT INTO u (a, zz) VALUES (1, 2)");
        assertThat(col.state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
        assertThat(col.getMessage()).isEqualTo("column \"zz\" of relation \"u\" does not exist");
        var more = error("INSERT INTO u (a) VALUES (1, 2)");
        assertThat(more.state()).isEqualTo(SqlState.SYNTAX_ERROR);
        assertThat(more.getMessage()).isEqualTo("INSERT has more expressions than target columns");
        assertThat(error("INSERT INTO u (a, x) VALUES (1)").getMessage())
                .isEqualTo("INSERT has more target columns than expressions");
        assertThat(error("INSERT INTO u VALUES (1, 'x', 3)").getMessage())
                .isEqualTo("INSERT has more expressions than target columns");
        assertThat(error("INSERT INTO u (a, a) VALUES (1, 2)").state()).isEqualTo(SqlState.DUPLICATE_COLUMN);
        // DEFAULT is the column's default (here none: NULL), planned as a constant.
        assertThat(plan("INSERT INTO u (a) VALUES (DEFAULT)")).isInstanceOf(Statement.Insert.class);
    }

    @Test
    void updateRowsAreOldColumnsThenNewValues() {
        var up = (Statement.Update) plan("UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2");
        assertThat(up.setColumns()).containsExactly(2);
        assertThat(up.paramTypes()).containsExactly(SqlType.INTEGER, SqlType.INTEGER);
        var project = (PlanNode.Project) up.rows().body();
        assertThat(project.exprs()).hasSize(5);
        assertThat(project.exprs().subList(0, 4)).containsExactly(new Expr.Column(0, SqlType.INTEGER),
                new Expr.Column(1, SqlType.INTEGER), new Expr.Column(2, SqlType.INTEGER),
                new Expr.Column(3, SqlType.character(84)));
        assertThat(project.exprs().get(4)).isEqualTo(new Expr.Call(Func.PLUS,
                List.of(new Expr.Column(2, SqlType.INTEGER), new Expr.Param(0, SqlType.INTEGER)), SqlType.INTEGER));
        var filter = (PlanNode.Filter) project.input();
        assertThat(filter.predicates()).hasSize(1);
        assertThat(up.commandVerb()).isEqualTo("UPDATE");
    }

    @Test
    void updateWithSubqueryAndSeveralColumns() {
        var up = (Statement.Update) plan("UPDATE t SET b = upper(b), a = a + 1 WHERE a IN (SELECT a FROM u)");
        assertThat(up.setColumns()).containsExactly(1, 0);
        assertThat(up.rows().columnTypes()).hasSize(TestCatalog.T.columns().size() + 2);
        assertThat(nodesOf(up.rows().body(), PlanNode.Join.class)).isNotEmpty();
    }

    @Test
    void updateLiteralTakesColumnType() {
        var up = (Statement.Update) plan("UPDATE t SET f = '2024-02-03', b = NULL");
        assertThat(up.rows().columnTypes().subList(11, 13)).containsExactly(SqlType.DATE, SqlType.TEXT);
    }

    @Test
    void updateErrors() {
        var e = error("UPDATE u SET zz = 1");
        assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
        assertThat(e.getMessage()).isEqualTo("column \"zz\" of relation \"u\" does not exist");
        assertThat(error("UPDATE nosuch SET a = 1").state()).isEqualTo(SqlState.UNDEFINED_TABLE);
        assertThat(error("UPDATE u SET a = 1 WHERE nosuch = 2").state()).isEqualTo(SqlState.UNDEFINED_COLUMN);
    }

    @Test
    void deleteRowsAreMatchingRows() {
        var del = (Statement.Delete) plan("DELETE FROM u WHERE a = 1");
        assertThat(del.rows().columnTypes()).isEqualTo(TestCatalog.U.types());
        assertThat(del.rows().body()).isInstanceOf(PlanNode.Filter.class);
        var all = (Statement.Delete) plan("DELETE FROM u");
        assertThat(all.rows().body()).isEqualTo(new PlanNode.Get(13, "u", TestCatalog.U.types()));
        var sub = (Statement.Delete) plan("DELETE FROM t WHERE a IN (SELECT a FROM u WHERE x = $1)");
        assertThat(sub.paramTypes()).containsExactly(SqlType.TEXT);
        assertThat(error("DELETE FROM nosuch").state()).isEqualTo(SqlState.UNDEFINED_TABLE);
        assertThat(del.commandVerb()).isEqualTo("DELETE");
    }
}
