package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.plan.AggCall;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Structural invariants every plan must satisfy, checked over a corpus of statements:
 * column references are in range and carry their input's type, literals carry the Java
 * class their type prescribes, keys and sort columns are in range, finishing types match
 * the body. The executor relies on all of these.
 */
class PlanInvariantsTest extends PlannerFixture {

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT abalance FROM pgbench_accounts WHERE aid = $1",
        "SELECT 1, 'abc', 1.5, true, NULL, 1e3, 9999999999, x'ff'",
        "SELECT a, b, count(*) FROM t GROUP BY a, b",
        "SELECT sum(a), sum(d), avg(a), avg(e), count(*), sum(s), min(v), max(f) FROM t",
        "SELECT a + 1, a / 2, upper(b), b || 'x', -a, c * 2, c / 3 FROM t",
        "SELECT * FROM t WHERE a = '1' AND f = '2024-01-01'",
        "SELECT t.a, u.x FROM t LEFT JOIN u ON t.a = u.a AND u.x > t.b",
        "SELECT * FROM t, u WHERE t.a = u.a",
        "SELECT * FROM t JOIN u ON t.d = u.a",
        "SELECT a FROM t WHERE a IN (SELECT a FROM u)",
        "SELECT a FROM t WHERE a NOT IN (SELECT a FROM u)",
        "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a)",
        "SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a AND u.x = t.b)",
        "SELECT a, (SELECT max(x) FROM u WHERE u.a = t.a) FROM t",
        "SELECT (SELECT a FROM u) FROM t",
        "SELECT a FROM t t1 WHERE a = (SELECT max(a) FROM t t2 WHERE t2.b = t1.b)",
        "SELECT a FROM t WHERE a > ALL (SELECT a FROM u)",
        "SELECT a FROM t ORDER BY b DESC LIMIT 10 OFFSET 5",
        "SELECT count(*) FROM (SELECT a FROM t ORDER BY a LIMIT 3) s",
        "SELECT a FROM t UNION SELECT a FROM u ORDER BY 1",
        "SELECT a FROM t EXCEPT ALL SELECT a FROM u",
        "SELECT a FROM t INTERSECT SELECT a FROM u",
        "SELECT CASE WHEN a > 1 THEN 'x' ELSE 'yy' END, coalesce(b, 'z'), nullif(a, 2) FROM t",
        "SELECT * FROM generate_series(1, 10) g",
        "SELECT g * 2 FROM generate_series(1, $1) g",
        "VALUES (1, 'a'), (2, 'b')",
        "VALUES (1), (2.5)",
        "SELECT * FROM (VALUES (1, 'a')) v JOIN u ON v.column1 = u.a",
        "WITH x AS (SELECT a FROM t) SELECT * FROM x JOIN x y ON x.a = y.a",
        "SELECT DISTINCT a FROM t",
        "SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1 ORDER BY count(*) DESC",
        "SELECT date_part('year', g), date_trunc('day', g), extract(year from f), now(), g - g, f - 1 FROM t",
        "SELECT length(b), strpos(b, 'x'), split_part(b, ',', 2), substring(b from 2 for 3), trim(b) FROM t",
        "SELECT string_agg(b, ',' ORDER BY b), bool_and(h), count(DISTINCT a), sum(a) FILTER (WHERE a > 1) FROM t",
        "SELECT a BETWEEN 1 AND 5, a IN (1, 2, 3), b LIKE 'a%', b ~ 'x' FROM t",
        "SELECT CAST(c AS numeric(5,1)), c::text, e::int, '2024-01-01'::date, '1.5'::numeric(10,2) FROM t",
        "SELECT g + INTERVAL '1' DAY, now() - interval '2 hours' FROM t",
        "SELECT sum(CASE WHEN b LIKE 'P%' THEN c ELSE 0 END) * 100.0 / sum(c) FROM t",
        "SELECT x, count(*) FROM (SELECT a, count(*) AS x FROM t GROUP BY a) s GROUP BY x ORDER BY 2 DESC, 1",
        "SELECT a FROM t t1 WHERE EXISTS (SELECT 1 FROM u WHERE u.a > t1.a)",
        "SELECT a FROM t FULL JOIN u USING (a)",
        "SELECT t.*, u.x FROM t NATURAL JOIN u",
        "INSERT INTO t (a, b) VALUES (1, 'x'), ($1, $2)",
        "INSERT INTO u SELECT a, b FROM t WHERE a > 3",
        "INSERT INTO t (a, c, f, h) VALUES (1, '1.5', '2024-01-01', 'true')",
        "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2",
        "UPDATE t SET b = upper(b), a = a + 1 WHERE a IN (SELECT a FROM u)",
        "DELETE FROM t WHERE a IN (SELECT a FROM u WHERE x = 'q')",
        "DELETE FROM u",
    })
    void planIsWellFormed(String sql) {
        Statement st = plan(sql);
        QueryPlan q = switch (st) {
            case Statement.Query s -> s.plan();
            case Statement.Insert s -> s.source();
            case Statement.Update s -> s.rows();
            case Statement.Delete s -> s.rows();
            default -> throw new AssertionError(st);
        };
        List<SqlType> body = checkNode(q.body());
        assertThat(q.columnTypes()).isEqualTo(body.subList(0, q.columnNames().size()));
        for (SortKey k : q.order()) assertThat(k.column()).isBetween(0, body.size() - 1);
        if (st instanceof Statement.Update u) {
            assertThat(body.subList(0, u.table().columns().size())).isEqualTo(u.table().types());
            assertThat(body).hasSize(u.table().columns().size() + u.setColumns().length);
        }
        if (st instanceof Statement.Delete d) assertThat(body).isEqualTo(d.table().types());
        if (st instanceof Statement.Insert i) assertThat(body.size()).isGreaterThanOrEqualTo(i.targetColumns().length);
        for (int p = 0; p < st.paramTypes().size(); p++) assertThat(st.paramTypes().get(p)).isNotNull();
    }

    private static List<SqlType> checkNode(PlanNode n) {
        switch (n) {
            case PlanNode.Get g -> { }
            case PlanNode.Constant c -> {
                for (Row r : c.rows()) {
                    assertThat(r.arity()).isEqualTo(c.types().size());
                    for (int i = 0; i < r.arity(); i++) checkValue(r.get(i), c.types().get(i));
                }
            }
            case PlanNode.Project p -> {
                List<SqlType> in = checkNode(p.input());
                p.exprs().forEach(e -> checkExpr(e, in));
            }
            case PlanNode.Filter f -> {
                List<SqlType> in = checkNode(f.input());
                for (Expr e : f.predicates()) {
                    checkExpr(e, in);
                    assertThat(e.type()).isEqualTo(SqlType.BOOLEAN);
                }
            }
            case PlanNode.Join j -> {
                List<SqlType> l = checkNode(j.left());
                List<SqlType> r = checkNode(j.right());
                assertThat(j.leftKeys().length).isEqualTo(j.rightKeys().length);
                for (int i = 0; i < j.leftKeys().length; i++) {
                    SqlType lt = l.get(j.leftKeys()[i]);
                    SqlType rt = r.get(j.rightKeys()[i]);
                    assertThat(lt.kind() == rt.kind() || (lt.kind().isString() && rt.kind().isString()))
                            .as("key types %s %s", lt, rt).isTrue();
                }
                List<SqlType> both = new ArrayList<>(l);
                both.addAll(r);
                if (j.residual() != null) {
                    checkExpr(j.residual(), both);
                    assertThat(j.residual().type()).isEqualTo(SqlType.BOOLEAN);
                }
            }
            case PlanNode.Reduce r -> {
                List<SqlType> in = checkNode(r.input());
                for (int k : r.groupKeys()) assertThat(k).isBetween(0, in.size() - 1);
                for (AggCall a : r.aggs()) {
                    for (int arg : a.args()) assertThat(arg).isBetween(0, in.size() - 1);
                    if (a.filterColumn() >= 0) assertThat(in.get(a.filterColumn())).isEqualTo(SqlType.BOOLEAN);
                    for (SortKey k : a.order()) assertThat(k.column()).isBetween(0, in.size() - 1);
                    assertThat(a.name()).doesNotContain("\0");
                }
            }
            case PlanNode.Distinct d -> checkNode(d.input());
            case PlanNode.Union u -> {
                List<SqlType> first = checkNode(u.inputs().get(0));
                for (PlanNode i : u.inputs()) {
                    assertThat(kinds(checkNode(i))).isEqualTo(kinds(first));
                }
            }
            case PlanNode.Except e -> assertThat(kinds(checkNode(e.left()))).isEqualTo(kinds(checkNode(e.right())));
            case PlanNode.Intersect i -> assertThat(kinds(checkNode(i.left()))).isEqualTo(kinds(checkNode(i.right())));
            case PlanNode.TopK t -> {
                List<SqlType> in = checkNode(t.input());
                for (SortKey k : t.order()) assertThat(k.column()).isBetween(0, in.size() - 1);
            }
            case PlanNode.Window w -> {
                List<SqlType> in = checkNode(w.input());
                for (int k : w.partitionKeys()) assertThat(k).isBetween(0, in.size() - 1);
                for (SortKey k : w.order()) assertThat(k.column()).isBetween(0, in.size() - 1);
                for (var c : w.calls()) {
                    for (int arg : c.args()) assertThat(arg).isBetween(0, in.size() - 1);
                    if (c.aggregate() != null) for (int arg : c.aggregate().args()) assertThat(arg).isBetween(0, in.size() - 1);
                }
            }
            case PlanNode.Recursive r -> {
                assertThat(kinds(checkNode(r.base()))).isEqualTo(kinds(r.types()));
                assertThat(kinds(checkNode(r.step()))).isEqualTo(kinds(r.types()));
                assertThat(r.workingId()).isNegative();
            }
            case PlanNode.FlatMap f -> {
                List<SqlType> in = checkNode(f.input());
                for (Expr a : f.args()) checkExpr(a, in);
                // unnest has a column per array (zipped); the others a fixed number
                if (f.function().name().startsWith("UNNEST")) assertThat(f.columns()).isNotEmpty();
                else assertThat(f.columns()).hasSize(f.function().columns());
            }
            case PlanNode.GenerateSeries g -> g.args().forEach(a -> {
                checkExpr(a, List.of());
                assertThat(a.toString()).doesNotContain("Column[");
            });
            case PlanNode.LateralSeries s -> {
                List<SqlType> in = checkNode(s.input());
                s.args().forEach(a -> checkExpr(a, in)); // LATERAL: the arguments read the outer row
            }
        }
        return n.types();
    }

    private static List<TypeKind> kinds(List<SqlType> types) { return types.stream().map(SqlType::kind).toList(); }

    private static void checkExpr(Expr e, List<SqlType> input) {
        switch (e) {
            case Expr.Column c -> {
                assertThat(c.index()).isBetween(0, input.size() - 1);
                assertThat(c.type()).isEqualTo(input.get(c.index()));
            }
            case Expr.Literal l -> checkValue(l.value(), l.type());
            case Expr.Param p -> assertThat(p.index()).isNotNegative();
            case Expr.Call c -> c.args().forEach(a -> checkExpr(a, input));
            case Expr.Cast c -> checkExpr(c.input(), input);
            case Expr.Case c -> {
                c.conds().forEach(x -> {
                    checkExpr(x, input);
                    assertThat(x.type()).isEqualTo(SqlType.BOOLEAN);
                });
                c.results().forEach(x -> checkExpr(x, input));
                if (c.otherwise() != null) checkExpr(c.otherwise(), input);
            }
        }
    }

    private static void checkValue(Object v, SqlType type) {
        if (v == null) return;
        Class<?> expected = switch (type.kind()) {
            case BOOLEAN -> Boolean.class;
            case SMALLINT -> Short.class;
            case INTEGER -> Integer.class;
            case BIGINT -> Long.class;
            case REAL -> Float.class;
            case DOUBLE -> Double.class;
            case NUMERIC -> BigDecimal.class;
            case TEXT, VARCHAR, CHAR, UNKNOWN -> String.class;
            case DATE -> LocalDate.class;
            case TIME -> LocalTime.class;
            case TIMESTAMP -> LocalDateTime.class;
            case TIMESTAMPTZ -> Instant.class;
            case INTERVAL -> Interval.class;
            case BYTEA -> ByteString.class;
            case ARRAY -> io.stillwater.engine.types.PgArray.class;
            case JSONB -> io.stillwater.engine.types.Jsonb.class;
        };
        assertThat(v).as("value of %s", type).isInstanceOf(expected);
    }
}
