package io.stillwater.bench.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Phase;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.scenario.ScenarioDefinition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Scenarios choose setup statements by target capability; their actions never change with it. */
class TargetBranchingTest {

    private static List<String> setup(ScenarioDefinition d) {
        return ((Phase.Setup) d.phases().getFirst()).statements();
    }

    @Test
    void openIndexedSelectsUsesADefaultIndexOnlyWhereIndexesAreArrangements() {
        var pg = Scenario.buildFor(Set.of(Capability.INDEXES), OpenIndexedSelects::new).definition();
        var mz = Scenario.buildFor(Set.of(Capability.INDEXES, Capability.ARRANGEMENTS), OpenIndexedSelects::new)
                .definition();
        assertThat(setup(pg)).contains("CREATE INDEX bench_t4_f1 ON bench_t4 (f1)").noneMatch(s -> s.contains("DEFAULT INDEX"));
        assertThat(setup(mz)).contains("CREATE DEFAULT INDEX ON bench_t4");
        assertThat(mz.actions().keySet()).isEqualTo(pg.actions().keySet());
    }

    @Test
    void pointLookupThroughputAnalyzesOnlyOnPostgres() {
        var pg = Scenario.buildFor(Set.of(Capability.INDEXES), PointLookupThroughput::new).definition();
        var mz = Scenario.buildFor(Set.of(Capability.INDEXES, Capability.ARRANGEMENTS), PointLookupThroughput::new)
                .definition();
        assertThat(setup(pg)).contains("ANALYZE bench_plt");
        assertThat(setup(mz)).doesNotContain("ANALYZE bench_plt");
        assertThat(mz.actions().keySet()).isEqualTo(pg.actions().keySet());
    }

    @Test
    void withoutATargetNothingIsAssumed() {
        assertThat(setup(new OpenIndexedSelects().definition())).contains("CREATE INDEX bench_t4_f1 ON bench_t4 (f1)");
    }
}
