package io.stillwater.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.history.Calibration;
import io.stillwater.bench.history.RunInfo;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.load.LoadPhaseReport;
import io.stillwater.bench.load.LoopReport;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Stat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The machine-readable report. Shape (format {@value #FORMAT}): {@code run} (metadata),
 * {@code summary} (counts by verdict, {@code green}), {@code scenarios[]} each with {@code name},
 * {@code version}, {@code verdict}, {@code reason}, {@code problems}, {@code notes},
 * {@code verdicts[]} (action, stat, this, other, change, threshold {kind, value, text}, outcome,
 * spread, tighterThanNoise) and {@code runs} {this: [...], other: [...]} with every run's status
 * and per-action statistics (error counts included). A missing number (no successful query) is
 * {@code null}, never NaN, so the output is strict JSON. Time series and histograms are not
 * included (the history file and the HTML report have them).
 */
public final class JsonReport {
    public static final String FORMAT = "stillwater-bench-report/1";
    private static final ObjectMapper MAPPER = JsonTree.MAPPER;

    private JsonReport() {
    }

    public static void write(BenchReport report, Path file) throws IOException {
        Files.writeString(file, render(report));
    }

    public static String render(BenchReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.set("run", run(report.run()));
        BenchReport.Summary summary = report.summary();
        ObjectNode s = root.putObject("summary");
        s.put("scenarios", summary.scenarios());
        for (ScenarioVerdict v : ScenarioVerdict.values()) {
            s.put(v.name().toLowerCase(Locale.ROOT), summary.count(v));
        }
        s.put("green", summary.green());
        s.put("line", summary.line());
        ArrayNode scenarios = root.putArray("scenarios");
        for (ScenarioComparison c : report.scenarios()) {
            scenarios.add(scenario(report, c));
        }
        return JsonTree.text(root, "JSON report");
    }

    private static ObjectNode run(RunInfo info) {
        ObjectNode n = JsonTree.run(info);
        n.put("runsPerSide", info.runsPerSide());
        if (info.loadPhaseOverride() == null) {
            n.putNull("loadPhaseSeconds");
        } else {
            n.put("loadPhaseSeconds", info.loadPhaseOverride().toNanos() / 1e9);
        }
        ObjectNode host = n.putObject("host");
        info.host().forEach(host::put);
        return n;
    }

    private static ObjectNode scenario(BenchReport report, ScenarioComparison c) {
        ObjectNode n = MAPPER.createObjectNode();
        ScenarioOutcome o = report.outcome(c);
        n.put("name", c.scenario());
        n.put("version", c.thisRuns().stream().map(ScenarioResult::version).filter(v -> !v.isEmpty()).findFirst()
                .orElse(""));
        n.put("verdict", o.verdict().name());
        n.put("reason", o.reason());
        strings(n.putArray("problems"), c.problems());
        strings(n.putArray("notes"), TerminalTable.notes(c));
        ArrayNode verdicts = n.putArray("verdicts");
        for (StatVerdict v : c.verdicts()) {
            ObjectNode row = verdicts.addObject();
            row.put("action", v.action());
            row.put("stat", v.stat().key());
            JsonTree.number(row, "this", v.thisValue());
            JsonTree.number(row, "other", v.otherValue());
            JsonTree.number(row, "change", v.change());
            row.set("threshold", threshold(v.threshold()));
            row.put("outcome", v.outcome().name());
            Optional<Calibration> cal = report.calibration(c, v);
            if (cal.isPresent()) {
                ObjectNode sp = row.putObject("spread");
                JsonTree.number(sp, "relative", cal.get().relativeSpread());
                JsonTree.number(sp, "absolute", cal.get().absoluteSpread());
                sp.put("runs", cal.get().runs());
            } else {
                row.putNull("spread");
            }
            row.put("tighterThanNoise", report.tighterThanNoise(c, v));
        }
        ObjectNode runs = n.putObject("runs");
        runs(runs.putArray("this"), c.thisRuns());
        runs(runs.putArray("other"), c.otherRuns());
        return n;
    }

    private static ObjectNode threshold(Threshold t) {
        ObjectNode n = MAPPER.createObjectNode();
        switch (t) {
            case Threshold.Ratio r -> {
                n.put("kind", "ratio");
                n.put("value", r.factor());
            }
            case Threshold.AbsoluteIncrease a -> {
                n.put("kind", "absolute");
                n.put("value", a.delta());
            }
            case Threshold.Ungated u -> {
                n.put("kind", "ungated");
                n.putNull("value");
            }
        }
        n.put("text", Format.threshold(t));
        return n;
    }

    private static void runs(ArrayNode out, List<ScenarioResult> runs) {
        for (ScenarioResult r : runs) {
            ObjectNode n = out.addObject();
            n.put("status", r.status().name());
            n.put("failure", r.failure());
            strings(n.putArray("messages"), r.messages());
            strings(n.putArray("violations"), r.violations().stream().map(Object::toString).toList());
            ArrayNode phases = n.putArray("loadPhases");
            for (LoadPhaseReport p : r.loadPhases()) {
                ObjectNode pn = phases.addObject();
                JsonTree.number(pn, "wallSeconds", p.wallSeconds());
                ArrayNode loops = pn.putArray("loops");
                for (LoopReport l : p.loops()) {
                    ObjectNode ln = loops.addObject();
                    ln.put("action", l.action());
                    ln.put("kind", l.kind().name());
                    ln.put("issued", l.issued());
                    JsonTree.number(ln, "maxLatenessMillis", l.maxLatenessMillis());
                    JsonTree.number(ln, "p99LatenessMillis", l.p99LatenessMillis());
                }
            }
            ObjectNode actions = n.putObject("actions");
            for (ActionStatistics a : r.actions().values()) {
                ObjectNode an = actions.putObject(a.action());
                for (Stat stat : Stat.values()) {
                    JsonTree.number(an, stat.key(), a.value(stat));
                }
                JsonTree.number(an, "wall_seconds", a.wallSeconds());
                ObjectNode errors = an.putObject("errorCounts");
                for (Map.Entry<String, Long> e : a.errorCounts().entrySet()) {
                    errors.put(e.getKey(), e.getValue());
                }
            }
        }
    }

    private static void strings(ArrayNode out, List<String> values) {
        values.forEach(out::add);
    }

}
