package io.stillwater.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.stillwater.bench.feature.compare.MetricVerdict;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.run.SideRun;
import io.stillwater.bench.history.RunInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machine-readable feature-bench report. Shape (format {@value #FORMAT}): {@code run}
 * (metadata: sides with their parameters, runs per scenario, maximum measurements, scale,
 * {@code calibration} (true for a {@code --calibrate} A/A run), history run id, host), {@code summary} (counts by status, {@code green}, {@code line}),
 * {@code scenarios[]} each with {@code name}, {@code version}, {@code groups}, {@code scale},
 * {@code status}, {@code reason}, {@code params} {this: {...}, other: {...}} (effective values read
 * back), {@code notes}, {@code verdicts[]} (metric, unit, this {median, samples}, other {...}, ratio,
 * threshold, outcome, text, spread {relative, absolute, runs} or null when the history has no
 * calibration of that scenario version and metric (in a {@code --calibrate} run: the spread it
 * measured), tighterThanNoise) and {@code runs[]} in the order run, each with side, run, outcome
 * (measured, skipped, failed) and for a measured run its stop reason, elapsed seconds, effective
 * parameters, messages and {@code samples} {metric: {discarded: [...], kept: [...]}}: every sample.
 * A missing number is {@code null}, never NaN, so the output is strict JSON.
 */
public final class FeatureJsonReport {
    public static final String FORMAT = "stillwater-feature-report/1";
    private static final ObjectMapper MAPPER = JsonTree.MAPPER;

    private FeatureJsonReport() {
    }

    public static void write(FeatureReport report, Path file) throws IOException {
        Files.writeString(file, render(report));
    }

    public static String render(FeatureReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.set("run", run(report));
        ObjectNode s = root.putObject("summary");
        s.put("scenarios", report.scenarios().size());
        for (ScenarioStatus st : ScenarioStatus.values()) {
            s.put(lower(st), FeatureText.count(report, st));
        }
        s.put("green", !report.failed());
        s.put("line", FeatureText.summary(report));
        ArrayNode scenarios = root.putArray("scenarios");
        for (FeatureScenarioResult r : report.scenarios()) {
            scenarios.add(scenario(report, r));
        }
        return JsonTree.text(root, "feature JSON report");
    }

    private static ObjectNode run(FeatureReport report) {
        RunInfo info = report.info();
        ObjectNode n = JsonTree.run(info);
        n.put("runsPerScenario", info.runsPerSide());
        n.put("maxMeasurements", report.maxMeasurements());
        n.put("scale", report.scaleOption());
        n.put("calibration", report.calibrating());
        if (report.runId() < 0) {
            n.putNull("historyRunId");
        } else {
            n.put("historyRunId", report.runId());
        }
        n.set("host", MAPPER.valueToTree(info.host()));
        return n;
    }

    private static ObjectNode scenario(FeatureReport report, FeatureScenarioResult r) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", r.scenario());
        n.put("version", r.version());
        n.set("groups", MAPPER.valueToTree(r.groups()));
        JsonTree.number(n, "scale", r.scale());
        n.put("status", r.status().name());
        n.put("reason", r.reason());
        ObjectNode params = n.putObject("params");
        params.set("this", MAPPER.valueToTree(r.thisParams()));
        params.set("other", MAPPER.valueToTree(r.otherParams()));
        n.set("notes", MAPPER.valueToTree(FeatureText.notes(r, report.maxMeasurements(), report.calibrating())));
        ArrayNode verdicts = n.putArray("verdicts");
        for (MetricVerdict v : r.verdicts()) {
            ObjectNode m = verdicts.addObject();
            m.put("metric", v.metric().label());
            m.put("unit", v.metric().unit());
            ObjectNode t = m.putObject("this");
            JsonTree.number(t, "median", v.thisMedian());
            t.put("samples", v.thisSamples());
            ObjectNode o = m.putObject("other");
            JsonTree.number(o, "median", v.otherMedian());
            o.put("samples", v.otherSamples());
            JsonTree.number(m, "ratio", v.ratio());
            JsonTree.number(m, "threshold", v.threshold());
            m.put("outcome", v.outcome().name());
            m.put("text", v.text());
            var cal = report.calibration(r, v);
            if (cal.isPresent()) {
                ObjectNode sp = m.putObject("spread");
                JsonTree.number(sp, "relative", cal.get().relativeSpread());
                JsonTree.number(sp, "absolute", cal.get().absoluteSpread());
                sp.put("runs", cal.get().runs());
            } else {
                m.putNull("spread");
            }
            m.put("tighterThanNoise", report.tighterThanNoise(r, v));
        }
        ArrayNode runs = n.putArray("runs");
        for (SideOutcome o : r.runs()) {
            ObjectNode k = runs.addObject();
            k.put("side", o.side());
            k.put("run", o.runNumber());
            switch (o) {
                case SideOutcome.Measured m -> measured(k, m.run());
                case SideOutcome.Skipped s -> {
                    k.put("outcome", "skipped");
                    k.put("reason", s.reason());
                }
                case SideOutcome.Failed f -> {
                    k.put("outcome", "failed");
                    k.put("error", f.error());
                    k.set("messages", MAPPER.valueToTree(f.messages()));
                }
            }
        }
        return n;
    }

    private static void measured(ObjectNode k, SideRun run) {
        k.put("outcome", "measured");
        k.put("stop", run.stop() == null ? null : lower(run.stop()));
        JsonTree.number(k, "elapsedSeconds", run.elapsed().toNanos() / 1e9);
        k.set("effectiveParams", MAPPER.valueToTree(run.effectiveParams()));
        k.set("messages", MAPPER.valueToTree(run.messages()));
        ObjectNode samples = k.putObject("samples");
        for (Map.Entry<?, MetricSamples> e : run.samples().entrySet()) {
            MetricSamples s = e.getValue();
            ObjectNode m = samples.putObject(s.metric().label());
            m.put("unit", s.metric().unit());
            values(m.putArray("discarded"), s.discarded());
            values(m.putArray("kept"), s.kept());
        }
    }

    private static void values(ArrayNode a, List<Double> values) {
        for (double v : values) {
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                a.addNull();
            } else {
                a.add(v);
            }
        }
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
