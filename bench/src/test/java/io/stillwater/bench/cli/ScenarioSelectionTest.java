package io.stillwater.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenarios.GenericScenarios;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioSelectionTest {
    private static final List<ScenarioSource> KNOWN = GenericScenarios.all();

    private static List<String> names(List<ScenarioSource> s) {
        return s.stream().map(ScenarioSource::name).toList();
    }

    @Test
    void noNamesMeansEveryScenario() {
        assertThat(names(ScenarioSelection.select(KNOWN, List.of(), Shard.ALL))).containsExactly("Read", "PoolRead",
                "ConnectRead", "InsertsSelects", "OpenIndexedSelects", "PointLookupThroughput", "IngestOverload",
                "JoinGroupByIngest");
    }

    @Test
    void namedScenariosInTheGivenOrderOnce() {
        assertThat(names(ScenarioSelection.select(KNOWN, List.of("PoolRead", "Read", "PoolRead"), Shard.ALL)))
                .containsExactly("PoolRead", "Read");
    }

    @Test
    void unknownNamesAreRejectedListingTheKnownOnes() {
        assertThatThrownBy(() -> ScenarioSelection.select(KNOWN, List.of("Read", "read", "Nope"), Shard.ALL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown scenarios read, Nope;")
                .hasMessageContaining("known scenarios: Read, PoolRead, ConnectRead, InsertsSelects, "
                        + "OpenIndexedSelects, PointLookupThroughput, IngestOverload, JoinGroupByIngest");
    }

    @Test
    void shardsPartitionTheSelection() {
        List<String> all = names(ScenarioSelection.select(KNOWN, List.of(), Shard.ALL));
        List<String> union = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            union.addAll(names(ScenarioSelection.select(KNOWN, List.of(), new Shard(i, 3))));
        }
        assertThat(union).containsExactlyInAnyOrderElementsOf(all);
        assertThat(names(ScenarioSelection.select(KNOWN, List.of(), new Shard(0, 3)))).containsExactly("PoolRead", "JoinGroupByIngest");
    }

    @Test
    void everyGenericScenarioBuildsAndHasAVersion() {
        for (ScenarioSource s : KNOWN) {
            var def = s.constructor().get().definition();
            assertThat(def.version()).as(s.name()).matches("\\d+\\.\\d+\\.\\d+");
            assertThat(def.actions()).as(s.name()).isNotEmpty();
            assertThat(def.warnings()).as(s.name()).isEmpty();
        }
    }
}
