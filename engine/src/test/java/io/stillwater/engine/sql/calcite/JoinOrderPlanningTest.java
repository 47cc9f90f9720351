package io.stillwater.engine.sql.calcite;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Inner joins are ordered along their equality predicates ({@link JoinOrder}): whatever
 * the FROM order, no join of the plan is a cross product when the equality graph is
 * connected, the output columns stay in the written order, outer joins stay where they
 * were written, and a tree already free of cross products keeps its written shape.
 */
class JoinOrderPlanningTest extends PlannerFixture {
    @BeforeEach
    void tables() {
        for (int i = 1; i <= 40; i++) {
            add(new TableDef(1000 + i, "t" + i, List.of(new ColumnDef("a", SqlType.INTEGER, false, null),
                    new ColumnDef("b", SqlType.INTEGER, false, null), new ColumnDef("c", SqlType.TEXT, false, null))));
        }
        add(new TableDef(200, "fact", List.of(new ColumnDef("k1", SqlType.INTEGER, false, null),
                new ColumnDef("k2", SqlType.INTEGER, false, null), new ColumnDef("k3", SqlType.INTEGER, false, null),
                new ColumnDef("k4", SqlType.INTEGER, false, null), new ColumnDef("amount", SqlType.INTEGER, false, null))));
        for (int i = 1; i <= 4; i++) {
            add(new TableDef(200 + i, "dim" + i, List.of(new ColumnDef("k", SqlType.INTEGER, false, null),
                    new ColumnDef("label", SqlType.TEXT, false, null))));
        }
    }

    private void add(TableDef def) { catalog.tables.put(def.name(), def); }

    /**
     * t1.b = t2.a AND t2.b = t3.a AND ... AND t19.b = t20.a: no equality between tables
     * that are not neighbours is implied (Calcite infers t1.a = t3.a from t1.a = t2.a AND
     * t2.a = t3.a when it pushes filters into joins, which hides the problem).
     */
    static String chainPredicate(int n) {
        List<String> eqs = new ArrayList<>();
        for (int i = 1; i < n; i++) eqs.add("t" + i + ".b = t" + (i + 1) + ".a");
        return String.join(" AND ", eqs);
    }

    /** t1, t3, ..., t19, t2, t4, ..., t20: every adjacent pair in FROM is unrelated. */
    static List<String> oddThenEven(int n) {
        List<String> from = new ArrayList<>();
        for (int i = 1; i <= n; i += 2) from.add("t" + i);
        for (int i = 2; i <= n; i += 2) from.add("t" + i);
        return from;
    }

    private static List<PlanNode.Join> crossProducts(QueryPlan q) {
        return nodesOf(q.body(), PlanNode.Join.class).stream().filter(j -> j.leftKeys().length == 0).toList();
    }

    @Test
    void oddEvenChainOfTwentyHasNoCrossProduct() {
        QueryPlan q = query("SELECT count(*) FROM " + String.join(", ", oddThenEven(20)) + " WHERE " + chainPredicate(20));
        assertThat(nodesOf(q.body(), PlanNode.Join.class)).hasSize(19);
        assertThat(crossProducts(q)).isEmpty();
    }

    @Test
    void fortyTablesInCommaOrJoinFormOrStarHaveNoCrossProduct() {
        QueryPlan comma = query("SELECT count(*) FROM " + String.join(", ", oddThenEven(40)) + " WHERE " + chainPredicate(40));
        assertThat(nodesOf(comma.body(), PlanNode.Join.class)).hasSize(39);
        assertThat(crossProducts(comma)).isEmpty();
        // JOIN ... ON each naming the next table: written along the chain.
        StringBuilder joins = new StringBuilder("SELECT count(*) FROM t1");
        for (int i = 2; i <= 40; i++) joins.append(" JOIN t").append(i).append(" ON t").append(i - 1).append(".b = t").append(i).append(".a");
        assertThat(crossProducts(query(joins.toString()))).isEmpty();
        // CROSS JOINs with the equalities in WHERE, in the odd-then-even order.
        QueryPlan cross = query("SELECT count(*) FROM " + String.join(" CROSS JOIN ", oddThenEven(40)) + " WHERE " + chainPredicate(40));
        assertThat(crossProducts(cross)).isEmpty();
        List<String> star = new ArrayList<>();
        for (int i = 2; i <= 40; i++) star.add("t1.a = t" + i + ".b");
        QueryPlan s = query("SELECT count(*) FROM " + String.join(", ", oddThenEven(40)) + " WHERE " + String.join(" AND ", star));
        assertThat(crossProducts(s)).isEmpty();
    }

