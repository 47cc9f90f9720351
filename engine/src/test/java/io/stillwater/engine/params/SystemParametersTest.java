package io.stillwater.engine.params;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SystemParametersTest {
    @Test
    void registryHoldsTheDesignedParametersWithTheirDefaults() {
        assertThat(Params.ALL).extracting(Param::name).containsExactly(
                "enable_compute_interactive_runtime", "enable_compute_interactive_dataflows",
                "enable_compute_index_peek_offload", "compute_index_peek_inline_budget",
                "compute_index_peek_yield_granularity", "max_result_size", "statement_timeout", "max_connections",
                "superuser_reserved_connections",
                "max_maintenance_lag", "max_query_memory", "plan_cache_max_entries", "enable_fast_path_planning", "checkpoint_interval", "checkpoint_wal_size");
        SystemParameters p = new SystemParameters();
        assertThat(p.get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)).isTrue();
        assertThat(p.get(Params.ENABLE_COMPUTE_INTERACTIVE_DATAFLOWS)).isTrue();
        assertThat(p.get(Params.ENABLE_COMPUTE_INDEX_PEEK_OFFLOAD)).isTrue();
        assertThat(p.get(Params.COMPUTE_INDEX_PEEK_INLINE_BUDGET)).isEqualTo(1024);
        assertThat(p.get(Params.COMPUTE_INDEX_PEEK_YIELD_GRANULARITY)).isEqualTo(10_000);
        assertThat(p.get(Params.MAX_RESULT_SIZE)).isEqualTo(1L << 30);
        assertThat(p.get(Params.STATEMENT_TIMEOUT)).isEqualTo(Duration.ZERO);
        assertThat(p.get(Params.MAX_CONNECTIONS)).isEqualTo(1000);
        assertThat(p.get(Params.SUPERUSER_RESERVED_CONNECTIONS)).isEqualTo(3);
        assertThat(p.get(Params.MAX_MAINTENANCE_LAG)).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.get(Params.MAX_QUERY_MEMORY)).isZero(); // a quarter of the maximum heap
        assertThat(p.get(Params.PLAN_CACHE_MAX_ENTRIES)).isEqualTo(4096);
        assertThat(p.text("MAX_RESULT_SIZE")).isEqualTo("1GB");
        assertThat(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME.scope()).isEqualTo(Scope.REPLICA_PROVISIONING);
        assertThat(Params.ALL).allSatisfy(param -> assertThat(param.description()).isNotBlank());
        assertThat(new HashSet<>(Params.ALL.stream().map(Param::description).toList())).hasSize(Params.ALL.size());
    }

    @Test
    void unknownNamesAre42704() {
        assertThatThrownBy(() -> Params.require("no_such_thing")).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_OBJECT);
            assertThat(e.getMessage()).isEqualTo("unrecognized configuration parameter \"no_such_thing\"");
        });
        assertThat(Params.find("Max_Connections")).contains(Params.MAX_CONNECTIONS);
    }

    @Test
    void overridesWinOverStartupDefaultsWhichWinOverRegistryDefaults() {
        SystemParameters p = SystemParameters.withStartupDefaults(Map.of("max_connections", "50"));
        assertThat(p.get(Params.MAX_CONNECTIONS)).isEqualTo(50);
        p.applyOverride("max_connections", "70");
        assertThat(p.get(Params.MAX_CONNECTIONS)).isEqualTo(70);
        assertThat(p.snapshot().overrides()).containsExactly(Map.entry("max_connections", "70"));
        p.applyReset("max_connections");
        assertThat(p.get(Params.MAX_CONNECTIONS)).isEqualTo(50);
        assertThat(p.snapshot().isOverridden(Params.MAX_CONNECTIONS)).isFalse();
        assertThat(p.get(Params.MAX_RESULT_SIZE)).isEqualTo(1L << 30);
    }

    @Test
    void startupDefaultsAreValidated() {
        assertThatThrownBy(() -> SystemParameters.withStartupDefaults(Map.of("max_connections", "many")))
                .isInstanceOfSatisfying(SqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE));
        assertThatThrownBy(() -> SystemParameters.withStartupDefaults(Map.of("bogus", "1")))
                .isInstanceOfSatisfying(SqlException.class,
                        e -> assertThat(e.state()).isEqualTo(SqlState.UNDEFINED_OBJECT));
    }

    @Test
    void snapshotsAreImmutableAndListenersSeeEveryChange() {
        SystemParameters p = new SystemParameters();
        ParameterSnapshot before = p.snapshot();
        List<String> seen = new ArrayList<>();
        SystemParameters.Registration reg = p.onChange((b, a) ->
                seen.add(b.text(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME) + "->" + a.text(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)));
        p.applyOverride("enable_compute_interactive_runtime", "false");
        p.applyOverride("enable_compute_interactive_runtime", "off"); // no change: not reported
        p.applyReset("enable_compute_interactive_runtime");
        reg.close();
        p.applyOverride("enable_compute_interactive_runtime", "off");
        assertThat(seen).containsExactly("on->off", "off->on");
        assertThat(before.get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)).isTrue();
        assertThat(p.get(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME)).isFalse();
        assertThatThrownBy(() -> before.values().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void startupDefaultSpecsParse() {
        assertThat(StartupDefaults.parse(" enable_compute_interactive_runtime = off ; max_result_size='100MB';;"
                + "statement_timeout=10000;max_connections=5;max_connections=6"))
                .containsExactly(Map.entry("enable_compute_interactive_runtime", "off"),
                        Map.entry("max_result_size", "100MB"), Map.entry("statement_timeout", "10s"),
                        Map.entry("max_connections", "6"));
        assertThat(StartupDefaults.parse("")).isEmpty();
        assertThatThrownBy(() -> StartupDefaults.parse("max_connections"))
                .hasMessage("invalid system parameter default \"max_connections\"");
        assertThatThrownBy(() -> StartupDefaults.parse("max_connection=5"))
                .hasMessage("unrecognized configuration parameter \"max_connection\"");
        assertThatThrownBy(() -> StartupDefaults.parse("max_result_size=1kB"))
                .hasMessage("invalid value for parameter \"max_result_size\": \"1kB\"");
    }

    @Test
    void codecRoundTripsTheValueText() {
        assertThat(SystemParameterCodec.decode("x", SystemParameterCodec.encode("100MB"))).isEqualTo("100MB");
    }
}
