package io.stillwater.bench.feature.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.feature.run.TimedScript.ScriptFailedException;
import io.stillwater.bench.feature.scenario.ScriptStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Markers and timing without a database: a fake executor advances a fake clock by a weight per
 * statement (statement i costs 10^i), so the span names exactly which statements were timed.
 */
class TimedScriptTest {

    /** A fake target: each statement advances the clock by its own cost and answers a fixed row set. */
    private static final class FakeTarget implements TimedScript.Executor {
        final long[] clock = {1_000_000};
        final List<String> sent = new ArrayList<>();
        final Map<String, Long> cost;
        final Map<String, List<String>> answers;

        FakeTarget(Map<String, Long> cost, Map<String, List<String>> answers) {
            this.cost = cost;
            this.answers = answers;
        }

        @Override
        public List<String> execute(String sql, boolean collect) throws SQLException {
            sent.add(sql);
            clock[0] += cost.getOrDefault(sql, 0L);
            if (sql.startsWith("FAIL")) {
                throw new SQLException("ERROR: relation \"nope\" does not exist\n  Position: 15", "42P01");
            }
            return collect ? answers.getOrDefault(sql, List.of()) : List.of();
        }

        long now() {
            return clock[0];
        }
    }

    private static ScriptStatement plain(String sql) {
        return new ScriptStatement(sql, false, false, null);
    }

    private static List<ScriptStatement> script(int n, int a, int b) {
        List<ScriptStatement> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ScriptStatement("s" + i, i == a, i == b, null));
        }
        return out;
    }

    private static Map<String, Long> powersOfTen(int n) {
        Map<String, Long> cost = new HashMap<>();
        long w = 1;
        for (int i = 0; i < n; i++) {
            cost.put("s" + i, w);
            w *= 10;
        }
        return cost;
    }

    @Test
    void theSpanRunsFromTheStartOfAToTheEndOfB() throws Exception {
        FakeTarget t = new FakeTarget(powersOfTen(5), Map.of());
        long span = TimedScript.timed(script(5, 1, 3), t, t::now);
        assertThat(span).isEqualTo(10 + 100 + 1000); // s1, s2, s3; not s0 before A nor s4 after B
        assertThat(t.sent).containsExactly("s0", "s1", "s2", "s3", "s4"); // untimed ones still run, in order
    }

    @Test
    void oneStatementMayCarryBothMarkers() throws Exception {
        FakeTarget t = new FakeTarget(powersOfTen(3), Map.of());
        assertThat(TimedScript.timed(script(3, 1, 1), t, t::now)).isEqualTo(10);
    }

    @Property(tries = 200)
    void exactlyTheStatementsFromAThroughBAreTimed(@ForAll("scripts") int[] shape) throws Exception {
        int n = shape[0];
        int a = shape[1];
        int b = shape[2];
        Map<String, Long> cost = powersOfTen(n);
        FakeTarget t = new FakeTarget(cost, Map.of());
        long expected = 0;
        for (int i = a; i <= b; i++) {
            expected += cost.get("s" + i);
        }
        assertThat(TimedScript.timed(script(n, a, b), t, t::now)).isEqualTo(expected);
        assertThat(t.sent).hasSize(n);
    }

    @Provide
    Arbitrary<int[]> scripts() {
        return Arbitraries.integers().between(1, 12).flatMap(n -> Combinators.combine(
                Arbitraries.integers().between(0, n - 1), Arbitraries.integers().between(0, n - 1))
                .as((x, y) -> new int[] {n, Math.min(x, y), Math.max(x, y)}));
    }

    @Test
    void aFailingStatementIsNamedWithItsSqlstateAndStopsTheScript() {
        FakeTarget t = new FakeTarget(Map.of(), Map.of());
        List<ScriptStatement> s = List.of(plain("s0"), new ScriptStatement("FAIL SELECT * FROM nope /* A */", true, false, null),
                new ScriptStatement("s2 /* B */", false, true, null));
        assertThatThrownBy(() -> TimedScript.timed(s, t, t::now)).isInstanceOf(ScriptFailedException.class)
                .hasMessage("statement `FAIL SELECT * FROM nope /* A */` failed: 42P01: relation \"nope\" does not exist");
        assertThat(t.sent).containsExactly("s0", "FAIL SELECT * FROM nope /* A */");
    }

    @Test
    void longStatementsAreQuotedOnOneLineAndCut() {
        String longSql = "FAIL SELECT\n  " + "x, ".repeat(200) + "1";
        FakeTarget t = new FakeTarget(Map.of(), Map.of());
        assertThatThrownBy(() -> TimedScript.untimed(List.of(plain(longSql)), t))
                .hasMessageStartingWith("statement `FAIL SELECT x, x, ").hasMessageContaining("...` failed: 42P01");
        assertThat(TimedScript.quote(longSql)).hasSize(TimedScript.QUOTE_LIMIT + 3).doesNotContain("\n");
    }

    @Test
    void anExpectationHoldsOnlyForExactlyOneMatchingRow() throws Exception {
        var ok = new ScriptStatement("SELECT count(*), max(a) FROM t /* expect: 3 NULL */", false, false, "3 NULL");
        FakeTarget right = new FakeTarget(Map.of(), Map.of(ok.sql(), List.of("3 NULL")));
        TimedScript.untimed(List.of(ok), right);
        assertThat(right.sent).containsExactly(ok.sql());

        FakeTarget wrong = new FakeTarget(Map.of(), Map.of(ok.sql(), List.of("2 NULL")));
        assertThatThrownBy(() -> TimedScript.untimed(List.of(ok), wrong)).isInstanceOf(ScriptFailedException.class)
                .hasMessage("wrong result from `" + ok.sql() + "`: expected \"3 NULL\", got \"2 NULL\"");

        FakeTarget none = new FakeTarget(Map.of(), Map.of(ok.sql(), List.of()));
        assertThatThrownBy(() -> TimedScript.untimed(List.of(ok), none)).hasMessageEndingWith("got no rows");

        FakeTarget two = new FakeTarget(Map.of(), Map.of(ok.sql(), List.of("3 NULL", "3 NULL")));
        assertThatThrownBy(() -> TimedScript.untimed(List.of(ok), two)).hasMessageEndingWith("got 2 rows (first \"3 NULL\")");
    }

    @Test
    void anExpectationInsideTheSpanIsCheckedAfterTheClockStops() throws Exception {
        var a = new ScriptStatement("s0 /* A */", true, false, null);
        var b = new ScriptStatement("s1 /* B */ /* expect: 1 */", false, true, "1");
        long[] clock = {0};
        List<Boolean> collected = new ArrayList<>();
        TimedScript.Executor ex = (sql, collect) -> {
            collected.add(collect);
            clock[0] += 5;
            return collect ? List.of("2") : List.of();
        };
        assertThatThrownBy(() -> TimedScript.timed(List.of(a, b), ex, () -> clock[0]))
                .hasMessageContaining("wrong result from `s1 /* B */ /* expect: 1 */`: expected \"1\", got \"2\"");
        assertThat(collected).containsExactly(false, true); // rows are only kept where an expectation needs them
    }
}
