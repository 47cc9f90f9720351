package io.stillwater.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.CorruptDataException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class ClusterCodecTest {
    @Property
    void everyClusterSurvivesTheLogEncoding(@ForAll @AlphaChars @StringLength(min = 1, max = 12) String name,
                                            @ForAll boolean managed, @ForAll @IntRange(min = 1, max = 64) int workers,
                                            @ForAll @Size(max = 5) List<@IntRange(min = 1, max = 64) Integer> replicaWorkers,
                                            @ForAll boolean interactive) {
        List<ReplicaDef> replicas = new ArrayList<>();
        for (int i = 0; i < replicaWorkers.size(); i++) {
            replicas.add(new ReplicaDef("u" + (i + 3), "r" + (i + 1), ClusterSize.parse(String.valueOf(replicaWorkers.get(i))),
                    interactive ^ (i % 2 == 0)));
        }
        ClusterDef def = new ClusterDef("u7", name, managed, managed ? ClusterSize.ofWorkers(workers) : null,
                replicas.size(), replicas);
        assertThat(ClusterCodec.decode("u7", ClusterCodec.encode(def))).isEqualTo(def);
    }

    @Test
    void aBadPayloadIsCorruptData() {
        assertThatThrownBy(() -> ClusterCodec.decode("u1", new byte[] {9})).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void sizesAcceptMaterializesTestSpellings() {
        assertThat(ClusterSize.parse("scale=1,workers=4").workers()).isEqualTo(4);
        assertThat(ClusterSize.parse(" scale = 1 , workers = 2 ").text()).isEqualTo("scale = 1 , workers = 2");
        assertThat(ClusterSize.parse("16").workers()).isEqualTo(16);
        for (String bad : List.of("0", "65", "scale=2,workers=1", "xsmall", "", "scale=1,workers=0")) {
            assertThatThrownBy(() -> ClusterSize.parse(bad)).as(bad).isInstanceOfSatisfying(SqlException.class,
                    e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE));
        }
    }

    @Test
    void idsAreNeverReused() {
        Clusters c = Clusters.empty();
        assertThat(c.newClusterId()).isEqualTo("u1");
        ClusterDef a = new ClusterDef("u1", "a", true, ClusterSize.ofWorkers(1), 2,
                List.of(new ReplicaDef("u1", "r1", ClusterSize.ofWorkers(1), true),
                        new ReplicaDef("u2", "r2", ClusterSize.ofWorkers(1), true)));
        c = c.with(a).with(a.withReplicas(List.of())).without("u1");
        assertThat(c.all()).isEmpty();
        assertThat(c.everCreated()).isTrue();
        assertThat(c.newClusterId()).isEqualTo("u2");
        assertThat(c.newReplicaId(0)).isEqualTo("u3");
        assertThatThrownBy(() -> Clusters.empty().require("x")).hasMessage("unknown cluster 'x'");
    }
}
