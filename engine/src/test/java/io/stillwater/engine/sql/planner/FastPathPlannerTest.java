package io.stillwater.engine.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.CatalogView;
import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.catalog.RecordingCatalogView;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast path's plans are the Calcite path's, statement by statement (same plan nodes,
 * names, types and parameter types), and it leaves alone what it is not sure of.
 */
class FastPathPlannerTest {
    private static final TableDef T = new TableDef(20, "t", List.of(
            new ColumnDef("a", SqlType.INTEGER, true, null),
            new ColumnDef("b", SqlType.BIGINT, false, 7L),
            new ColumnDef("c", SqlType.TEXT, false, null),
            new ColumnDef("v", SqlType.varchar(3), false, null),
            new ColumnDef("n", SqlType.numeric(5, 2), false, null),
            new ColumnDef("s", SqlType.SMALLINT, false, null)));
    private static final TableDef KV = new TableDef(21, "kv", List.of(
            new ColumnDef("key", SqlType.TEXT, false, null),
            new ColumnDef("value", SqlType.INTEGER, false, null)));

    /** Two tables; {@code pg_class} is also a user table here, which an unqualified name must not reach. */
    private static final class Catalog implements CatalogView {
        private final List<TableDef> tables = List.of(T, KV,
                new TableDef(22, "pg_class", List.of(new ColumnDef("a", SqlType.INTEGER, false, null))));

        @Override
        public Optional<TableDef> table(String name) {
            return tables.stream().filter(d -> d.name().equals(name)).findFirst();
        }

        @Override
        public Collection<TableDef> tables() { return tables; }

        @Override
        public Optional<MaterializedViewDef> materializedView(String name) { return Optional.empty(); }
    }

