package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.cli.BenchResults;
import io.stillwater.bench.cli.BenchRun;
import io.stillwater.bench.cli.BenchSession;
import io.stillwater.bench.cli.Shard;
import io.stillwater.bench.cli.SideConfig;
import io.stillwater.bench.history.HistoryStore;
import io.stillwater.bench.history.RunMode;
import io.stillwater.bench.history.ScenarioOutcome;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.report.BenchReport;
import io.stillwater.bench.report.ReportFiles;
import io.stillwater.bench.runner.ComparisonHistory;
import io.stillwater.bench.runner.ScenarioComparison;
import io.stillwater.bench.runner.ScenarioResult;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.verify.PeekExpectation;
import io.stillwater.targets.TargetSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Self-verification of an expectation that cannot be checked: a constant query ({@code SELECT 1})
 * is answered without any replica, so {@code mz_peek_history} never records it and where it ran
 * cannot be verified. The scenario is INVALID with the reason, in the result, the history and
 * every report; never green.
 */
class SelfVerificationEmbeddedTest {

    /** Declares that its point reads run on the interactive runtime, on the fast path. */
    public static final class InteractiveReads extends Scenario {
        public InteractiveReads() {
            var read = reuseConn("SELECT 1");
            load(Duration.ofSeconds(10), closedLoop(read, 2));
            expect(read, PeekExpectation.on(PeekExpectation.Runtime.INTERACTIVE).fastPath());
        }
    }

    @Test
    void anExpectationThatCannotBeCheckedMakesTheScenarioInvalidEverywhere(@TempDir Path dir) throws Exception {
        SideConfig embedded = new SideConfig(new TargetSpec.Embedded(), SideParams.NONE);
        var options = new BenchSession.Options(RunMode.COMPARE, embedded, embedded, 1, Duration.ofSeconds(1),
                List.of(new ScenarioSource("InteractiveReads", InteractiveReads::new)), Shard.ALL, "");
        BenchRun run = new BenchSession(options, new PrintWriter(new StringWriter()), null).execute();

        ScenarioComparison c = run.comparisons().getFirst();
        for (ScenarioResult r : List.of(c.thisRuns().getFirst(), c.otherRuns().getFirst())) {
            assertThat(r.status()).as(r.failure()).isEqualTo(ScenarioResult.Status.INVALID);
            assertThat(r.failure()).startsWith("cannot verify \"SELECT 1 (reuse connection)\": no peek of it in "
                    + "mz_introspection.mz_peek_history");
            // the load ran and its samples are kept for inspection, but they enter no verdict
            assertThat(r.actions().get("SELECT 1 (reuse connection)").queries()).isPositive();
        }
        assertThat(c.verdicts()).isEmpty();
        ScenarioOutcome outcome = ComparisonHistory.outcome(c);
        assertThat(outcome.verdict()).isEqualTo(ScenarioVerdict.INVALID);
        assertThat(run.passed()).isFalse();

        var info = BenchResults.runInfo(run, "dev");
        try (HistoryStore h = HistoryStore.open(dir.resolve("history.sqlite"))) {
            long id = ComparisonHistory.record(h, info, run.comparisons());
            assertThat(h.outcome(id, "InteractiveReads").orElseThrow().verdict()).isEqualTo(ScenarioVerdict.INVALID);
        }
        BenchReport report = BenchResults.report(run, info, null);
        assertThat(report.summary().green()).isFalse();
        ReportFiles.Written w = ReportFiles.writeAll(report, dir);
        assertThat(Files.readString(w.json())).contains("INVALID").contains("cannot verify");
        assertThat(Files.readString(w.junit())).contains("invalid").contains("mz_peek_history");
        assertThat(Files.readString(w.html())).contains("INVALID").contains("mz_peek_history");
    }
}
