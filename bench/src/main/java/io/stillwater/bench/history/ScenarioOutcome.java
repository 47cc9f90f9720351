package io.stillwater.bench.history;

import io.stillwater.bench.gate.Outcome;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** A scenario's verdict with the reason a person reads (empty for PASSED). */
public record ScenarioOutcome(ScenarioVerdict verdict, String reason) {

    /**
     * Whether this outcome lets a run of {@code mode} pass (exit status 0, a green report): PASSED,
     * SKIPPED for a missing capability, and in an A/A calibration also REGRESSED (there a
     * "regression" is the noise being measured). The one rule the command and every report use.
     */
    public boolean passes(RunMode mode) {
        return verdict == ScenarioVerdict.PASSED || verdict == ScenarioVerdict.SKIPPED
                || mode == RunMode.CALIBRATE && verdict == ScenarioVerdict.REGRESSED;
    }

    /**
     * Classifies a comparison. A run whose self-verification failed ({@link
     * ScenarioResult.Status#INVALID}) makes the scenario INVALID unless a run failed outright.
     * A side with no runs at all (compare-to-history has no other runs) is not a problem in itself.
     */
    public static ScenarioOutcome of(ScenarioComparison c) {
        List<ScenarioResult> all = Stream.concat(c.thisRuns().stream(), c.otherRuns().stream()).toList();
        List<String> failures = all.stream().filter(r -> r.status() == ScenarioResult.Status.FAILED)
                .map(ScenarioResult::failure).distinct().toList();
        if (!failures.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.FAILED, String.join("; ", failures));
        }
        List<String> invalid = all.stream().filter(r -> r.status() == ScenarioResult.Status.INVALID)
                .map(ScenarioResult::failure).distinct().toList();
        if (!invalid.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.INVALID, String.join("; ", invalid));
        }
        List<String> skips = all.stream().filter(r -> r.status() == ScenarioResult.Status.SKIPPED)
                .map(ScenarioResult::failure).distinct().toList();
        if (!skips.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.SKIPPED, String.join("; ", skips));
        }
        if (!c.problems().isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.FAILED, String.join("; ", c.problems()));
        }
        if (c.thisRuns().isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.FAILED, "no run of this side");
        }
        List<StatVerdict> regressions = c.verdicts().stream().filter(v -> v.outcome() == Outcome.REGRESSION).toList();
        if (!regressions.isEmpty()) {
            Map<String, List<String>> byAction = new LinkedHashMap<>();
            for (StatVerdict v : regressions) {
                byAction.computeIfAbsent(v.action(), a -> new ArrayList<>()).add(v.stat().key());
            }
            List<String> parts = new ArrayList<>();
            byAction.forEach((action, stats) -> parts.add(action + ": " + String.join(", ", stats)));
            return new ScenarioOutcome(ScenarioVerdict.REGRESSED, "regressed " + String.join("; ", parts));
        }
        List<String> violations = c.thisRuns().stream().flatMap(r -> r.violations().stream())
                .map(Object::toString).distinct().toList();
        if (!violations.isEmpty()) {
            return new ScenarioOutcome(ScenarioVerdict.VIOLATED, String.join("; ", violations));
        }
        return new ScenarioOutcome(ScenarioVerdict.PASSED, "");
    }
}
