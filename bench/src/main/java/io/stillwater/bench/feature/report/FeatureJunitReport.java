package io.stillwater.bench.feature.report;

import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.report.JunitReport;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

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

    /** {@code kind} is failure, error, skipped or null (passed). */
    private record Case(String name, double time, String kind, String type, String message, String detail) {
    }

    public static String render(FeatureReport report) {
        try {
            StringWriter sw = new StringWriter();
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            List<List<Case>> suites = new ArrayList<>();
            for (FeatureScenarioResult r : report.scenarios()) {
                suites.add(cases(r, report.maxMeasurements()));
            }
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "stillwater-feature-bench");
            counts(x, suites.stream().flatMap(List::stream).toList());
            x.writeCharacters("\n");
            for (int i = 0; i < suites.size(); i++) {
                FeatureScenarioResult r = report.scenarios().get(i);
                String classname = JunitReport.clean("feature." + r.scenario());
                x.writeCharacters("  ");
                x.writeStartElement("testsuite");
                x.writeAttribute("name", classname);
                counts(x, suites.get(i));
                x.writeAttribute("timestamp", report.info().started().toString());
                x.writeCharacters("\n");
                for (Case k : suites.get(i)) {
                    x.writeCharacters("    ");
                    x.writeStartElement("testcase");
                    x.writeAttribute("name", JunitReport.clean(k.name()));
                    x.writeAttribute("classname", classname);
                    x.writeAttribute("time", seconds(k.time()));
                    if (k.kind() != null) {
                        x.writeStartElement(k.kind());
                        x.writeAttribute("message", JunitReport.clean(k.message()));
                        if (k.type() != null) {
                            x.writeAttribute("type", k.type());
                        }
                        if (k.detail() != null) {
                            x.writeCharacters(JunitReport.clean(k.detail()));
                        }
                        x.writeEndElement();
                    }
                    x.writeEndElement();
                    x.writeCharacters("\n");
                }
                x.writeCharacters("  ");
                x.writeEndElement();
                x.writeCharacters("\n");
            }
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
            return sw.toString();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot render the feature JUnit report", e);
        }
    }

    private static List<Case> cases(FeatureScenarioResult r, int maxMeasurements) {
        List<Case> out = new ArrayList<>();
        String params = String.join("\n", FeatureText.params(r));
        for (MetricVerdict v : r.verdicts()) {
            String detail = "this " + FeatureText.median(v.thisMedian(), v.thisSamples()) + " " + v.metric().unit()
                    + ", other " + FeatureText.median(v.otherMedian(), v.otherSamples()) + " " + v.metric().unit()
                    + ", threshold " + FeatureText.threshold(v.threshold()) + ": this is " + v.text()
                    + (params.isEmpty() ? "" : "\n" + params);
            out.add(switch (v.outcome()) {
                case REGRESSION -> new Case(v.metric().label(), 0, "failure", "regression",
                        v.metric().label() + " regressed: this is " + v.text(), detail);
                case NOT_COMPARED -> new Case(v.metric().label(), 0, "skipped", null,
                        "not compared: " + v.text(), null);
                case WITHIN, IMPROVEMENT -> new Case(v.metric().label(), 0, null, null, null, null);
            });
        }
        double time = r.runs().stream().mapToDouble(o -> o instanceof SideOutcome.Measured m
                ? m.run().elapsed().toNanos() / 1e9 : 0).sum();
        String notes = String.join("\n", FeatureText.notes(r, maxMeasurements));
        out.add(switch (r.status()) {
            case FAILED -> new Case(SCENARIO_CASE, time, "error", "failed", r.reason(), notes);
            case SKIPPED -> new Case(SCENARIO_CASE, time, "skipped", null, r.reason(), null);
            case PASSED, REGRESSED -> new Case(SCENARIO_CASE, time, null, null, null, null);
        });
        return out;
    }

    private static void counts(XMLStreamWriter x, List<Case> cases) throws XMLStreamException {
        x.writeAttribute("tests", Integer.toString(cases.size()));
        x.writeAttribute("failures", count(cases, "failure"));
        x.writeAttribute("errors", count(cases, "error"));
        x.writeAttribute("skipped", count(cases, "skipped"));
        x.writeAttribute("time", seconds(cases.stream().mapToDouble(Case::time).sum()));
    }

    private static String count(List<Case> cases, String kind) {
        return Long.toString(cases.stream().filter(k -> kind.equals(k.kind())).count());
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", Double.isNaN(s) ? 0 : s);
    }
}
