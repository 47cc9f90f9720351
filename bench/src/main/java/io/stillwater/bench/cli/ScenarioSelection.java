package io.stillwater.bench.cli;

import io.stillwater.bench.runner.ScenarioSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Which scenarios a run covers: named ones (or all known), then the shard's part of them. */
public final class ScenarioSelection {
    private ScenarioSelection() {
    }

    /**
     * @param names {@code --scenario} values; empty means every known scenario
     * @throws IllegalArgumentException an unknown name, listing the known ones
     */
    public static List<ScenarioSource> select(List<ScenarioSource> known, List<String> names, Shard shard) {
        Map<String, ScenarioSource> byName = new LinkedHashMap<>();
        known.forEach(s -> byName.put(s.name(), s));
        List<ScenarioSource> chosen = new ArrayList<>();
        if (names.isEmpty()) {
            chosen.addAll(known);
        } else {
            List<String> unknown = names.stream().filter(n -> !byName.containsKey(n)).distinct().toList();
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("unknown scenario" + (unknown.size() > 1 ? "s " : " ")
                        + String.join(", ", unknown) + "; known scenarios: " + String.join(", ", byName.keySet()));
            }
            names.stream().distinct().map(byName::get).forEach(chosen::add);
        }
        return chosen.stream().filter(s -> shard.contains(s.name())).toList();
    }
}
