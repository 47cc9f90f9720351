package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.history.BenchFixtures;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.Calibrations;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.stats.Stat;
import java.util.List;
import org.junit.jupiter.api.Test;

class TerminalTableTest {
    @Test
    void everyScenarioAppearsWithItsVerdictReasonAndTheSummary() {
        BenchReport r = ReportFixtures.report();
        String table = TerminalTable.render(r);
        assertThat(table).contains("== PeekIsolation 1.2.0  PASSED", "== " + ReportFixtures.HOSTILE,
                "== Broken 1.0.0  FAILED", "42P01: relation \"t\" does not exist", "== NeedsClusters 1.0.0  SKIPPED",
                "target lacks [CLUSTERS]", "== Misrouted 1.2.0  INVALID", "0 of 4000 ran there");
        assertThat(table).contains("REGRESSION", "no data");
        assertThat(table).contains(BenchFixtures.LOOKUP);
        assertThat(table.strip()).endsWith(
                "6 scenarios: 2 passed, 1 regressed, 0 violated, 1 failed, 1 invalid, 1 skipped - FAIL");
        assertThat(r.summary().count(ScenarioVerdict.REGRESSED)).isEqualTo(1);
    }

    @Test
    void linesFitTheWidthAndNoisyThresholdsAreMarked() {
        String table = TerminalTable.render(ReportFixtures.report(), 120);
        assertThat(table.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(120));
        // the flagged p50 row: CONTENDED 50% against a calibrated +-30%
        assertThat(table.lines().filter(l -> l.strip().startsWith("p50 ms") && l.contains("+-30.0%")))
                .singleElement().satisfies(l -> assertThat(l).endsWith(" !"));
        assertThat(table.lines().filter(l -> l.strip().startsWith("avg ms") && l.contains("+-5.0%")))
                .singleElement().satisfies(l -> assertThat(l).doesNotEndWith("!"));
        assertThat(table).contains("! threshold tighter than twice the calibrated run-to-run spread");
    }

    @Test
    void aCalibrationOfAnotherScenarioVersionIsNotShown() {
        BenchReport r = ReportFixtures.report().withCalibrations(Calibrations.of(
                List.of(new Calibration("PeekIsolation", "1.1.0",
                        BenchFixtures.LOOKUP, Stat.P50, 0.30, 0.6, 6))));
        String table = TerminalTable.render(r);
        assertThat(table).doesNotContain("+-30.0%").doesNotContain(" !");
    }

    @Test
    void longReasonsAreWrappedNotCutAndGatedDetailHidesUngatedRows() {
        BenchReport base = ReportFixtures.report();
        List<ScenarioComparison> scenarios = base.scenarios().stream()
                .map(c -> c.scenario().equals("Misrouted") ? BenchFixtures.invalid("Misrouted",
                        "expected every lookup on the interactive runtime but mz_peek_history shows 0 of 4000 there; "
                                + "check that the replica was created after the parameter phase, see the runtime column")
                        : c).toList();
        BenchReport r = new BenchReport(base.run(), scenarios, base.calibrations(), base.otherFromHistory());
        String table = TerminalTable.render(r, 100, TerminalTable.Detail.GATED);
        assertThat(table.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
        assertThat(table.replaceAll("\\s+", " ")).contains("check that the replica was created after the parameter "
                + "phase, see the runtime column");
        assertThat(table).doesNotContain("ungated").contains("REGRESSION");
        assertThat(table.lines().filter(l -> l.strip().startsWith("p99 ms"))).isEmpty();
    }

    @Test
    void narrowTerminalsGetCutLinesNotWrappedOnes() {
        String table = TerminalTable.render(ReportFixtures.report(), 60);
        assertThat(table.lines().filter(l -> l.startsWith("  SELECT")))
                .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
    }
}
