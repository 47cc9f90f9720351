package io.stillwater.bench.report;

import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.Calibrations;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.history.StoredScenario;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one bench run produced, the single input of every report format (terminal table,
 * JSON, JUnit XML, HTML). Reports only read these values; they never recompute a verdict.
 *
 * @param scenarios the comparisons in the order they ran
 * @param calibrations the run-to-run spreads to show beside each threshold ({@link Calibrations#NONE}
 *     when none were measured)
 * @param otherFromHistory for {@code --compare-to-history}: the stored other side by scenario name,
 *     used for the percentile charts when a comparison has no other runs
 */
public record BenchReport(RunInfo run, List<ScenarioComparison> scenarios,
        Calibrations calibrations, Map<String, StoredScenario> otherFromHistory) {

    public BenchReport {
        scenarios = List.copyOf(scenarios);
        otherFromHistory = Map.copyOf(otherFromHistory);
    }

    /** A report of a plain comparison: nothing invalid, no calibrations, nothing from history. */
    public static BenchReport of(RunInfo run, List<ScenarioComparison> scenarios) {
        return new BenchReport(run, scenarios, Calibrations.NONE, Map.of());
    }

    public BenchReport withCalibrations(Calibrations c) {
        return new BenchReport(run, scenarios, c, otherFromHistory);
    }

    public BenchReport withOtherFromHistory(Map<String, StoredScenario> stored) {
        return new BenchReport(run, scenarios, calibrations, stored);
    }

    /** The scenario's verdict; INVALID comes from its runs' self-verification ({@link ScenarioOutcome#of}). */
    public ScenarioOutcome outcome(ScenarioComparison c) {
        return ComparisonHistory.outcome(c);
    }

    /**
     * The calibrated spread of a verdict's stat, if one was measured on the same scenario version
     * (a calibration of another version measured another workload, so it is not shown).
     */
    public Optional<Calibration> calibration(ScenarioComparison c, StatVerdict v) {
        String version = c.thisRuns().stream().map(r -> r.version()).filter(x -> !x.isEmpty()).findFirst().orElse("");
        return calibrations.find(c.scenario(), v.action(), v.stat())
                .filter(cal -> version.isEmpty() || cal.scenarioVersion().isEmpty()
                        || cal.scenarioVersion().equals(version));
    }

    /** True when the verdict's threshold is tighter than twice its calibrated spread. */
    public boolean tighterThanNoise(ScenarioComparison c, StatVerdict v) {
        return calibration(c, v).map(cal -> cal.tighterThanNoise(v.threshold())).orElse(false);
    }

    public Summary summary() {
        Map<ScenarioVerdict, Integer> counts = new EnumMap<>(ScenarioVerdict.class);
        for (ScenarioVerdict v : ScenarioVerdict.values()) {
            counts.put(v, 0);
        }
        boolean green = !scenarios.isEmpty();
        for (ScenarioComparison c : scenarios) {
            ScenarioOutcome o = outcome(c);
            counts.merge(o.verdict(), 1, Integer::sum);
            green &= o.passes(run.mode());
        }
        return new Summary(scenarios.size(), counts, green);
    }

    /**
     * Scenario counts by verdict.
     *
     * @param green every scenario's outcome passes ({@link ScenarioOutcome#passes}); an empty run is
     *     not green: it proved nothing
     */
    public record Summary(int scenarios, Map<ScenarioVerdict, Integer> counts, boolean green) {
        public Summary {
            counts = Map.copyOf(counts);
        }

        public int count(ScenarioVerdict v) {
            return counts.getOrDefault(v, 0);
        }

        /** "12 scenarios: 9 passed, 1 regressed, ... : FAIL". */
        public String line() {
            StringBuilder b = new StringBuilder().append(scenarios).append(scenarios == 1 ? " scenario: " : " scenarios: ");
            b.append(count(ScenarioVerdict.PASSED)).append(" passed");
            for (ScenarioVerdict v : List.of(ScenarioVerdict.REGRESSED, ScenarioVerdict.VIOLATED,
                    ScenarioVerdict.FAILED, ScenarioVerdict.INVALID, ScenarioVerdict.SKIPPED)) {
                b.append(", ").append(count(v)).append(' ').append(v.name().toLowerCase(Locale.ROOT));
            }
            return b.append(green() ? " - PASS" : " - FAIL").toString();
        }
    }
}
