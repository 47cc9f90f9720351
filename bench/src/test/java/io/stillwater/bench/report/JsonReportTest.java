package io.stillwater.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stillwater.bench.history.BenchFixtures;
import io.stillwater.bench.runner.ScenarioComparison;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonReportTest {
    @Test
    void theReportParsesBackAsStrictJsonWithEveryScenarioAndVerdict() throws Exception {
        BenchReport r = ReportFixtures.report();
        // a default ObjectMapper rejects NaN and Infinity: strict JSON
        JsonNode root = new ObjectMapper().readTree(JsonReport.render(r));
        assertThat(root.get("format").asText()).isEqualTo(JsonReport.FORMAT);
        assertThat(root.at("/run/this/build").asText()).isEqualTo("feature-x");
        assertThat(root.at("/run/other/params/enable_compute_interactive_runtime").asText()).isEqualTo("false");
        assertThat(root.at("/run/loadPhaseSeconds").asDouble()).isEqualTo(2.0);
        assertThat(root.at("/summary/green").asBoolean()).isFalse();
        assertThat(root.at("/summary/passed").asInt()).isEqualTo(2);
        assertThat(root.at("/summary/invalid").asInt()).isEqualTo(1);

        JsonNode scenarios = root.get("scenarios");
        assertThat(scenarios).hasSize(r.scenarios().size());
        List<String> names = new ArrayList<>();
        scenarios.forEach(s -> names.add(s.get("name").asText()));
        assertThat(names).containsExactly("PeekIsolation", ReportFixtures.HOSTILE, "Broken", "NeedsClusters",
                "Misrouted", "OnlyThis");
        for (int i = 0; i < r.scenarios().size(); i++) {
            ScenarioComparison c = r.scenarios().get(i);
            JsonNode s = scenarios.get(i);
            assertThat(s.get("verdicts")).hasSize(c.verdicts().size());
            assertThat(s.at("/runs/this")).hasSize(c.thisRuns().size());
        }
        JsonNode hostile = scenarios.get(1);
        assertThat(hostile.get("verdict").asText()).isEqualTo("REGRESSED");
        assertThat(hostile.get("reason").asText()).contains(BenchFixtures.LOOKUP + ": avg, p50, p95");

        // the action only this side ran: its other values are null (not NaN), outcome NO_DATA
        JsonNode extra = null;
        for (JsonNode v : scenarios.get(5).get("verdicts")) {
            if (v.get("action").asText().equals(ReportFixtures.EXTRA) && v.get("stat").asText().equals("p50")) {
                extra = v;
            }
        }
        assertThat(extra).isNotNull();
        assertThat(extra.get("other").isNull()).isTrue();
        assertThat(extra.get("outcome").asText()).isEqualTo("NO_DATA");

        // calibration beside the threshold, with the noise flag
        JsonNode p50 = null;
        for (JsonNode v : scenarios.get(0).get("verdicts")) {
            if (v.get("action").asText().equals(BenchFixtures.LOOKUP) && v.get("stat").asText().equals("p50")) {
                p50 = v;
            }
        }
        assertThat(p50.at("/spread/relative").asDouble()).isEqualTo(0.30);
        assertThat(p50.at("/threshold/kind").asText()).isEqualTo("ratio");
        assertThat(p50.at("/threshold/value").asDouble()).isEqualTo(1.5);
        assertThat(p50.get("tighterThanNoise").asBoolean()).isTrue();

        // per-run statistics with error counts
        JsonNode lookup = scenarios.get(0).at("/runs/this/0/actions").get(BenchFixtures.LOOKUP);
        assertThat(lookup.get("errors").asInt()).isEqualTo(3);
        assertThat(lookup.at("/errorCounts").fieldNames().next()).startsWith("57014");
    }
}
