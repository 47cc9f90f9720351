package io.stillwater.bench.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParameterReadBackTest {
    @Test
    void spellingsOfOneBooleanAreTheSameValue() {
        assertThat(ParameterReadBack.sameValue("false", "off")).isTrue();
        assertThat(ParameterReadBack.sameValue("'ON'", "true")).isTrue();
        assertThat(ParameterReadBack.sameValue("100 MB", "100mb")).isTrue();
        assertThat(ParameterReadBack.sameValue("off", "on")).isFalse();
        assertThat(ParameterReadBack.sameValue("10s", "10000ms")).as("other types compare as text").isFalse();
    }

    @Test
    void aParameterThatDidNotArriveIsAMismatchNamingBothValues() {
        Map<String, String> effective = new LinkedHashMap<>();
        effective.put("enable_compute_interactive_runtime", "on");
        effective.put("max_connections", "100");
        assertThat(ParameterReadBack.mismatches(
                Map.of("enable_compute_interactive_runtime", "false", "max_connections", "100"), effective))
                .containsExactly("enable_compute_interactive_runtime: asked for false, SHOW "
                        + "enable_compute_interactive_runtime as mz_system gives on");
        assertThat(ParameterReadBack.mismatches(Map.of("statement_timeout", "1s"), Map.of()))
                .singleElement().asString().endsWith("gives nothing");
        assertThat(ParameterReadBack.mismatches(Map.of("max_connections", "100"), effective)).isEmpty();
    }
}
