package io.stillwater.engine.dataflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.EvalError;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Drives a dataflow through random update sequences and checks, after every step, that
 * its accumulated output (and error collection) equals the {@link Reference} evaluation
 * over the accumulated inputs.
 *
 * <p>Input rows are {@code (k int, v int, b boolean, s text)} drawn from small domains
 * (NULL included) so duplicates, NULL keys and retractions of present rows all happen.
 */
final class Harness {
    static final List<SqlType> TYPES = List.of(SqlType.INTEGER, SqlType.INTEGER, SqlType.BOOLEAN, SqlType.TEXT);
    static final PlanNode.Get T1 = new PlanNode.Get(1, "t1", TYPES);
    static final PlanNode.Get T2 = new PlanNode.Get(2, "t2", TYPES);

    /** One update: insert a fresh row, or delete the {@code pick}-th present row of {@code table}. */
    record Op(long table, boolean insert, Row row, int pick) {}

    private Harness() {}

    static Arbitrary<Row> rows() {
        Arbitrary<Integer> k = Arbitraries.of(0, 1, 2).injectNull(0.2);
        Arbitrary<Integer> v = Arbitraries.of(0, 1, 2, 3).injectNull(0.2);
        Arbitrary<Boolean> b = Arbitraries.of(true, false).injectNull(0.2);
        Arbitrary<String> s = Arbitraries.of("x", "y").injectNull(0.2);
        return Combinators.combine(k, v, b, s).as((a, c, d, e) -> Row.of(a, c, d, e));
    }

    static Arbitrary<List<List<Op>>> steps(int tables) {
        Arbitrary<Op> op = Combinators.combine(
                Arbitraries.longs().between(1, tables),
                Arbitraries.of(true, true, false),
                rows(),
                Arbitraries.integers().between(0, 1000))
                .as(Op::new);
        return op.list().ofMaxSize(8).list().ofMinSize(1).ofMaxSize(6);
    }

    static void check(PlanNode plan, List<List<Op>> steps) {
        Dataflow df = new DataflowBuilder(EvalContext.defaults(), Cancellation.NONE).build(plan);
        Map<Long, List<Row>> db = new HashMap<>();
        Map<Row, Long> output = new HashMap<>();
        Map<Row, Long> errors = new HashMap<>();
        long time = 1000;
        for (List<Op> step : steps) {
            Map<Long, Changes> changes = new HashMap<>();
            for (Op op : step) {
                List<Row> contents = db.computeIfAbsent(op.table(), t -> new ArrayList<>());
                Changes c = changes.computeIfAbsent(op.table(), t -> new Changes());
                if (op.insert()) {
                    contents.add(op.row());
                    c.add(op.row(), 1);
                } else if (!contents.isEmpty()) {
                    Row gone = contents.remove(op.pick() % contents.size());
                    c.add(gone, -1);
                }
            }
            Delta d = df.step(time++, changes);
            accumulate(output, d.ok());
            accumulate(errors, d.errors());

            Reference ref = new Reference(db);
            Map<Row, Long> expected = Reference.counts(ref.eval(plan));
            assertThat(render(output)).as("output after step %d of %s", time, steps).isEqualTo(render(expected));
            List<Row> refErrors = new ArrayList<>();
            for (EvalError e : ref.errors) refErrors.add(Row.of(e));
            assertThat(render(errors)).as("errors").isEqualTo(render(Reference.counts(refErrors)));
        }
    }

    static void accumulate(Map<Row, Long> acc, Changes c) {
        for (int i = 0; i < c.size(); i++) {
            acc.merge(c.row(i), c.diff(i), Long::sum);
            if (acc.get(c.row(i)) == 0) acc.remove(c.row(i));
        }
    }

    /** A canonical text of a bag, sensitive to numeric scale (2.50 vs 2.5). */
    static String render(Map<Row, Long> bag) {
        Changes c = new Changes();
        bag.forEach(c::add);
        return c.consolidate().toString();
    }
}