    @Test
    void shuffledChainHasNoCrossProductAndKeepsTheWrittenColumnOrder() {
        List<String> from = new ArrayList<>(IntStream.rangeClosed(1, 20).mapToObj(i -> "t" + i).toList());
        Collections.shuffle(from, new Random(12));
        QueryPlan q = query("SELECT * FROM " + String.join(", ", from) + " WHERE " + chainPredicate(20));
        assertThat(crossProducts(q)).isEmpty();
        assertThat(q.columnNames()).hasSize(60);
        // SELECT * lists the tables' columns in FROM order: a, b, c, a, b, c, ... whatever the join order.
        for (int i = 0; i < 60; i++) {
            assertThat(q.body().types().get(i)).isEqualTo(i % 3 == 2 ? SqlType.TEXT : SqlType.INTEGER);
        }
    }

    @Test
    void starSchemaJoinsEveryDimensionThroughTheFact() {
        QueryPlan q = query("""
                SELECT dim1.label, dim4.label, sum(amount)
                FROM dim1, dim2, dim3, dim4, fact
                WHERE fact.k1 = dim1.k AND fact.k2 = dim2.k AND fact.k3 = dim3.k AND fact.k4 = dim4.k
                GROUP BY dim1.label, dim4.label""");
        assertThat(nodesOf(q.body(), PlanNode.Join.class)).hasSize(4);
        assertThat(crossProducts(q)).isEmpty();
    }

    @Test
    void aDisconnectedGraphKeepsOnlyTheUnavoidableCrossProduct() {
        // {t1, t2} and {t3, t4} are unrelated: one cross product is needed, not two.
        QueryPlan q = query("SELECT count(*) FROM t1, t3, t2, t4 WHERE t1.b = t2.a AND t3.b = t4.a");
        assertThat(crossProducts(q)).hasSize(1);
        assertThat(query("SELECT count(*) FROM t1, t2").body().arity()).isEqualTo(1);
        assertThat(crossProducts(query("SELECT count(*) FROM t1, t2"))).hasSize(1);
    }

    @Test
    void outerJoinsStayWhereTheyWereWritten() {
        // The LEFT JOIN is one input of the inner tree (t3, that join, t4), never split.
        QueryPlan q = query("""
                SELECT * FROM t3, (t1 LEFT JOIN t2 ON t1.a = t2.a), t4
                WHERE t4.a = t1.b AND t3.a = t4.b""");
        var joins = nodesOf(q.body(), PlanNode.Join.class);
        var left = joins.stream().filter(j -> j.kind() == JoinKind.LEFT).toList();
        assertThat(left).hasSize(1);
        assertThat(nodesOf(left.get(0), PlanNode.Get.class)).extracting(PlanNode.Get::name).containsExactly("t1", "t2");
        assertThat(crossProducts(q)).isEmpty();
        assertThat(q.body().types()).hasSize(12);
    }

    @Test
    void aConnectedWrittenOrderKeepsItsShape() {
        QueryPlan q = query("SELECT t1.c FROM t1, t2, t3 WHERE t1.b = t2.a AND t2.b = t3.a");
        List<String> scans = nodesOf(q.body(), PlanNode.Get.class).stream().map(PlanNode.Get::name).toList();
        assertThat(scans).containsExactly("t1", "t2", "t3");
        assertThat(nodesOf(q.body(), PlanNode.Project.class)).hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void predicatesOverThreeInputsSitAtTheJoinThatSeesThemAll() {
        QueryPlan q = query("""
                SELECT count(*) FROM t1, t3, t2
                WHERE t1.b = t2.a AND t2.b = t3.a AND t1.c || t3.c = t2.c""");
        assertThat(crossProducts(q)).isEmpty();
        var joins = nodesOf(q.body(), PlanNode.Join.class);
        assertThat(joins.get(0).residual()).as("the top join sees t1, t2 and t3").isNotNull();
    }
}
