package io.stillwater.engine.dataflow;

import static io.stillwater.engine.dataflow.TestPlans.call;
import static io.stillwater.engine.dataflow.TestPlans.col;
import static io.stillwater.engine.dataflow.TestPlans.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.JoinKind;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * A one-shot join that probes an arranged input ({@link LookupJoinOperator}) returns exactly
 * what the hash join over the same input's contents returns: every supported kind, NULL
 * keys, join keys beyond the arrangement's key, residuals, errors in residuals. And when the
 * lookup join is used, the arranged input's contents are never read.
 */
class LookupJoinPropertiesTest {
    private static final PlanNode.Get L = Harness.T1;
    private static final PlanNode.Get R = Harness.T2;

    /** R arranged by the given key columns (a hash map standing in for an index). */
    private record MapArrangement(int[] keyColumns, Map<Row, List<Row>> byKey) implements ArrangedInput {
        static MapArrangement of(Changes contents, int[] keyColumns) {
            Map<Row, List<Row>> byKey = new HashMap<>();
            for (int i = 0; i < contents.size(); i++) {
                Row r = contents.row(i);
                Object[] k = new Object[keyColumns.length];
                for (int j = 0; j < k.length; j++) k[j] = r.get(keyColumns[j]);
                for (long n = 0; n < contents.diff(i); n++) byKey.computeIfAbsent(Row.wrap(k), x -> new ArrayList<>()).add(r);
            }
            return new MapArrangement(keyColumns, byKey);
        }

        @Override
        public void lookup(Row key, Visitor visitor) {
            for (Row r : byKey.getOrDefault(key, List.of())) visitor.accept(r, 1);
        }
    }

    @Property(tries = 400)
    void probingAnArrangementEqualsTheHashJoin(
            @ForAll("tables") List<Row> left, @ForAll("tables") List<Row> right,
            @ForAll("kinds") JoinKind kind, @ForAll boolean arrangedOnTheLeft,
            @ForAll("keyChoices") int keyChoice, @ForAll("residuals") int residualChoice) {
        if (arrangedOnTheLeft && kind != JoinKind.INNER) kind = JoinKind.INNER;
        // Join on k (and, for keyChoice 1 and 2, also on v); the arrangement is keyed by k
        // (choices 0, 1: v is then an extra pair checked per candidate) or by (v, k).
        int[] keys = keyChoice == 0 ? new int[] {0} : new int[] {0, 1};
        int[] arrangementKey = keyChoice == 2 ? new int[] {1, 0} : new int[] {0};
        Expr residual = switch (residualChoice) {
            case 0 -> null;
            case 1 -> call(Func.EQ, SqlType.BOOLEAN, col(3, SqlType.TEXT), col(7, SqlType.TEXT));
            default -> call(Func.GT, SqlType.BOOLEAN,
                    call(Func.DIVIDE, SqlType.INTEGER, lit(10, SqlType.INTEGER), col(5, SqlType.INTEGER)),
                    lit(3, SqlType.INTEGER));
        };
        PlanNode join = new PlanNode.Join(L, R, kind, keys, keys, residual);
        Changes l = Changes.insertAll(left);
        Changes r = Changes.insertAll(right);
        Map<Long, Changes> tables = Map.of(1L, l, 2L, r);
        long arrangedId = arrangedOnTheLeft ? 1 : 2;
        MapArrangement arrangement = MapArrangement.of(tables.get(arrangedId), arrangementKey);

        Outcome hash = run(join, tables, Optional.empty(), arrangedId);
        AtomicInteger arrangedReads = new AtomicInteger();
        Outcome lookup = run(join, tables, Optional.of(arrangement), arrangedId, arrangedReads);
        assertThat(lookup).isEqualTo(hash);
        assertThat(arrangedReads).as("the arranged input's contents are never read").hasValue(0);
    }

    @Test
    void keysOfDifferentTypesFallBackToTheHashJoin() {
        PlanNode.Get bigints = new PlanNode.Get(2, "t2", List.of(SqlType.BIGINT, SqlType.INTEGER, SqlType.BOOLEAN, SqlType.TEXT));
        PlanNode join = new PlanNode.Join(L, bigints, JoinKind.INNER, new int[] {0}, new int[] {0}, null);
        Changes l = Changes.insertAll(List.of(Row.of(1, 1, true, "x")));
        Changes r = Changes.insertAll(List.of(Row.of(1L, 2, false, "y")));
        AtomicInteger arrangedReads = new AtomicInteger();
        Outcome out = run(join, Map.of(1L, l, 2L, r), Optional.of(MapArrangement.of(r, new int[] {0})), 2, arrangedReads);
        assertThat(out.rows()).containsExactly(Row.of(1, 1, true, "x", 1L, 2, false, "y"));
        assertThat(arrangedReads).as("int = bigint keys are not probed: the hash join reads the contents").hasValue(1);
    }

    private record Outcome(List<Row> rows, String error) {}

    private static Outcome run(PlanNode plan, Map<Long, Changes> tables, Optional<ArrangedInput> arranged, long arrangedId) {
        return run(plan, tables, arranged, arrangedId, new AtomicInteger());
    }

    private static Outcome run(PlanNode plan, Map<Long, Changes> tables, Optional<ArrangedInput> arranged,
                               long arrangedId, AtomicInteger arrangedReads) {
        SnapshotSource source = new SnapshotSource() {
            @Override
            public Changes read(long id, long asOf) {
                if (id == arrangedId) arrangedReads.incrementAndGet();
                return tables.get(id);
            }

            @Override
            public Optional<ArrangedInput> arranged(long id, long asOf) {
                return id == arrangedId ? arranged : Optional.empty();
            }
        };
        try {
            return new Outcome(TestPlans.rows(OneShotRead.run(plan, source, 1, EvalContext.defaults(), Cancellation.NONE)), null);
        } catch (SqlException e) {
            return new Outcome(List.of(), e.getMessage());
        }
    }

    @Test
    void anErrorInTheResidualFailsTheRead() {
        Expr residual = call(Func.GT, SqlType.BOOLEAN,
                call(Func.DIVIDE, SqlType.INTEGER, lit(10, SqlType.INTEGER), col(5, SqlType.INTEGER)), lit(3, SqlType.INTEGER));
        PlanNode join = new PlanNode.Join(L, R, JoinKind.INNER, new int[] {0}, new int[] {0}, residual);
        Changes l = Changes.insertAll(List.of(Row.of(1, 1, true, "x")));
        Changes r = Changes.insertAll(List.of(Row.of(1, 0, false, "y")));
        SnapshotSource source = new SnapshotSource() {
            @Override
            public Changes read(long id, long asOf) { return id == 1 ? l : r; }

            @Override
            public Optional<ArrangedInput> arranged(long id, long asOf) {
                return id == 2 ? Optional.of(MapArrangement.of(r, new int[] {0})) : Optional.empty();
            }
        };
        assertThatThrownBy(() -> OneShotRead.run(join, source, 1, EvalContext.defaults(), Cancellation.NONE))
                .isInstanceOf(SqlException.class).hasMessage("Evaluation error: division by zero");
    }

    @Provide
    Arbitrary<List<Row>> tables() { return Harness.rows().list().ofMaxSize(12); }

    @Provide
    Arbitrary<JoinKind> kinds() { return Arbitraries.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI); }

    @Provide
    Arbitrary<Integer> keyChoices() { return Arbitraries.integers().between(0, 2); }

    @Provide
    Arbitrary<Integer> residuals() { return Arbitraries.integers().between(0, 2); }

}
