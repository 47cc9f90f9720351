package io.stillwater.pgwire;

import java.util.Map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CancelRegistryTest {
    @Test
    void cancelsOnlyWithTheRightSecretAndOnlyWhileRegistered() {
        CannedSession.Probe probe = new CannedSession.Probe();
        var session = probe.factory().connect("u", "materialize", Map.of());
        CancelRegistry registry = new CancelRegistry();
        BackendKey key = registry.register(session);
        assertThat(key.processId()).isPositive();

        assertThat(registry.cancel(new BackendKey(key.processId(), key.secretKey() ^ 1))).isFalse();
        assertThat(probe.cancels).hasValue(0);
        assertThat(registry.cancel(key)).isTrue();
        assertThat(probe.cancels).hasValue(1);

        registry.unregister(new BackendKey(key.processId(), key.secretKey() ^ 1)); // wrong secret: no effect
        assertThat(registry.size()).isEqualTo(1);
        registry.unregister(key);
        assertThat(registry.size()).isZero();
        assertThat(registry.cancel(key)).isFalse();
    }

    @Test
    void processIdsAreUniqueAmongLiveSessions() {
        CannedSession.Probe probe = new CannedSession.Probe();
        CancelRegistry registry = new CancelRegistry();
        Set<Integer> pids = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            pids.add(registry.register(probe.factory().connect("u", "materialize", Map.of())).processId());
        }
        assertThat(pids).hasSize(2000);
        assertThat(registry.size()).isEqualTo(2000);
    }
}
