package io.stillwater.bench.report;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.report.JunitXml.Case;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * JUnit XML of a feature run, in the surefire shape CI systems read: {@code <testsuites>} with one
 * {@code <testsuite name="feature.SCENARIO">} per scenario, one {@code <testcase>} per metric verdict
 * (name = the metric; {@code <failure type="regression">} on REGRESSION, {@code <skipped>} when NOT_COMPARED)
 * and one named {@value #SCENARIO_CASE} for the scenario itself ({@code <error>} when it FAILED,
 * {@code <skipped>} when SKIPPED). Its time is the side runs' elapsed time.
 */
public final class FeatureJunitReport {
    public static final String SCENARIO_CASE = "scenario";

    private FeatureJunitReport() {
    }

    public static void write(FeatureReport report, Path file) throws IOException {
        Files.writeString(file, render(report));
    }

    public static String render(FeatureReport report) {
        List<JunitXml.Suite> suites = new ArrayList<>();
        for (FeatureScenarioResult r : report.scenarios()) {
            suites.add(new JunitXml.Suite("feature." + r.scenario(), report.info().started(),
                    cases(r, report.maxMeasurements(), report.calibrating())));
        }
        return JunitXml.render("stillwater-feature-bench", suites, "feature JUnit report");
    }

    /** In a calibration run an A/A "regression" is the noise measured, not a failure: that case passes. */
    private static List<Case> cases(FeatureScenarioResult r, int maxMeasurements, boolean calibrating) {
        String classname = "feature." + r.scenario();
        List<Case> out = new ArrayList<>();
        String params = String.join("\n", FeatureText.params(r));
        for (MetricVerdict v : r.verdicts()) {
            String detail = "this " + FeatureText.median(v.thisMedian(), v.thisSamples()) + " " + v.metric().unit()
                    + ", other " + FeatureText.median(v.otherMedian(), v.otherSamples()) + " " + v.metric().unit()
                    + ", threshold " + FeatureText.threshold(v.threshold()) + ": this is " + v.text()
                    + (params.isEmpty() ? "" : "\n" + params);
            out.add(calibrating && v.outcome() == FeatureOutcome.REGRESSION
                    ? new Case(v.metric().label(), classname, 0, null, null, null, null) : switch (v.outcome()) {
                case REGRESSION -> new Case(v.metric().label(), classname, 0, "failure", "regression",
                        v.metric().label() + " regressed: this is " + v.text(), detail);
                case NOT_COMPARED -> new Case(v.metric().label(), classname, 0, "skipped", null,
                        "not compared: " + v.text(), null);
                case WITHIN, IMPROVEMENT -> new Case(v.metric().label(), classname, 0, null, null, null, null);
            });
        }
        double time = r.runs().stream().mapToDouble(o -> o instanceof SideOutcome.Measured m
                ? m.run().elapsed().toNanos() / 1e9 : 0).sum();
        String notes = String.join("\n", FeatureText.notes(r, maxMeasurements, calibrating));
        out.add(switch (r.status()) {
            case FAILED -> new Case(SCENARIO_CASE, classname, time, "error", "failed", r.reason(), notes);
            case SKIPPED -> new Case(SCENARIO_CASE, classname, time, "skipped", null, r.reason(), null);
            case PASSED, REGRESSED -> new Case(SCENARIO_CASE, classname, time, null, null, null, null);
        });
        return out;
    }
}