    private final StatementPlanner calcite = new StatementPlanner(sql -> Optional.empty());

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 1", "select 1, 'x', 2.5, 3000000000, 99999999999999999999", "SELECT 1 AS one, 'it''s' AS two;",
        "SELECT a, c FROM t WHERE a = 1", "SELECT * FROM t WHERE a = $1", "SELECT * FROM public.t WHERE a = 1 AND c = 'x'",
        "SELECT a FROM t WHERE b = 3000000000", "SELECT a FROM t WHERE v = 'x'", "SELECT a, a, c AS a FROM t WHERE a = 1",
        "SELECT a, b, c, v, n, s FROM t WHERE b = $1 AND c = $2", "SELECT a FROM t WHERE a = 1 AND a = 2",
        "SELECT value FROM kv WHERE key = 'k'", "SELECT * FROM t WHERE c = $2 AND a = $1",
        "INSERT INTO t VALUES (1, 2, 'x', 'y', 1.5, 3)", "INSERT INTO t (a, c) VALUES (1, 'x'), (2, NULL)",
        "INSERT INTO t (a, b) VALUES (1, 1), (2, 3000000000)", "INSERT INTO t (a, c) VALUES (1, NULL), (2, NULL)",
        "INSERT INTO t (a) VALUES (NULL)", "INSERT INTO t (c, a) VALUES ($1, $2)", "INSERT INTO t (v, c, b) VALUES ($1, $2, $3)",
        "INSERT INTO public.t (n) VALUES (99999999999999999999)", "insert into t (s) values (100000)",
    })
    void plansAsCalciteDoes(String sql) {
        RecordingCatalogView fastView = new RecordingCatalogView(new Catalog());
        RecordingCatalogView calciteView = new RecordingCatalogView(new Catalog());
        Optional<Statement> fast = FastPathPlanner.plan(sql, List.of(), fastView);
        assertThat(fast).as("taken by the fast path").isPresent();
        Statement reference = calcite.plan(sql, List.of(), calciteView);
        assertThat(describe(fast.get())).isEqualTo(describe(reference));
        assertThat(fastView.references()).isEqualTo(calciteView.references());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT -1", "SELECT 1e3", "SELECT 1::int", "SELECT true", "SELECT NULL", "SELECT 1 x", "SELECT $1", "SELECT 1 FROM t",
        "SELECT a FROM t WHERE s = 1", "SELECT a FROM t WHERE n = 1", "SELECT a FROM t WHERE a = 3000000000",
        "SELECT a FROM t WHERE a = '1'", "SELECT a FROM t WHERE c = 1", "SELECT a FROM t WHERE a = 1.5",
        "SELECT a FROM t WHERE a = 1 OR a = 2", "SELECT a FROM t WHERE a = 1 ORDER BY a", "SELECT a FROM t WHERE 1 = a",
        "SELECT t.a FROM t WHERE a = 1", "SELECT \"a\" FROM t WHERE a = 1", "SELECT zz FROM t WHERE a = 1",
        "SELECT a FROM nosuch WHERE a = 1", "SELECT a FROM pg_class WHERE a = 1", "SELECT a FROM t WHERE a = $2",
        "SELECT a FROM t WHERE a = $1 AND b = $1", "SELECT a FROM t WHERE a = 1; SELECT 2", "SELECT DISTINCT a FROM t WHERE a = 1",
        "SELECT a FROM t WHERE a = E'1'", "SELECT * FROM t WHERE n = $1", "SELECT 1.", "SELECT .5", "SELECT 0x10", "SELECT 1_000", "SELECT a FROM t WHERE a = 0x10",
        "INSERT INTO t (a) VALUES (0b101)",
        "INSERT INTO t VALUES (1)", "INSERT INTO t (a, a) VALUES (1, 2)", "INSERT INTO t (a) VALUES (DEFAULT)",
        "INSERT INTO t (a) VALUES (1) RETURNING a", "INSERT INTO t (a) SELECT 1", "INSERT INTO t (a, b) VALUES ($1, 2)",
        "INSERT INTO t (n) VALUES (1.5), (2.25)", "INSERT INTO t (a, c) VALUES (1, 'x'), ('y', 2)", "INSERT INTO t (v) VALUES (NULL)",
        "INSERT INTO t (a) VALUES ($1), ($2)", "INSERT INTO t (n) VALUES ($1)", "INSERT INTO kv (nosuch) VALUES (1)",
        "UPDATE t SET a = 1 WHERE a = 2", "DELETE FROM t WHERE a = 1", "SELECT a FROM t WHERE a = 1 AND",
    })
    void leavesTheRestToCalcite(String sql) {
        RecordingCatalogView view = new RecordingCatalogView(new Catalog());
        assertThat(FastPathPlanner.plan(sql, List.of(), view)).isEmpty();
        assertThat(view.references()).isEmpty();
    }

    @Test
    void parameterHintsMustAgreeWithTheColumn() {
        Catalog catalog = new Catalog();
        String sql = "SELECT c FROM t WHERE a = $1";
        assertThat(FastPathPlanner.plan(sql, Arrays.asList((SqlType) null), catalog)).isPresent();
        assertThat(FastPathPlanner.plan(sql, List.of(SqlType.UNKNOWN), catalog)).isPresent();
        assertThat(FastPathPlanner.plan(sql, List.of(SqlType.INTEGER), catalog)).isPresent();
        assertThat(FastPathPlanner.plan(sql, List.of(SqlType.BIGINT), catalog)).isEmpty();
        assertThat(FastPathPlanner.plan(sql, List.of(SqlType.INTEGER, SqlType.INTEGER), catalog)).isEmpty();
        assertThat(FastPathPlanner.plan("SELECT 1", List.of(SqlType.INTEGER), catalog)).isEmpty();
    }

    /** The statement's plan as text (an INSERT's target columns as a list: arrays compare by identity). */
    private static String describe(Statement s) {
        if (s instanceof Statement.Insert ins) {
            List<Integer> targets = new ArrayList<>();
            for (int i : ins.targetColumns()) targets.add(i);
            return "Insert " + ins.table().name() + " " + targets + " " + ins.source() + " " + ins.paramTypes();
        }
        return s.toString();
    }
}
