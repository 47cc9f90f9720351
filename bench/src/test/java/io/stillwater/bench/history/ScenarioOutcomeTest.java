package io.stillwater.bench.history;

import static io.stillwater.bench.history.BenchFixtures.LOOKUP;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.gate.Guarantee;
import io.stillwater.bench.gate.GuaranteeViolation;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.stats.Stat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScenarioOutcomeTest {
    private static final Map<String, Double> ONE = Map.of(LOOKUP, 2.0);

    @Test
    void aMissedGuaranteeOnThisSideIsViolatedNotPassed() {
        GuaranteeViolation v = new GuaranteeViolation(LOOKUP, new Guarantee(Stat.P99, 1), 5.0);
        ScenarioComparison c = BenchFixtures.compare("Read",
                List.of(BenchFixtures.completed("Read", 1, 200, 0, ONE, List.of(v))),
                List.of(BenchFixtures.completed("Read", 2, 200, 0, ONE, List.of())));
        ScenarioOutcome o = ComparisonHistory.outcome(c);
        assertThat(o.verdict()).isEqualTo(ScenarioVerdict.VIOLATED);
        assertThat(o.reason()).contains("guaranteed p99 <= 1.0");
        assertThat(o.verdict().green()).isFalse();
    }

    @Test
    void aFailedRunOutranksInvalidAndInvalidOutranksARegression() {
        ScenarioComparison failedOnce = BenchFixtures.compare("Read",
                List.of(BenchFixtures.completed("Read", 1, 200, 0, ONE, List.of()),
                        BenchFixtures.failed("Read", "phase 3 (cleanup): 57P01: terminating connection")),
                List.of(BenchFixtures.completed("Read", 2, 200, 0, ONE, List.of())));
        assertThat(ComparisonHistory.outcome(failedOnce).verdict()).isEqualTo(ScenarioVerdict.FAILED);
        ScenarioComparison regressed = BenchFixtures.twoActions("Read", 3.0);
        assertThat(ComparisonHistory.outcome(regressed).verdict()).isEqualTo(ScenarioVerdict.REGRESSED);
        ScenarioComparison invalid = BenchFixtures.invalid("Read", "cannot verify: mz_peek_history is missing");
        ScenarioOutcome o = ComparisonHistory.outcome(invalid);
        assertThat(o.verdict()).isEqualTo(ScenarioVerdict.INVALID);
        assertThat(o.reason()).isEqualTo("cannot verify: mz_peek_history is missing");
        assertThat(invalid.verdicts()).as("an INVALID run never enters a verdict").isEmpty();
        ScenarioComparison invalidAndFailed = BenchFixtures.compare("Read",
                List.of(invalid.thisRuns().getFirst(), BenchFixtures.failed("Read", "phase 2 (load): boom")), List.of());
        assertThat(ComparisonHistory.outcome(invalidAndFailed).verdict()).isEqualTo(ScenarioVerdict.FAILED);
    }

    @Test
    void comparedToHistoryTheMissingOtherRunsAreNotAProblem() {
        ScenarioComparison c = BenchFixtures.compare("Read",
                List.of(BenchFixtures.completed("Read", 1, 200, 0, ONE, List.of())), List.of());
        assertThat(ComparisonHistory.outcome(c).verdict()).isEqualTo(ScenarioVerdict.PASSED);
        ScenarioComparison none = BenchFixtures.compare("Read", List.of(), List.of());
        assertThat(ComparisonHistory.outcome(none).verdict()).isEqualTo(ScenarioVerdict.FAILED);
    }
}
