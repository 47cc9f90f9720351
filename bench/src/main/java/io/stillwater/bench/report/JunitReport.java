package io.stillwater.bench.report;

import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.runner.ScenarioComparison;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

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

    /** {@code kind} is failure, error, skipped or null (passed); {@code out} goes to system-out when non-null. */
    private record Case(String name, String classname, double time, String kind, String type, String message,
            String detail, String out) {
        Case(String name, String classname, double time, String kind, String type, String message, String detail) {
            this(name, classname, time, kind, type, message, detail, null);
        }

        Case withOut(String text) {
            return new Case(name, classname, time, kind, type, message, detail, text);
        }
    }

    public static String render(BenchReport report) {
        try {
            StringWriter sw = new StringWriter();
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            List<List<Case>> suites = new ArrayList<>();
            for (ScenarioComparison c : report.scenarios()) {
                suites.add(cases(report, c));
            }
            List<Case> all = suites.stream().flatMap(List::stream).toList();
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "stillwater-bench");
            counts(x, all);
            x.writeCharacters("\n");
            for (int i = 0; i < suites.size(); i++) {
                ScenarioComparison c = report.scenarios().get(i);
                List<Case> cases = suites.get(i);
                x.writeCharacters("  ");
                x.writeStartElement("testsuite");
                x.writeAttribute("name", "bench." + clean(c.scenario()));
                counts(x, cases);
                x.writeAttribute("timestamp", report.run().started().toString());
                x.writeCharacters("\n");
                for (Case k : cases) {
                    x.writeCharacters("    ");
                    x.writeStartElement("testcase");
                    x.writeAttribute("name", clean(k.name()));
                    x.writeAttribute("classname", clean(k.classname()));
                    x.writeAttribute("time", seconds(k.time()));
                    if (k.kind() != null) {
                        x.writeStartElement(k.kind());
                        x.writeAttribute("message", clean(k.message()));
                        if (k.type() != null) {
                            x.writeAttribute("type", k.type());
                        }
                        if (k.detail() != null) {
                            x.writeCharacters(clean(k.detail()));
                        }
                        x.writeEndElement();
                    }
                    if (k.out() != null) {
                        x.writeStartElement("system-out");
                        x.writeCharacters(clean(k.out()));
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
            throw new IllegalStateException("cannot render the JUnit report", e);
        }
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

    /** Removes characters XML 1.0 cannot carry at all (control characters other than tab, CR, LF). */
    public static String clean(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            boolean ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF)
                    || (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
            b.appendCodePoint(ok ? cp : 0xFFFD);
        });
        return b.toString();
    }
}
