package io.stillwater.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.history.ScenarioVerdict;
import io.stillwater.bench.runner.ScenarioResult.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The one exit code a benchmark run must end with, read from the report it wrote. A short run on
 * a shared 2-core machine cannot tell a small regression from noise, so a test cannot know in
 * advance whether a gated comparison comes out PASSED or REGRESSED, nor whether an absolute
 * throughput guarantee ({@code qps >= N} of an open loop) held while other builds ran; it can know
 * that nothing else happened (every run completed, no error-rate guarantee missed, nothing failed
 * or was skipped) and that the exit code is exactly the one the verdicts give: 1 when any scenario
 * regressed or missed a throughput guarantee, else 0. Anything else (a failure, a skip, a wrong
 * answer, a usage error's 2, a 0 beside a regression) fails the test.
 */
final class ExpectedExit {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The one guarantee a loaded machine can miss: an open loop's throughput. */
    private static final Pattern THROUGHPUT_MISSED =
            Pattern.compile(".+: guaranteed qps >= [0-9.]+, got [0-9.E-]+");

    private ExpectedExit() {
    }

    /**
     * {@code stillwater bench}: every scenario's verdict is PASSED, REGRESSED or VIOLATED, every
     * run of either side COMPLETED, and a violation is only a missed throughput guarantee; also
     * asserts the terminal shows each verdict.
     *
     * @return 1 when any scenario regressed or missed a throughput guarantee, else 0
     */
    static int ofBench(Path reportJson, String terminal) throws IOException {
        JsonNode report = JSON.readTree(reportJson.toFile());
        boolean regressed = false;
        assertThat(report.path("scenarios")).as("scenarios in " + reportJson).isNotEmpty();
        for (JsonNode s : report.path("scenarios")) {
            String name = s.path("name").asText();
            String verdict = s.path("verdict").asText();
            assertThat(verdict).as(name + ": " + s.path("reason").asText()).isIn(ScenarioVerdict.PASSED.name(),
                    ScenarioVerdict.REGRESSED.name(), ScenarioVerdict.VIOLATED.name());
            regressed |= !verdict.equals(ScenarioVerdict.PASSED.name());
            for (String side : new String[] {"this", "other"}) {
                for (JsonNode run : s.path("runs").path(side)) {
                    assertThat(run.path("status").asText()).as(name + " " + side + ": " + run.path("failure").asText())
                            .isEqualTo(Status.COMPLETED.name());
                    for (JsonNode violation : run.path("violations")) {
                        assertThat(violation.asText()).as(name + " " + side).matches(THROUGHPUT_MISSED);
                    }
                }
            }
            assertThat(terminal).as(name).containsPattern("== " + name + " [0-9.]+  " + verdict);
        }
        return regressed ? 1 : 0;
    }

    /**
     * {@code stillwater feature-bench}: every scenario's status is PASSED or REGRESSED, the
     * report's summary agrees and the terminal prints its summary line.
     *
     * @return 1 when any scenario regressed, else 0
     */
    static int ofFeatureBench(Path reportJson, String terminal) throws IOException {
        JsonNode report = JSON.readTree(reportJson.toFile());
        boolean regressed = false;
        assertThat(report.path("scenarios")).as("scenarios in " + reportJson).isNotEmpty();
        for (JsonNode s : report.path("scenarios")) {
            String status = s.path("status").asText();
            assertThat(status).as(s.path("name").asText() + ": " + s.path("reason").asText())
                    .isIn("PASSED", "REGRESSED");
            regressed |= status.equals("REGRESSED");
        }
        JsonNode summary = report.path("summary");
        assertThat(summary.path("green").asBoolean()).as(summary.toString()).isEqualTo(!regressed);
        assertThat(terminal).contains(summary.path("line").asText());
        return regressed ? 1 : 0;
    }
}
