package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.data.RowDiff;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.OneShotRead;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.AggFunc;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.plan.SortKey;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class SelectPlanningTest extends PlannerFixture {

    @Test
    void pointQueryIsFilterAndProjectOverGet() {
        QueryPlan q = query("SELECT abalance FROM pgbench_accounts WHERE aid = $1");
        assertThat(q.columnNames()).containsExactly("abalance");
        assertThat(q.columnTypes()).containsExactly(SqlType.INTEGER);
        var project = (PlanNode.Project) q.body();
        var filter = (PlanNode.Filter) project.input();
        assertThat(filter.input()).isEqualTo(new PlanNode.Get(11, "pgbench_accounts", TestCatalog.ACCOUNTS.types()));
        assertThat(filter.predicates()).containsExactly(new Expr.Call(Func.EQ,
                List.of(new Expr.Column(0, SqlType.INTEGER), new Expr.Param(0, SqlType.INTEGER)), SqlType.BOOLEAN));
        assertThat(project.exprs()).containsExactly(new Expr.Column(2, SqlType.INTEGER));
    }

    @Test
    void selectWithoutFromIsAConstant() {
        QueryPlan q = query("SELECT 1, 'abc', 1.5, true");
        assertThat(q.body()).isInstanceOf(PlanNode.Constant.class);
        var c = (PlanNode.Constant) q.body();
        assertThat(c.rows()).containsExactly(Row.of(1, "abc", new BigDecimal("1.5"), true));
        assertThat(q.columnTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT, SqlType.NUMERIC, SqlType.BOOLEAN);
        assertThat(q.columnNames()).containsExactly("?column?", "?column?", "?column?", "bool");
    }

    @Test
    void defaultColumnNamesFollowPostgres() {
        QueryPlan q = query("SELECT a, a + 1, count(*), sum(a), upper(b), b::int, '1'::int, CASE WHEN h THEN 1 END, "
                + "coalesce(b, 'x'), t.c FROM t GROUP BY a, b, h, c");
        assertThat(q.columnNames()).containsExactly("a", "?column?", "count", "sum", "upper", "b", "int4", "case",
                "coalesce", "c");
    }

    @Test
    void aliasesAndDuplicateNames() {
        QueryPlan q = query("SELECT a AS x, sum(a), sum(d) FROM t GROUP BY a");
        assertThat(q.columnNames()).containsExactly("x", "sum", "sum");
        QueryPlan star = query("SELECT * FROM t JOIN u ON t.a = u.a");
        assertThat(star.columnNames()).hasSize(13);
        assertThat(star.columnNames().get(11)).isEqualTo("a");
        assertThat(star.columnNames().get(12)).isEqualTo("x");
    }

    @Test
    void aggregateResultTypesFollowPostgres() {
        QueryPlan q = query("SELECT sum(a), sum(s), sum(d), sum(c), avg(a), avg(c), avg(e), count(*), count(b), "
                + "min(v), max(f) FROM t");
        assertThat(q.columnTypes()).containsExactly(SqlType.BIGINT, SqlType.BIGINT, SqlType.NUMERIC, SqlType.NUMERIC,
                SqlType.NUMERIC, SqlType.NUMERIC, SqlType.DOUBLE, SqlType.BIGINT, SqlType.BIGINT, SqlType.varchar(10),
                SqlType.DATE);
        var reduce = nodesOf(q.body(), PlanNode.Reduce.class).get(0);
        assertThat(reduce.groupKeys()).isEmpty();
        assertThat(reduce.aggs()).extracting(a -> a.func()).containsExactly(AggFunc.SUM, AggFunc.SUM, AggFunc.SUM,
                AggFunc.SUM, AggFunc.AVG, AggFunc.AVG, AggFunc.AVG, AggFunc.COUNT_STAR, AggFunc.COUNT, AggFunc.MIN,
                AggFunc.MAX);
    }

    @Test
    void groupByHavingDistinctAndFilter() {
        QueryPlan q = query("SELECT a, count(*) FROM t GROUP BY a HAVING count(*) > 1");
        var filter = (PlanNode.Filter) q.body();
        var reduce = (PlanNode.Reduce) filter.input();
        assertThat(reduce.groupKeys()).containsExactly(0);
        assertThat(filter.predicates()).hasSize(1);

        var distinct = nodesOf(query("SELECT DISTINCT b FROM t").body(), PlanNode.Reduce.class);
        assertThat(distinct).hasSize(1);
        assertThat(distinct.get(0).aggs()).isEmpty();

        var agg = nodesOf(query("SELECT count(DISTINCT b), sum(a) FILTER (WHERE a > 1) FROM t").body(),
                PlanNode.Reduce.class).get(0).aggs();
        assertThat(agg.get(0).distinct()).isTrue();
        assertThat(agg.get(1).filterColumn()).isNotNegative();
    }

    @Test
    void stringAggAndBooleanAggregates() {
        var aggs = nodesOf(query("SELECT string_agg(b, ',' ORDER BY b DESC), bool_and(h), bool_or(h) FROM t").body(),
                PlanNode.Reduce.class).get(0).aggs();
        assertThat(aggs).extracting(a -> a.func()).containsExactly(AggFunc.STRING_AGG, AggFunc.BOOL_AND, AggFunc.BOOL_OR);
        assertThat(aggs.get(0).args()).hasSize(2);
        assertThat(aggs.get(0).order()).hasSize(1);
        assertThat(aggs.get(0).order().get(0).descending()).isTrue();
        assertThat(aggs.get(0).type()).isEqualTo(SqlType.TEXT);
    }

    @Test
    void innerJoinExtractsEquiKeysAndResidual() {
        QueryPlan q = query("SELECT t.a, u.x FROM t JOIN u ON t.a = u.a AND u.x > t.b");
        var join = nodesOf(q.body(), PlanNode.Join.class).get(0);
        assertThat(join.kind()).isEqualTo(JoinKind.INNER);
        assertThat(join.leftKeys()).containsExactly(0);
        assertThat(join.rightKeys()).containsExactly(0);
        assertThat(join.residual()).isInstanceOf(Expr.Call.class);
        assertThat(((Expr.Call) join.residual()).func()).isEqualTo(Func.GT);
    }

    @Test
    void commaJoinWithWhereBecomesEquiJoin() {
        var join = nodesOf(query("SELECT count(*) FROM t, u WHERE t.a = u.a AND t.b = u.x").body(),
                PlanNode.Join.class).get(0);
        assertThat(join.kind()).isEqualTo(JoinKind.INNER);
        assertThat(join.leftKeys()).containsExactly(0, 1);
        assertThat(join.rightKeys()).containsExactly(0, 1);
        assertThat(join.residual()).isNull();
    }

    @Test
    void outerAndCrossJoins() {
        assertThat(nodesOf(query("SELECT * FROM t LEFT JOIN u ON t.a = u.a").body(), PlanNode.Join.class).get(0).kind())
                .isEqualTo(JoinKind.LEFT);
        assertThat(nodesOf(query("SELECT * FROM t RIGHT JOIN u ON t.a = u.a").body(), PlanNode.Join.class).get(0).kind())
                .isEqualTo(JoinKind.RIGHT);
        assertThat(nodesOf(query("SELECT a FROM t FULL JOIN u USING (a)").body(), PlanNode.Join.class).get(0).kind())
                .isEqualTo(JoinKind.FULL);
        var cross = nodesOf(query("SELECT * FROM t CROSS JOIN u").body(), PlanNode.Join.class).get(0);
        assertThat(cross.leftKeys()).isEmpty();
        assertThat(cross.residual()).isNull();
        var nonEqui = nodesOf(query("SELECT 1 FROM t t1 JOIN t t2 ON t1.a < t2.a").body(), PlanNode.Join.class).get(0);
        assertThat(nonEqui.leftKeys()).isEmpty();
        assertThat(nonEqui.residual()).isNotNull();
    }

    @Test
    void subqueriesAreDecorrelatedIntoJoinsAndAggregates() {
        for (String sql : List.of(
                "SELECT a FROM t WHERE a IN (SELECT a FROM u)",
                "SELECT a FROM t WHERE a NOT IN (SELECT a FROM u)",
                "SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a)",
                "SELECT a FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.a = t.a)",
                "SELECT a, (SELECT max(x) FROM u WHERE u.a = t.a) FROM t",
                "SELECT a FROM t t1 WHERE a = (SELECT max(a) FROM t t2 WHERE t2.b = t1.b)",
                "SELECT a FROM t t1 WHERE EXISTS (SELECT 1 FROM u WHERE u.a > t1.a)",
                "SELECT a FROM t WHERE a > ALL (SELECT a FROM u)")) {
            QueryPlan q = query(sql);
            assertThat(nodesOf(q.body(), PlanNode.Join.class)).as(sql).isNotEmpty();
            assertThat(q.columnNames().get(0)).isEqualTo("a");
        }
    }

    @Test
    void notInKeepsNullSemanticsWithCounts() {
        // NOT IN must see whether the subquery produced NULLs: Calcite counts rows and non-null keys.
        var reduces = nodesOf(query("SELECT a FROM t WHERE a NOT IN (SELECT a FROM u)").body(), PlanNode.Reduce.class);
        assertThat(reduces).anySatisfy(r -> assertThat(r.aggs()).extracting(a -> a.func())
                .contains(AggFunc.COUNT_STAR, AggFunc.COUNT));
    }

    @Test
    void uncorrelatedScalarSubqueryUsesSingleValueOrLimit() {
        QueryPlan q = query("SELECT a FROM t WHERE a = (SELECT a FROM u LIMIT 1)");
        assertThat(nodesOf(q.body(), PlanNode.TopK.class)).hasSize(1);
        QueryPlan q2 = query("SELECT (SELECT a FROM u) FROM t");
        assertThat(nodesOf(q2.body(), PlanNode.Reduce.class)).anySatisfy(r ->
                assertThat(r.aggs()).extracting(a -> a.func()).contains(AggFunc.SINGLE_VALUE));
    }

    @Test
    void topLevelOrderLimitOffsetAreFinishing() {
        QueryPlan q = query("SELECT a FROM t ORDER BY b DESC LIMIT 10 OFFSET 5");
        assertThat(q.limit()).isEqualTo(10);
        assertThat(q.offset()).isEqualTo(5);
        assertThat(q.columnNames()).containsExactly("a");
        // b is a sort-only column past the output columns
        assertThat(q.body().arity()).isEqualTo(2);
        assertThat(q.order()).containsExactly(new SortKey(1, true, true));
        assertThat(nodesOf(q.body(), PlanNode.TopK.class)).isEmpty();
    }

    @Test
    void nullOrderingDefaultsAndExplicit() {
        assertThat(query("SELECT a FROM t ORDER BY a").order()).containsExactly(SortKey.asc(0));
        assertThat(query("SELECT a FROM t ORDER BY a DESC").order()).containsExactly(SortKey.desc(0));
        assertThat(query("SELECT a FROM t ORDER BY 1 NULLS FIRST").order()).containsExactly(new SortKey(0, false, true));
        assertThat(query("SELECT a FROM t ORDER BY a DESC NULLS LAST").order()).containsExactly(new SortKey(0, true, false));
    }

    @Test
    void orderByAliasOrdinalAndExpression() {
        assertThat(query("SELECT a + 1 AS x FROM t ORDER BY x").order()).containsExactly(SortKey.asc(0));
        QueryPlan expr = query("SELECT a FROM t ORDER BY a + 1");
        assertThat(expr.order()).containsExactly(SortKey.asc(1));
        assertThat(expr.columnNames()).containsExactly("a");
        QueryPlan agg = query("SELECT bid, sum(abalance) FROM pgbench_accounts GROUP BY bid ORDER BY 2 DESC LIMIT 5");
        assertThat(agg.order()).containsExactly(SortKey.desc(1));
        assertThat(agg.limit()).isEqualTo(5);
    }

    @Test
    void limitInsideSubqueryIsTopK() {
        QueryPlan q = query("SELECT count(*) FROM (SELECT a FROM t ORDER BY a DESC LIMIT 3 OFFSET 1) s");
        var topK = nodesOf(q.body(), PlanNode.TopK.class);
        assertThat(topK).hasSize(1);
        assertThat(topK.get(0).limit()).isEqualTo(3);
        assertThat(topK.get(0).offset()).isEqualTo(1);
        assertThat(topK.get(0).order()).containsExactly(SortKey.desc(0));
    }

    @Test
    void setOperations() {
        var union = (PlanNode.Union) query("SELECT a FROM t UNION SELECT a FROM u").body();
        assertThat(union.all()).isFalse();
        assertThat(union.inputs()).hasSize(2);
        assertThat(((PlanNode.Union) query("SELECT a FROM t UNION ALL SELECT a FROM u").body()).all()).isTrue();
        var except = (PlanNode.Except) query("SELECT a FROM t EXCEPT ALL SELECT a FROM u").body();
        assertThat(except.all()).isTrue();
        var intersect = (PlanNode.Intersect) query("SELECT a FROM t INTERSECT SELECT a FROM u").body();
        assertThat(intersect.all()).isFalse();
    }

    @Test
    void valuesAndCtes() {
        QueryPlan v = query("VALUES (1, 'a'), (2, 'b')");
        assertThat(v.columnNames()).containsExactly("column1", "column2");
        assertThat(((PlanNode.Constant) v.body()).rows()).containsExactly(Row.of(1, "a"), Row.of(2, "b"));
        assertThat(v.columnTypes()).containsExactly(SqlType.INTEGER, SqlType.TEXT);
        QueryPlan sub = query("SELECT column2 FROM (VALUES (1, 'a')) v");
        assertThat(sub.columnNames()).containsExactly("column2");
        QueryPlan cte = query("WITH x AS (SELECT a FROM t WHERE a > 1) SELECT * FROM x ORDER BY a");
        assertThat(cte.columnNames()).containsExactly("a");
        assertThat(nodesOf(cte.body(), PlanNode.Get.class)).hasSize(1);
    }

    @Test
    void generateSeriesInFrom() {
        QueryPlan q = query("SELECT g FROM generate_series(1, 10, 2) g");
        assertThat(q.body()).isEqualTo(new PlanNode.GenerateSeries(List.of(new Expr.Literal(1, SqlType.INTEGER),
                new Expr.Literal(10, SqlType.INTEGER), new Expr.Literal(2, SqlType.INTEGER)), SqlType.INTEGER));
        assertThat(q.columnNames()).containsExactly("g");
        assertThat(query("SELECT * FROM generate_series(1, 3)").columnNames()).containsExactly("generate_series");
        assertThat(query("SELECT * FROM generate_series(1, 3::bigint) x").columnTypes()).containsExactly(SqlType.BIGINT);
    }

    @Test
    void expressionsMapToFuncs() {
        QueryPlan q = query("SELECT a + 1, a / 2, a % 3, -a, upper(b), b || 'x', length(b), strpos(b, 'x'), "
                + "split_part(b, ',', 2), trim(b), b LIKE 'a%', b ILIKE 'a%', b NOT LIKE 'x%', b ~ 'y', nullif(a, 2), "
                + "abs(a), lower(b), substring(b from 2 for 3), position('a' in b) FROM t");
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(exprs).allSatisfy(e -> assertThat(e).isInstanceOf(Expr.Call.class));
        assertThat(exprs.stream().map(e -> ((Expr.Call) e).func()).toList()).containsExactly(Func.PLUS, Func.DIVIDE,
                Func.MOD, Func.NEGATE, Func.UPPER, Func.CONCAT_OP, Func.CHAR_LENGTH, Func.STRPOS, Func.SPLIT_PART,
                Func.BTRIM, Func.LIKE, Func.ILIKE, Func.NOT, Func.REGEXP_MATCH_OP, Func.NULLIF, Func.ABS, Func.LOWER,
                Func.SUBSTRING, Func.POSITION);
        assertThat(exprs.get(1).type()).as("integer division stays integer").isEqualTo(SqlType.INTEGER);
    }

    @Test
    void postgresTrimAndOctetLength() {
        // PostgreSQL: ltrim/rtrim take optional characters to strip; octet_length takes text
        QueryPlan q = query("SELECT ltrim(b), ltrim(b, 'x'), rtrim(b, 'xy'), octet_length(b) FROM t");
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(exprs.stream().map(e -> ((Expr.Call) e).func()).toList())
                .containsExactly(Func.LTRIM, Func.LTRIM, Func.RTRIM, Func.OCTET_LENGTH);
        assertThat(((Expr.Call) exprs.get(1)).args()).hasSize(2);
        assertThat(q.columnTypes()).containsExactly(SqlType.TEXT, SqlType.TEXT, SqlType.TEXT, SqlType.INTEGER);
    }

    @Test
    void caseCoalesceAndCast() {
        QueryPlan q = query("SELECT CASE WHEN a > 1 THEN 'x' ELSE 'yy' END, coalesce(b, 'z'), CAST(c AS numeric(5,1)), "
                + "c::text, '2024-01-01'::date FROM t");
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(exprs.get(0)).isInstanceOf(Expr.Case.class);
        assertThat(((Expr.Case) exprs.get(0)).otherwise()).isEqualTo(new Expr.Literal("yy", SqlType.TEXT));
        assertThat(((Expr.Call) exprs.get(1)).func()).isEqualTo(Func.COALESCE);
        assertThat(exprs.get(2)).isEqualTo(new Expr.Cast(new Expr.Column(2, SqlType.numeric(10, 2)), SqlType.numeric(5, 1)));
        assertThat(exprs.get(3).type()).isEqualTo(SqlType.TEXT);
        assertThat(exprs.get(4)).isEqualTo(new Expr.Literal(LocalDate.of(2024, 1, 1), SqlType.DATE));
    }

    @Test
    void textLiteralComparedWithIntegerIsCoerced() {
        var filter = (PlanNode.Filter) query("SELECT * FROM t WHERE a = '1'").body();
        var eq = (Expr.Call) filter.predicates().get(0);
        assertThat(eq.args().get(1).type()).isEqualTo(SqlType.INTEGER);
    }

    @Test
    void doubleColonBindsTighterThanOperators() {
        var p = (PlanNode.Project) query("SELECT a * (a + 1)::bigint, 1 + 2::bigint FROM t").body();
        var times = (Expr.Call) p.exprs().get(0);
        assertThat(times.func()).isEqualTo(Func.TIMES);
        assertThat(times.args().get(1)).isInstanceOf(Expr.Cast.class);
        var plus = (Expr.Call) p.exprs().get(1);
        assertThat(plus.func()).isEqualTo(Func.PLUS);
        assertThat(plus.args().get(1)).isEqualTo(new Expr.Literal(2L, SqlType.BIGINT));
    }

    @Test
    void inListsAndBetween() {
        var filter = (PlanNode.Filter) ((PlanNode.Project) query("SELECT a FROM t WHERE a IN (1, 2, 3)").body()).input();
        assertThat(filter.predicates()).hasSize(1);
        var between = (PlanNode.Filter) query("SELECT * FROM t WHERE a BETWEEN 1 AND 5").body();
        assertThat(between.predicates()).extracting(e -> ((Expr.Call) e).func()).containsExactly(Func.GE, Func.LE);
    }

    @Test
    void dateAndTimeFunctions() {
        QueryPlan q = query("SELECT date_part('year', g), date_trunc('day', g), extract(year from f), now(), "
                + "current_date, g + INTERVAL '1' DAY FROM t");
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(exprs.stream().map(e -> ((Expr.Call) e).func()).toList()).containsExactly(Func.DATE_PART,
                Func.DATE_TRUNC, Func.EXTRACT, Func.NOW, Func.CURRENT_DATE, Func.PLUS);
        assertThat(exprs.get(0).type()).isEqualTo(SqlType.DOUBLE);
        assertThat(exprs.get(1).type()).isEqualTo(SqlType.TIMESTAMP);
        assertThat(((Expr.Call) exprs.get(2)).args().get(0)).isEqualTo(new Expr.Literal("year", SqlType.TEXT));
        assertThat(exprs.get(2).type()).as("extract is numeric in PostgreSQL").isEqualTo(SqlType.NUMERIC);
        assertThat(exprs.get(3).type()).isEqualTo(SqlType.TIMESTAMPTZ);
        assertThat(((Expr.Call) exprs.get(5)).args().get(1))
                .isEqualTo(new Expr.Literal(new Interval(0, 1, 0), SqlType.INTERVAL));
        assertThat(q.columnNames()).containsExactly("date_part", "date_trunc", "extract", "now", "current_date",
                "?column?");
    }

    @Test
    void pgTypeofIsResolvedAtPlanTime() {
        var p = (PlanNode.Project) query("SELECT pg_typeof(a), pg_typeof(c) FROM t").body();
        assertThat(p.exprs()).containsExactly(new Expr.Literal("integer", SqlType.TEXT),
                new Expr.Literal("numeric(10,2)", SqlType.TEXT));
    }

    @Test
    void quotedIdentifiersKeepCaseUnquotedFold() {
        QueryPlan q = query("SELECT \"Id\" FROM \"MixedCase\"");
        assertThat(q.columnNames()).containsExactly("Id");
        QueryPlan folded = query("SELECT A FROM T");
        assertThat(folded.columnNames()).containsExactly("a");
    }

    @Test
    void tableAndTrailingSemicolon() {
        assertThat(query("TABLE u").body()).isEqualTo(new PlanNode.Get(13, "u", TestCatalog.U.types()));
        assertThat(query("SELECT 1;").columnNames()).containsExactly("?column?");
    }

    @Test
    void dateTimeArithmeticFollowsPostgres() {
        QueryPlan q = query("SELECT g - g, f - f, f + 1, f - 1, g - INTERVAL '1' DAY, a - 1 FROM t");
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(exprs).extracting(e -> ((Expr.Call) e).func()).containsExactly(Func.MINUS, Func.MINUS, Func.PLUS,
                Func.MINUS, Func.MINUS, Func.MINUS);
        assertThat(q.columnTypes()).containsExactly(SqlType.INTERVAL, SqlType.INTEGER, SqlType.DATE, SqlType.DATE,
                SqlType.TIMESTAMP, SqlType.INTEGER);
    }

    @Test
    void chainedDoubleColonCastsApplyLeftToRight() {
        // PostgreSQL: '1'::int::text = '1', 0.1::float8::text = '0.1', 1 + '2'::int::int8 = 3 (bigint)
        QueryPlan q = query("SELECT '1'::int::text, 0.1::float8::text, 1 + '2'::int::int8");
        assertThat(q.columnTypes()).containsExactly(SqlType.TEXT, SqlType.TEXT, SqlType.BIGINT);
    }

    @Test
    void castsOfNumbersToUnconstrainedNumericKeepTheirScale() {
        // PostgreSQL: 10::numeric / 4 = 2.5000000000000000 (the dividend has scale 0, not 500)
        QueryPlan q = query("SELECT CAST(10 AS numeric) / 4, 1.50::numeric");
        // Not folded into a literal at Calcite's scale 500: the runtime cast keeps the operand's scale.
        var exprs = ((PlanNode.Project) q.body()).exprs();
        var divide = (Expr.Call) exprs.get(0);
        assertThat(divide.func()).isEqualTo(Func.DIVIDE);
        assertThat(divide.args().get(0)).isEqualTo(new Expr.Cast(new Expr.Literal(10, SqlType.INTEGER), SqlType.NUMERIC));
        Expr second = exprs.get(1) instanceof Expr.Cast c ? c.input() : exprs.get(1);
        assertThat(((BigDecimal) ((Expr.Literal) second).value()).scale()).isEqualTo(2);
        assertThat(q.columnTypes()).containsExactly(SqlType.NUMERIC, SqlType.NUMERIC);
    }

    @Test
    void foldedCastsOfLiteralsRoundHalfAwayFromZeroLikePostgres() {
        // PostgreSQL: 2.5::int = 3, (-2.5)::int = -3, 2.5::numeric(5,0) = 3, 1.25::numeric(3,1) = 1.3
        QueryPlan q = query("SELECT CAST(2.5 AS int), CAST(-2.5 AS int), CAST(2.5 AS numeric(5,0)), CAST(1.25 AS numeric(3,1))");
        // Calcite may fold the casts or leave them to the engine; either way the values are PostgreSQL's.
        var result = OneShotRead.run(q.body(), (id, t) -> {
            throw new AssertionError("no inputs");
        }, 0, EvalContext.defaults(), Cancellation.NONE);
        assertThat(result.asList()).extracting(RowDiff::row)
                .containsExactly(Row.of(3, -3, new BigDecimal("3"), new BigDecimal("1.3")));
    }

    @Test
    void postgresIntervalLiterals() {
        QueryPlan q = query("SELECT now() - interval '1 hour', interval '2 days', '3 minutes'::interval");
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(((Expr.Call) exprs.get(0)).args().get(1))
                .isEqualTo(new Expr.Literal(new Interval(0, 0, 3_600_000_000L), SqlType.INTERVAL));
        assertThat(exprs.get(1)).isEqualTo(new Expr.Literal(new Interval(0, 2, 0), SqlType.INTERVAL));
        assertThat(exprs.get(2)).isEqualTo(new Expr.Literal(new Interval(0, 0, 180_000_000L), SqlType.INTERVAL));
    }

    @Test
    void unsupportedShapesNameTheFeature() {
        assertThat(error("SELECT generate_series(1, 3) + 1").getMessage()).contains("set-returning functions");
        // A LATERAL top-k decorrelates to a join with a per-key row_number (lateral.slt has its results).
        var lateral = query("SELECT * FROM t, LATERAL (SELECT * FROM u WHERE u.a = t.a LIMIT 1) s");
        assertThat(nodes(lateral.body()))
                .anyMatch(n -> n instanceof PlanNode.Window w && w.partitionKeys().length == 1)
                .anyMatch(n -> n instanceof PlanNode.Join);
    }

    @Test
    void joinOnDifferentIntegerTypesStaysAnEquiJoin() {
        var join = nodesOf(query("SELECT * FROM t JOIN u ON t.d = u.a").body(), PlanNode.Join.class).get(0);
        assertThat(join.leftKeys()).hasSize(1);
        assertThat(join.residual()).isNull();
        int l = join.leftKeys()[0];
        int r = join.rightKeys()[0];
        assertThat(join.left().types().get(l)).isEqualTo(join.right().types().get(r));
    }

    @Test
    void orderByAggregateNotInSelectList() {
        QueryPlan q = query("SELECT a FROM t GROUP BY a ORDER BY count(*) DESC");
        assertThat(q.columnNames()).containsExactly("a");
        assertThat(q.body().types()).containsExactly(SqlType.INTEGER, SqlType.BIGINT);
        assertThat(q.order()).containsExactly(SortKey.desc(1));
    }

    @Test
    void recursiveCteIsARecursiveNodeWhoseStepReadsItsWorkingTable() {
        QueryPlan q = query("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r");
        var r = nodesOf(q.body(), PlanNode.Recursive.class).get(0);
        assertThat(r.all()).isTrue();
        assertThat(r.types()).containsExactly(SqlType.INTEGER);
        assertThat(nodesOf(r.step(), PlanNode.Get.class)).extracting(PlanNode.Get::objectId).containsExactly(r.workingId());
        assertThat(io.stillwater.engine.plan.PlanInputs.objectIds(q.body())).isEmpty();
    }

    @Test
    void subqueryInSelectListAndHaving() {
        QueryPlan q = query("SELECT a, a IN (SELECT a FROM u) FROM t");
        assertThat(q.columnTypes()).containsExactly(SqlType.INTEGER, SqlType.BOOLEAN);
        QueryPlan h = query("SELECT a FROM t GROUP BY a HAVING a IN (SELECT a FROM u)");
        assertThat(nodesOf(h.body(), PlanNode.Join.class)).hasSize(1);
    }

    @Test
    void inSubqueryBecomesSemiJoin() {
        var join = nodesOf(query("SELECT a FROM t WHERE a IN (SELECT a FROM u)").body(), PlanNode.Join.class).get(0);
        assertThat(join.kind()).isEqualTo(JoinKind.SEMI);
        assertThat(join.leftKeys()).containsExactly(0);
        assertThat(join.types()).isEqualTo(TestCatalog.T.types());
    }

    @Test
    void columnsNamedLikeKeywords() {
        QueryPlan q = query("SELECT key, value, year, name, status, count FROM kv WHERE value > 1 ORDER BY value");
        assertThat(q.columnNames()).containsExactly("key", "value", "year", "name", "status", "count");
        var up = (Statement.Update) plan("UPDATE kv SET value = value + 1 WHERE key = 'a'");
        assertThat(up.setColumns()).containsExactly(1);
    }

    @Test
    void negatedRegexMatchKeepsItsNegation() {
        var filter = (PlanNode.Filter) ((PlanNode.Project) query("SELECT a FROM t WHERE b !~ 'x'").body()).input();
        var not = (Expr.Call) filter.predicates().get(0);
        assertThat(not.func()).isEqualTo(Func.NOT);
        assertThat(((Expr.Call) not.args().get(0)).func()).isEqualTo(Func.REGEXP_MATCH_OP);
    }

    @Test
    void publicSchemaQualifiedNames() {
        assertThat(query("SELECT a FROM public.t").columnNames()).containsExactly("a");
        assertThat(plan("INSERT INTO public.u VALUES (1, 'x')")).isInstanceOf(Statement.Insert.class);
    }

    @Test
    void currentTimestampIsTimestamptzAndAliasesAreNotRewritten() {
        QueryPlan q = query("SELECT current_timestamp, localtimestamp, a AS \"$1\" FROM t");
        assertThat(q.columnNames()).containsExactly("current_timestamp", "localtimestamp", "$1");
        assertThat(q.columnTypes()).containsExactly(SqlType.TIMESTAMPTZ, SqlType.TIMESTAMP, SqlType.INTEGER);
        var exprs = ((PlanNode.Project) q.body()).exprs();
        assertThat(((Expr.Call) exprs.get(0)).func()).isEqualTo(Func.NOW);
    }
}
