package io.stillwater.bench.feature.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.compare.RerunPolicy;
import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.run.FeatureProgress;
import io.stillwater.bench.feature.run.FeatureRunner;
import io.stillwater.bench.feature.run.FeatureScenarioResult;
import io.stillwater.bench.feature.run.FeatureSession;
import io.stillwater.bench.feature.run.ScenarioStatus;
import io.stillwater.bench.feature.run.SideOutcome;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.targets.SideParams;
import io.stillwater.bench.targets.Targets;
import io.stillwater.slt.PostgresCluster;
import io.stillwater.targets.TargetSpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole catalog against a real, throwaway PostgreSQL (15 where installed) as a url target on
 * both sides, at scale 2: the PostgreSQL-compatible scenarios run and are measured, the others are
 * skipped with the capability (or the restart) they need, and the server is left as found.
 */
class FeatureScenariosPostgresTest {
    @RegisterExtension
    static final PostgresCluster PG = new PostgresCluster();

    @Test
    void portableScenariosRunOnPostgresAndTheOthersAreSkippedWithTheReason() throws Exception {
        var catalog = FeatureCatalog.all();
        FeatureSuite suite = FeatureSuite.load(catalog, new ScaleOption(2, false));
        String display = "url:postgresql://postgres@127.0.0.1:" + PG.port() + "/postgres";
        TargetLauncher pg = Targets.launcher(new TargetSpec.Url(PG.jdbcUrl(), "postgres", "", display),
                SideParams.NONE);
        FeatureSession session = new FeatureSession(
                new FeatureRunner(new MeasurementPolicy(1, 1, 3, 0.95, 0.10), FeatureProgress.NONE),
                new RerunPolicy(1), FeatureProgress.NONE);

        List<FeatureScenarioResult> results = session.run(suite, pg, pg, Set.of());

        assertThat(results).extracting(FeatureScenarioResult::scenario)
                .containsExactlyElementsOf(catalog.stream().map(Class::getSimpleName).toList());
        for (int i = 0; i < results.size(); i++) {
            FeatureScenarioResult r = results.get(i);
            FeatureScenario s = suite.scenarios().get(i);
            String what = r.scenario() + " " + r.status() + ": " + r.reason();
            if (!s.requires().isEmpty()) {
                // PostgreSQL offers INDEXES only
                Set<Capability> missing = s.requires().stream().filter(c -> c != Capability.INDEXES)
                        .collect(Collectors.toSet());
                assertThat(r.status()).as(what).isEqualTo(ScenarioStatus.SKIPPED);
                assertThat(r.reason()).as(what).contains("lacks");
                missing.forEach(c -> assertThat(r.reason()).as(what).contains(c.name()));
            } else if (s.restarts()) {
                assertThat(r.status()).as(what).isEqualTo(ScenarioStatus.SKIPPED);
                assertThat(r.reason()).as(what).contains("cannot be restarted");
            } else {
                assertThat(r.status()).as(what).isIn(ScenarioStatus.PASSED, ScenarioStatus.REGRESSED);
                assertThat(r.runs()).as(what).hasSize(2).allSatisfy(o -> {
                    assertThat(o).isInstanceOf(SideOutcome.Measured.class);
                    MetricSamples wall = ((SideOutcome.Measured) o).run().samples().get(Metric.WALLCLOCK);
                    assertThat(wall).as(what).isNotNull();
                    assertThat(wall.kept()).as(what).isNotEmpty().allSatisfy(v -> assertThat(v).isPositive());
                });
            }
        }
        assertThat(results.stream().filter(r -> r.status() != ScenarioStatus.SKIPPED).map(FeatureScenarioResult::scenario))
                .containsExactlyInAnyOrderElementsOf(results.stream().map(FeatureScenarioResult::scenario)
                        .filter(n -> !Set.of("MinMaxMaintained", "GroupByMaintained", "AccumulateReductions",
                                "Retraction", "HydrateIndex", "StartupEmpty", "StartupLoaded", "PeekDataflowJoin",
                                "IntrospectionRead", "ManyIndexesIdle", "ManyIndexesRestart", "ManyReexportsIdle")
                                .contains(n))
                        .toList());

        // every scenario's cleanup ran: the shared server holds no table, view or index it made
        try (Connection c = PG.connect(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT string_agg(relname, ', ') FROM pg_class c JOIN pg_namespace n "
                        + "ON n.oid = c.relnamespace WHERE n.nspname = 'public'")) {
            rs.next();
            assertThat(rs.getString(1)).as("left on the server").isNull();
        }
    }
}
