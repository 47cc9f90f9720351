package io.stillwater.bench.feature.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.report.FeatureFixtures;
import io.stillwater.bench.report.ProgressBar;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressPrinterTest {
    private final FeatureScenarioResult peek = FeatureFixtures.report().scenarios().get(0);

    private static ProgressPrinter printer(StringWriter sink, ProgressBar.Display display) {
        return new ProgressPrinter(new PrintWriter(sink, true), display, ProgressPrinter.labels(
                List.of("CreateIndex", "PeekDataflowJoin"), List.of(List.of(), List.of("InteractiveRuntime"))));
    }

    /** The fixture run has 2 warm-up and 6 kept wallclock samples, median 12.3125 ms. */
    private void drive(ProgressPrinter p) {
        SideOutcome first = peek.runs().get(0);
        p.sideStarted("PeekDataflowJoin", "this", 1, 12);
        p.measuring("PeekDataflowJoin", "this", 1);
        for (int i = 1; i <= 8; i++) {
            p.measured("PeekDataflowJoin", "this", 1, i, 12, 12.5);
        }
        p.sideFinished("PeekDataflowJoin", first, StopReason.CONFIDENT);
        p.sideFinished("PeekDataflowJoin", new SideOutcome.Skipped("other", 1, "the target lacks INDEXES"), null);
        p.scenarioFinished(peek);
        p.finish();
    }

    @Test
    void inLogsEachSideRunAndScenarioIsOneLine() {
        StringWriter sink = new StringWriter();
        drive(printer(sink, ProgressBar.Display.LINES));
        assertThat(sink.toString().lines().toList()).containsExactly(
                "[2/2] PeekDataflowJoin (InteractiveRuntime) this run 1: 8 measurements in 1.5 s, median 12.3 ms "
                        + "(confident)",
                "[2/2] PeekDataflowJoin (InteractiveRuntime) other run 1: skipped: the target lacks INDEXES",
                "[2/2] PeekDataflowJoin (InteractiveRuntime): REGRESSED (wallclock 25% slower, memory_heap within 20%)");
    }

    @Test
    void onATerminalTheMeasurementLineIsRedrawnWithABar() {
        StringWriter sink = new StringWriter();
        drive(printer(sink, ProgressBar.Display.REDRAW));
        String s = sink.toString();
        assertThat(s).contains("\r[2/2] PeekDataflowJoin (InteractiveRuntime) this run 1: measurement 8/12 [")
                .contains("] last 12.5 ms");
        // finished side runs and the scenario end with a newline, so they stay on screen
        assertThat(s).contains("this run 1: 8 measurements in 1.5 s, median 12.3 ms (confident)\u001b[K\n");
        assertThat(s).endsWith("REGRESSED (wallclock 25% slower, memory_heap within 20%)\n");
    }

    @Test
    void offPrintsNothing() {
        StringWriter sink = new StringWriter();
        drive(printer(sink, ProgressBar.Display.OFF));
        assertThat(sink.toString()).isEmpty();
    }
}
