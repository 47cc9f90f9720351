package io.stillwater.bench.report;

import static io.stillwater.bench.history.BenchFixtures.LOOKUP;
import static io.stillwater.bench.history.BenchFixtures.WALK;

import io.stillwater.bench.history.BenchFixtures;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.Calibrations;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.stats.Stat;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One bench run with a scenario of every verdict. */
final class ReportFixtures {
    static final String HOSTILE = "Slow<script>alert('x')</script>&Co";
    static final String EXTRA = "SELECT 1 (standalone)";

    private ReportFixtures() {
    }

    static BenchReport report() {
        Map<String, Double> withExtra = new LinkedHashMap<>();
        withExtra.put(LOOKUP, 2.0);
        withExtra.put(WALK, 40.0);
        withExtra.put(EXTRA, 0.5);
        Map<String, Double> without = new LinkedHashMap<>();
        without.put(LOOKUP, 2.0);
        without.put(WALK, 40.0);
        ScenarioComparison onlyThis = BenchFixtures.compare("OnlyThis",
                List.of(BenchFixtures.completed("OnlyThis", 11, 500, 0, withExtra, List.of())),
                List.of(BenchFixtures.completed("OnlyThis", 12, 500, 0, without, List.of())));
        List<ScenarioComparison> scenarios = List.of(
                BenchFixtures.twoActions("PeekIsolation", 1.0),
                BenchFixtures.twoActions(HOSTILE, 1.6),
                BenchFixtures.compare("Broken",
                        List.of(BenchFixtures.failed("Broken", "phase 2 (load): 42P01: relation \"t\" does not exist")),
                        List.of(BenchFixtures.failed("Broken", "phase 2 (load): 42P01: relation \"t\" does not exist"))),
                BenchFixtures.compare("NeedsClusters",
                        List.of(BenchFixtures.skipped("NeedsClusters", "target lacks [CLUSTERS]")),
                        List.of(BenchFixtures.skipped("NeedsClusters", "target lacks [CLUSTERS]"))),
                BenchFixtures.invalid("Misrouted", "expected the lookups on the interactive runtime; 0 of 4000 ran there"),
                onlyThis);
        return BenchReport.of(BenchFixtures.runInfo("feature-x", RunMode.COMPARE), scenarios)
                .withCalibrations(Calibrations.of(List.of(
                        // 2 x 30% > the 50% CONTENDED margin: flagged
                        new Calibration("PeekIsolation", "1.2.0", LOOKUP, Stat.P50, 0.30, 0.6, 6),
                        // 2 x 5% < 50%: not flagged
                        new Calibration("PeekIsolation", "1.2.0", LOOKUP, Stat.AVG, 0.05, 0.1, 6))));
    }

    /** Distinct actions over all scenarios, counted per scenario. */
    static int actionCharts(BenchReport r) {
        int n = 0;
        for (ScenarioComparison c : r.scenarios()) {
            Set<String> actions = new HashSet<>();
            c.verdicts().forEach(v -> actions.add(v.action()));
            c.thisRuns().forEach(x -> actions.addAll(x.actions().keySet()));
            c.otherRuns().forEach(x -> actions.addAll(x.actions().keySet()));
            n += actions.size();
        }
        return n;
    }
}
