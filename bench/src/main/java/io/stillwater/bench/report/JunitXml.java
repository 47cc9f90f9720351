package io.stillwater.bench.report;

import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The JUnit XML writer both benchmarks share: {@code <testsuites>} of {@code <testsuite>}s of
 * {@code <testcase>}s in the surefire shape CI systems read, with the tests/failures/errors/skipped/time
 * counts on the root and on each suite. The reports decide what the suites and cases are; this class
 * only renders them. Every text and name goes through {@link #clean}.
 */
public final class JunitXml {
    private JunitXml() {
    }

    /** One {@code <testsuite>}: its cases and when the run started. */
    public record Suite(String name, Instant timestamp, List<Case> cases) {
        public Suite {
            cases = List.copyOf(cases);
        }
    }

    /**
     * One {@code <testcase>}. {@code kind} is failure, error, skipped or null (passed); {@code type} and
     * {@code detail} are optional; {@code out} goes to system-out when non-null.
     */
    public record Case(String name, String classname, double time, String kind, String type, String message,
            String detail, String out) {
        public Case(String name, String classname, double time, String kind, String type, String message,
                String detail) {
            this(name, classname, time, kind, type, message, detail, null);
        }

        public Case withOut(String text) {
            return new Case(name, classname, time, kind, type, message, detail, text);
        }
    }

    /** Renders the document; {@code what} names the report in the error if the XML writer fails. */
    public static String render(String rootName, List<Suite> suites, String what) {
        try {
            StringWriter sw = new StringWriter();
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", rootName);
            counts(x, suites.stream().flatMap(s -> s.cases().stream()).toList());
            x.writeCharacters("\n");
            for (Suite s : suites) {
                x.writeCharacters("  ");
                x.writeStartElement("testsuite");
                x.writeAttribute("name", clean(s.name()));
                counts(x, s.cases());
                x.writeAttribute("timestamp", s.timestamp().toString());
                x.writeCharacters("\n");
                for (Case k : s.cases()) {
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
            throw new IllegalStateException("cannot render the " + what, e);
        }
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
