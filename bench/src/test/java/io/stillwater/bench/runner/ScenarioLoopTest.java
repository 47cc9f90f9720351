package io.stillwater.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario loop both benches share: order, progress, and one scenario never ending the run. */
class ScenarioLoopTest {
    @Test
    void everyScenarioRunsInOrderAndAThrowingOneBecomesItsFailedResult() {
        List<String> events = new ArrayList<>();
        ScenarioLoop.Listener<String, String> listener = new ScenarioLoop.Listener<>() {
            @Override
            public void started(int index, int total, String scenario) {
                events.add("started " + index + "/" + total + " " + scenario);
            }

            @Override
            public void finished(String result) {
                events.add("finished " + result);
            }
        };
        List<String> results = ScenarioLoop.each(List.of("A", "Broken", "Fatal", "D"), listener, s -> switch (s) {
            case "Broken" -> throw new IllegalStateException("no table t");
            case "Fatal" -> throw new StackOverflowError();
            default -> s + " PASSED";
        }, (s, e) -> s + " FAILED: " + e.getClass().getSimpleName());

        assertThat(results).containsExactly("A PASSED", "Broken FAILED: IllegalStateException",
                "Fatal FAILED: StackOverflowError", "D PASSED");
        assertThat(events).containsExactly("started 1/4 A", "finished A PASSED", "started 2/4 Broken",
                "finished Broken FAILED: IllegalStateException", "started 3/4 Fatal",
                "finished Fatal FAILED: StackOverflowError", "started 4/4 D", "finished D PASSED");
    }

    @Test
    void noScenariosNoResults() {
        assertThat(ScenarioLoop.<String, String>each(List.of(), new ScenarioLoop.Listener<>() { }, s -> s,
                (s, e) -> s)).isEmpty();
    }
}
