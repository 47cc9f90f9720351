package io.stillwater.bench.runner;

import io.stillwater.bench.gate.GuaranteeViolation;
import io.stillwater.bench.load.LoadPhaseReport;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Sample;
import java.util.List;
import java.util.Map;

/**
 * One scenario run against one target.
 *
 * @param version the scenario's version, "" when construction failed
 * @param failure "" unless {@code status} is FAILED (then: which phase, and the error), SKIPPED
 *     (then: why) or INVALID (then: which self-verification expectation failed or could not be checked)
 * @param actions statistics by action name, for every action that ran (also when a later phase
 *     failed: samples are never dropped)
 * @param timeSeries every sample by action name, for plots
 * @param messages things that happened but did not fail the scenario (e.g. a skipped parameter)
 * @param warnings consistency warnings from the scenario definition
 * @param violations guarantees this run missed
 */
public record ScenarioResult(
        String scenario,
        String version,
        Status status,
        String failure,
        Map<String, ActionStatistics> actions,
        Map<String, List<Sample>> timeSeries,
        List<LoadPhaseReport> loadPhases,
        List<String> messages,
        List<String> warnings,
        List<GuaranteeViolation> violations) {

    public enum Status {
        /** Every phase ran; see {@code violations} for guarantees. */
        COMPLETED,
        /** Construction, validation or a phase threw; cleanup phases still ran. */
        FAILED,
        /** The target lacks a capability the scenario requires. */
        SKIPPED,
        /**
         * Every phase ran, but the scenario's self-verification (where its measured queries ran,
         * from the target's peek history) failed or could not be checked: the numbers may measure
         * the wrong thing, so they never enter a verdict. The statistics are kept for inspection.
         */
        INVALID
    }

    public ScenarioResult {
        actions = Map.copyOf(actions);
        timeSeries = Map.copyOf(timeSeries);
        loadPhases = List.copyOf(loadPhases);
        messages = List.copyOf(messages);
        warnings = List.copyOf(warnings);
        violations = List.copyOf(violations);
    }

    /** Completed and within every guarantee. */
    public boolean passed() {
        return status == Status.COMPLETED && violations.isEmpty();
    }
}
