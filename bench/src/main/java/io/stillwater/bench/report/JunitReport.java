package io.stillwater.bench.report;

import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.report.JunitXml.Case;
import io.stillwater.bench.runner.ScenarioComparison;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * JUnit XML in the surefire shape CI systems read: {@code <testsuites>} with one
 * {@code <testsuite name="bench.SCENARIO">} per scenario. Inside, one {@code <testcase>} per
 * gated stat (name {@code ACTION :: STAT}; a {@code <failure type="regression">} when it
 * regressed, {@code <skipped>} when a side had no data) and one testcase named
 * {@value #SCENARIO_CASE} for the scenario itself: {@code <error>} when it FAILED or is INVALID,
 * {@code <skipped>} when SKIPPED, {@code <failure type="guarantee">} when this side missed a
 * guarantee. Ungated stats are not test cases: they cannot fail.
 */
public final class JunitReport {
    /** The name of the per-scenario test case. */
    public static final String SCENARIO_CASE = "scenario";

    private JunitReport() {
    }

    public static void write(BenchReport report, Path file) throws IOException {
        Files.writeString(file, render(report));
    }

    public static String render(BenchReport report) {
        List<JunitXml.Suite> suites = new ArrayList<>();
        for (ScenarioComparison c : report.scenarios()) {
            suites.add(new JunitXml.Suite("bench." + c.scenario(), report.run().started(), cases(report, c)));
        }
        return JunitXml.render("stillwater-bench", suites, "JUnit report");
    }

    private static List<Case> cases(BenchReport report, ScenarioComparison c) {
        String classname = "bench." + c.scenario();
        List<Case> out = new ArrayList<>();
        for (StatVerdict v : c.verdicts()) {
            String name = v.action() + " :: " + v.stat().key();
            String detail = "this " + Format.value(v.stat(), v.thisValue()) + " " + Format.unit(v.stat())
                    + ", other " + Format.value(v.stat(), v.otherValue()) + " " + Format.unit(v.stat())
                    + ", change " + Format.change(v) + ", threshold " + Format.threshold(v.threshold())
                    + (report.tighterThanNoise(c, v) ? " (tighter than twice the calibrated spread "
                            + Format.spread(report.calibration(c, v), v.threshold()) + ")" : "");
            Case k = switch (v.outcome()) {
                case UNGATED -> null;
                case OK -> new Case(name, classname, 0, null, null, null, null);
                case REGRESSION -> new Case(name, classname, 0, "failure", "regression",
                        v.stat().key() + " regressed: " + detail, detail);
                case NO_DATA -> new Case(name, classname, 0, "skipped", null,
                        "no data on one side (no successful query, or the action did not run): " + detail, null);
            };
            if (k != null) {
                out.add(report.tighterThanNoise(c, v) ? k.withOut("warning: threshold " + Format.threshold(v.threshold())
                        + " is tighter than twice the calibrated run-to-run spread "
                        + Format.spread(report.calibration(c, v), v.threshold()) + ": it can fire on noise") : k);
            }
        }
        ScenarioOutcome o = report.outcome(c);
        double wall = Stream.concat(c.thisRuns().stream(), c.otherRuns().stream())
                .flatMap(r -> r.loadPhases().stream()).mapToDouble(p -> p.wallSeconds()).sum();
        String detail = String.join("\n", Stream.concat(Stream.of(o.reason()),
                Stream.concat(c.problems().stream(), TerminalTable.notes(c).stream())).filter(s -> !s.isEmpty())
                .distinct().toList());
        out.add(switch (o.verdict()) {
            case FAILED -> new Case(SCENARIO_CASE, classname, wall, "error", "failed", o.reason(), detail);
            case INVALID -> new Case(SCENARIO_CASE, classname, wall, "error", "invalid",
                    "INVALID: " + o.reason(), detail);
            case SKIPPED -> new Case(SCENARIO_CASE, classname, wall, "skipped", null, o.reason(), null);
            case VIOLATED -> new Case(SCENARIO_CASE, classname, wall, "failure", "guarantee", o.reason(), detail);
            case REGRESSED, PASSED -> new Case(SCENARIO_CASE, classname, wall, null, null, null, null);
        });
        return out;
    }

    /** Removes characters XML 1.0 cannot carry at all (control characters other than tab, CR, LF). */
    public static String clean(String s) {
        return JunitXml.clean(s);
    }
}
