package io.stillwater.bench.scenario;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.gate.Guarantee;
import io.stillwater.bench.gate.Overrides;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.load.Loop;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The validated, immutable form of a scenario, built by {@link Scenario#definition()}. Invariants
 * established by {@link #validate}: action names are unique (two different actions never share a
 * name, and one action drives at most one loop per load phase); every threshold or guarantee key
 * is a real action name; pooled actions have a pool; every peek expectation names a real query
 * action (not a script).
 *
 * @param expectations where each measured action's queries must run, by action name; checked after
 *     the load phase ({@link io.stillwater.bench.verify.PeekVerifier}); empty: nothing to verify
 */
public record ScenarioDefinition(
        String name,
        String version,
        Set<Capability> requires,
        List<Phase> phases,
        int poolSize,
        List<String> poolSetup,
        Map<String, Overrides> overrides,
        Map<String, List<Guarantee>> guarantees,
        Map<String, PeekExpectation> expectations,
        List<String> warnings) {

    public ScenarioDefinition {
        requires = Set.copyOf(requires);
        phases = List.copyOf(phases);
        poolSetup = List.copyOf(poolSetup);
        overrides = Map.copyOf(overrides);
        Map<String, List<Guarantee>> g = new LinkedHashMap<>();
        guarantees.forEach((k, v) -> g.put(k, List.copyOf(v)));
        guarantees = Map.copyOf(g);
        expectations = Collections.unmodifiableMap(new LinkedHashMap<>(expectations));
        warnings = List.copyOf(warnings);
    }

    /** Every action of every load phase by name, in first-use order. */
    public Map<String, Action> actions() {
        Map<String, Action> out = new LinkedHashMap<>();
        for (Phase p : phases) {
            if (p instanceof Phase.Load l) {
                l.loops().forEach(loop -> out.putIfAbsent(loop.action().name(), loop.action()));
            }
        }
        return out;
    }

    /**
     * The thresholds that gate {@code action}: defaults, then its overrides; every stat ungated
     * if any loop of the action has {@code reportRegressions(false)}.
     */
    public Thresholds thresholdsFor(String action) {
        if (!reported(action)) {
            return Thresholds.ALL_UNGATED;
        }
        return Thresholds.DEFAULT.with(overrides.getOrDefault(action, Overrides.NONE));
    }

    private boolean reported(String action) {
        for (Phase p : phases) {
            if (p instanceof Phase.Load l) {
                for (Loop loop : l.loops()) {
                    if (loop.action().name().equals(action) && !loop.reportRegressions()) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Checks the declarations and returns the definition with consistency warnings filled in.
     *
     * @throws ScenarioDefinitionException naming the offending key or action and the valid names
     */
    static ScenarioDefinition validate(String name, String version, Set<Capability> requires, List<Phase> phases,
            int poolSize, List<String> poolSetup, Map<String, Overrides> overrides,
            Map<String, List<Guarantee>> guarantees, Map<String, PeekExpectation> expectations) {
        Objects.requireNonNull(version, "version");
        Map<String, Action> byName = new LinkedHashMap<>();
        boolean pooled = false;
        for (Phase p : phases) {
            if (!(p instanceof Phase.Load l)) {
                continue;
            }
            Set<String> inPhase = new LinkedHashSet<>();
            for (Loop loop : l.loops()) {
                Action a = loop.action();
                Action prev = byName.putIfAbsent(a.name(), a);
                if (prev != null && !prev.equals(a)) {
                    throw new ScenarioDefinitionException("scenario " + name + ": two different actions are named \""
                            + a.name() + "\" (" + prev + " and " + a + "); action names must be unique");
                }
                if (!inPhase.add(a.name())) {
                    throw new ScenarioDefinitionException("scenario " + name + ": action \"" + a.name()
                            + "\" drives two loops of one load phase, which would merge their samples; use one "
                            + "closedLoop(action, n) for n parallel loops");
                }
                pooled |= a instanceof Action.PooledQuery;
            }
        }
        if (pooled && poolSize < 1) {
            throw new ScenarioDefinitionException("scenario " + name
                    + ": pooled actions need a connection pool; declare pool(size, setup...)");
        }
        Set<String> valid = byName.keySet();
        for (String key : overrides.keySet()) {
            requireAction(name, "threshold override", key, valid);
        }
        for (String key : guarantees.keySet()) {
            requireAction(name, "guarantee", key, valid);
        }
        for (String key : expectations.keySet()) {
            requireAction(name, "peek expectation", key, valid);
            if (byName.get(key) instanceof Action.ScriptAction) {
                throw new ScenarioDefinitionException("scenario " + name + ": peek expectation for the script \""
                        + key + "\"; expectations apply to query actions, whose statement the peek history records");
            }
        }
        ScenarioDefinition d = new ScenarioDefinition(name, version, requires, phases, poolSize, poolSetup, overrides,
                guarantees, expectations, List.of());
        return new ScenarioDefinition(name, version, requires, phases, poolSize, poolSetup, overrides, guarantees,
                expectations, d.consistencyWarnings());
    }

    private static void requireAction(String scenario, String what, String key, Set<String> valid) {
        if (!valid.contains(key)) {
            throw new ScenarioDefinitionException("scenario " + scenario + ": " + what + " for unknown action \""
                    + key + "\"; the scenario's actions are " + valid.stream().map(v -> "\"" + v + "\"").toList());
        }
    }

    /**
     * In a closed loop qps is loops / avg, so the two gates measure one signal inverted and the
     * stricter one binds: warn when their thresholds differ.
     */
    private List<String> consistencyWarnings() {
        List<String> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Phase p : phases) {
            if (p instanceof Phase.Load l) {
                for (Loop loop : l.loops()) {
                    String a = loop.action().name();
                    if (loop instanceof Loop.ClosedLoop && loop.reportRegressions() && seen.add(a)) {
                        Thresholds t = thresholdsFor(a);
                        Threshold qps = t.of(Stat.QPS);
                        Threshold avg = t.of(Stat.AVG);
                        if (!qps.equals(avg)) {
                            out.add("scenario " + name + ": closed loop \"" + a + "\" gates qps at " + qps
                                    + " but avg at " + avg + "; in a closed loop qps is loops/avg, so the stricter "
                                    + "one binds");
                        }
                    }
                }
            }
        }
        return out;
    }
}
