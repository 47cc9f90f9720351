package io.stillwater.bench.feature.cli;

import io.stillwater.bench.feature.compare.FeatureOutcome;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.run.FeatureProgress;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.report.Format;
import io.stillwater.bench.report.ProgressBar;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Feature-run progress for people. Each side run is named {@code [i/n] Name (Group/Sub) this run 1};
 * on a terminal ({@link ProgressBar.Display#REDRAW}) one line is redrawn per measurement with a bar
 * of measurements done against the maximum, elsewhere ({@link ProgressBar.Display#LINES}: CI logs,
 * pipes) one line per side run when it ends; every scenario ends with a line carrying its verdict.
 *
 * <p>Called on the thread running the scenarios only (see {@link FeatureProgress}); not thread-safe.
 */
final class ProgressPrinter implements FeatureProgress {
    private final PrintWriter out;
    private final ProgressBar.Display display;
    /** Scenario name to its label ("[2/7] PeekDataflowJoin (InteractiveRuntime)"). */
    private final Map<String, String> labels;
    private boolean lineOpen;

    ProgressPrinter(PrintWriter out, ProgressBar.Display display, Map<String, String> labels) {
        this.out = out;
        this.display = display;
        this.labels = Map.copyOf(labels);
    }

    /** {@code [i/n] Name (A/B)}, one per scenario, in run order. */
    static Map<String, String> labels(List<String> names, List<List<String>> groups) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            List<String> g = groups.get(i);
            m.put(names.get(i), "[" + (i + 1) + "/" + names.size() + "] " + names.get(i)
                    + (g.isEmpty() ? "" : " (" + String.join("/", g) + ")"));
        }
        return m;
    }

    private String label(String scenario) {
        return labels.getOrDefault(scenario, scenario);
    }

    @Override
    public void sideStarted(String scenario, String side, int run, int max) {
        if (display == ProgressBar.Display.REDRAW) {
            redraw(label(scenario) + " " + side + " run " + run + ": starting");
        }
    }

    @Override
    public void measuring(String scenario, String side, int run) {
        if (display == ProgressBar.Display.REDRAW) {
            redraw(label(scenario) + " " + side + " run " + run + ": setup done, measuring");
        }
    }

    @Override
    public void measured(String scenario, String side, int run, int done, int max, double wallclockMs) {
        if (display == ProgressBar.Display.REDRAW) {
            redraw(String.format(Locale.ROOT, "%s %s run %d: measurement %d/%d [%s] last %s ms", label(scenario),
                    side, run, done, max, ProgressBar.bar(done / (double) max), Format.millis(wallclockMs)));
        }
    }

    @Override
    public void sideFinished(String scenario, SideOutcome outcome, StopReason stopOrNull) {
        if (display == ProgressBar.Display.OFF) {
            return;
        }
        String head = label(scenario) + " " + outcome.side() + " run " + outcome.runNumber() + ": ";
        String text = switch (outcome) {
            case SideOutcome.Measured m -> {
                MetricSamples wall = m.run().samples().get(Metric.WALLCLOCK);
                int count = wall == null ? 0 : wall.discarded().size() + wall.kept().size();
                yield count + " measurements in " + String.format(Locale.ROOT, "%.1f s",
                        m.run().elapsed().toMillis() / 1000.0)
                        + (wall == null || wall.kept().isEmpty() ? "" : ", median " + Format.millis(median(wall.kept()))
                                + " ms")
                        + (stopOrNull == null ? "" : stopOrNull == StopReason.CONFIDENT ? " (confident)"
                                : " (stopped at the maximum)");
            }
            case SideOutcome.Skipped s -> "skipped: " + s.reason();
            case SideOutcome.Failed f -> "FAILED: " + f.error();
        };
        line(head + text);
    }

    @Override
    public void scenarioFinished(FeatureScenarioResult result) {
        if (display == ProgressBar.Display.OFF) {
            return;
        }
        StringBuilder b = new StringBuilder(label(result.scenario())).append(": ").append(result.status());
        List<String> words = result.verdicts().stream().filter(v -> v.outcome() != FeatureOutcome.NOT_COMPARED)
                .map(v -> v.metric().label() + " " + v.text()).toList();
        if (!words.isEmpty()) {
            b.append(" (").append(String.join(", ", words)).append(')');
        } else if (!result.reason().isEmpty()) {
            b.append(": ").append(result.reason());
        }
        line(b.toString());
    }

    /** Closes a redrawn line, so what follows starts on a line of its own. */
    void finish() {
        if (lineOpen) {
            out.println();
            lineOpen = false;
        }
        out.flush();
    }

    private void redraw(String text) {
        out.print("\r" + text + "\u001b[K");
        out.flush();
        lineOpen = true;
    }

    private void line(String text) {
        if (lineOpen) {
            out.print("\r" + text + "\u001b[K\n");
            lineOpen = false;
        } else {
            out.println(text);
        }
        out.flush();
    }

    private static double median(List<Double> values) {
        double[] s = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
