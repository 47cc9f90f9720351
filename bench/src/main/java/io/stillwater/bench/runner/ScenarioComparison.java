package io.stillwater.bench.runner;

import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Verdicts;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario run {@code n} times per side, interleaved (this, other, this, other, ...), with the
 * verdict per action and stat from each side's median over its completed runs.
 *
 * @param problems runs that did not complete (FAILED or SKIPPED), by side and run number; a
 *     comparison with problems is never green, whatever the verdicts say
 */
public record ScenarioComparison(String scenario, List<ScenarioResult> thisRuns, List<ScenarioResult> otherRuns,
        List<StatVerdict> verdicts, List<String> problems) {

    public ScenarioComparison {
        thisRuns = List.copyOf(thisRuns);
        otherRuns = List.copyOf(otherRuns);
        verdicts = List.copyOf(verdicts);
        problems = List.copyOf(problems);
    }

    /**
     * "side run N STATUS: failure" for every run of one side that did not complete, numbered from 1:
     * the problem lines of a comparison.
     */
    public static List<String> problems(String side, List<ScenarioResult> runs) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            ScenarioResult r = runs.get(i);
            if (r.status() != ScenarioResult.Status.COMPLETED) {
                out.add(side + " run " + (i + 1) + " " + r.status() + ": " + r.failure());
            }
        }
        return out;
    }

    public boolean regressed() {
        return Verdicts.anyRegression(verdicts);
    }

    /** No regression, every run completed, and this side met its guarantees in every run. */
    public boolean passed() {
        return !regressed() && problems.isEmpty() && thisRuns.stream().allMatch(ScenarioResult::passed);
    }
}
