package io.stillwater.engine.params;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Model: a map of parameter values. Writing it as {@code name=value;...} (canonical text)
 * and parsing it back gives the same values, and so does opening SystemParameters with it.
 */
class StartupDefaultsPropertyTest {
    @Provide
    Arbitrary<Map<String, Object>> settings() {
        Arbitrary<Boolean> runtime = Arbitraries.of(true, false);
        Arbitrary<Integer> budget = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        Arbitrary<Integer> granularity = Arbitraries.integers().between(1, Integer.MAX_VALUE);
        Arbitrary<Long> resultSize = Arbitraries.longs().between(1L << 20, 1L << 40);
        Arbitrary<Duration> timeout = Arbitraries.longs().between(0, Integer.MAX_VALUE).map(Duration::ofMillis);
        Arbitrary<Integer> connections = Arbitraries.integers().between(1, 100_000);
        return Combinators.combine(runtime, budget, granularity, resultSize, timeout, connections)
                .as((r, b, g, size, t, c) -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put(Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME.name(), r);
                    m.put(Params.COMPUTE_INDEX_PEEK_INLINE_BUDGET.name(), b);
                    m.put(Params.COMPUTE_INDEX_PEEK_YIELD_GRANULARITY.name(), g);
                    m.put(Params.MAX_RESULT_SIZE.name(), size);
                    m.put(Params.STATEMENT_TIMEOUT.name(), t);
                    m.put(Params.MAX_CONNECTIONS.name(), c);
                    return m;
                });
    }

    @Property(tries = 200)
    void specsRoundTrip(@ForAll("settings") Map<String, Object> values, @ForAll boolean spaces) {
        StringJoiner spec = new StringJoiner(spaces ? " ; " : ";");
        values.forEach((name, v) -> spec.add(name + (spaces ? " = " : "=") + Params.require(name).format(v)));
        Map<String, String> parsed = StartupDefaults.parse(spec.toString());
        assertThat(parsed.keySet()).containsExactlyElementsOf(values.keySet());
        SystemParameters params = SystemParameters.withStartupDefaults(parsed);
        for (Param<?> p : Params.ALL) {
            Object expected = values.getOrDefault(p.name(), p.defaultValue());
            assertThat(params.get(p)).as(p.name()).isEqualTo(expected);
        }
        assertThat(params.snapshot().overrides()).isEmpty();
        assertThat(List.copyOf(parsed.values())).allSatisfy(text -> assertThat(text).doesNotContain(";"));
    }
}
