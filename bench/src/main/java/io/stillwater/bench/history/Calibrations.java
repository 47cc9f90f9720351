package io.stillwater.bench.history;

import io.stillwater.bench.stats.Stat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Calibrations looked up by scenario, action and stat; immutable. */
public final class Calibrations {
    public static final Calibrations NONE = new Calibrations(List.of());

    private record Key(String scenario, String action, Stat stat) {
    }

    private final Map<Key, Calibration> byKey = new HashMap<>();

    private Calibrations(List<Calibration> all) {
        for (Calibration c : all) {
            byKey.put(new Key(c.scenario(), c.action(), c.stat()), c);
        }
    }

    /** Later entries for the same key win. */
    public static Calibrations of(List<Calibration> all) {
        return new Calibrations(all);
    }

    public Optional<Calibration> find(String scenario, String action, Stat stat) {
        return Optional.ofNullable(byKey.get(new Key(scenario, action, stat)));
    }

    /** How many (scenario, action, stat) keys have a calibration. */
    public int size() {
        return byKey.size();
    }

    public boolean isEmpty() {
        return byKey.isEmpty();
    }
}
