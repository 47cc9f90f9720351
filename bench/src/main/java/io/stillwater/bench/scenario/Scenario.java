package io.stillwater.bench.scenario;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.arrival.Arrival;
import io.stillwater.bench.gate.Guarantee;
import io.stillwater.bench.gate.Overrides;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.load.Loop;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A parallel-benchmark scenario: one subclass per scenario, whose constructor declares the
 * phases in order with the methods below.
 *
 * <pre>{@code
 * public final class PoolRead extends Scenario {
 *     public PoolRead() {
 *         pool(100, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
 *         var read = pooled("SELECT 1");
 *         load(Duration.ofSeconds(120), openLoop(read, periodic(100)));
 *         guarantee(read, Stat.AVG, 5);
 *         guarantee(read, Stat.MAX, 200);
 *     }
 * }
 * }</pre>
 *
 * <p>Declarations only collect; {@link #definition()} validates them (unique action names,
 * threshold and guarantee keys that name real actions, a pool for pooled actions) and the runner
 * treats a failure there like a constructor exception: the scenario fails, the run continues.
 * Change {@link #version()} whenever what the scenario measures changes.
 */
public abstract class Scenario {
    /** 1.5 on qps, avg, p50, p95 for contended measured loops; p99 stays ungated. */
    protected static final Overrides CONTENDED = Overrides.CONTENDED;
    /** Switches a default gate off explicitly. */
    protected static final Threshold UNGATED = Threshold.UNGATED;

    /**
     * The capabilities of the target the scenario is being built for, set by {@link #buildFor}
     * around the constructor call on the constructing thread; unset when a scenario is built without
     * a target (listing, threshold lookup).
     */
    private static final ThreadLocal<Set<Capability>> BUILDING_FOR = new ThreadLocal<>();

    /** Read before the subclass constructor body runs (field initializers of the superclass run first). */
    private final Set<Capability> target = BUILDING_FOR.get();
    private final List<Phase> phases = new ArrayList<>();
    private final Set<Capability> requires = EnumSet.noneOf(Capability.class);
    private final Map<String, Overrides> overrides = new LinkedHashMap<>();
    private final Map<String, List<Guarantee>> guarantees = new LinkedHashMap<>();
    private final Map<String, PeekExpectation> expectations = new LinkedHashMap<>();
    private int poolSize;
    private List<String> poolSetup = List.of();
    private ScenarioDefinition definition;

    /** The scenario's name in reports, history and sharding: the class's simple name (stable by design). */
    public final String name() {
        return getClass().getSimpleName();
    }

    /** Bump when the scenario's workload changes, so history never compares different workloads. */
    public String version() {
        return "1.0.0";
    }

    /** The validated definition; built once, on first call. */
    public final synchronized ScenarioDefinition definition() {
        if (definition == null) {
            definition = ScenarioDefinition.validate(name(), version(), requires, phases, poolSize, poolSetup,
                    overrides, guarantees, expectations);
        }
        return definition;
    }

    /**
     * Constructs a scenario for a target with {@code capabilities}, so that its constructor can
     * choose statements with {@link #targetHas}.
     */
    public static <S extends Scenario> S buildFor(Set<Capability> capabilities,
            Supplier<? extends S> constructor) {
        Set<Capability> previous = BUILDING_FOR.get();
        BUILDING_FOR.set(Set.copyOf(capabilities));
        try {
            return constructor.get();
        } finally {
            if (previous == null) {
                BUILDING_FOR.remove();
            } else {
                BUILDING_FOR.set(previous);
            }
        }
    }

    /**
     * Whether the target this scenario is being built for has {@code c}; false when it is built
     * without a target. Use it only to choose setup and cleanup statements (e.g. Materialize's
     * {@code CREATE DEFAULT INDEX} vs PostgreSQL's {@code CREATE INDEX}), never actions, thresholds
     * or guarantees: those identify the scenario's results and must be the same on every target.
     */
    protected final boolean targetHas(Capability c) {
        return target != null && target.contains(c);
    }

    // ---- phases ----

    protected final void setup(String... statements) {
        phases.add(new Phase.Setup(List.of(statements)));
    }

    protected final void cleanup(String... statements) {
        phases.add(new Phase.Cleanup(List.of(statements)));
    }

    protected final void load(Duration duration, Loop... loops) {
        phases.add(new Phase.Load(duration, List.of(loops)));
    }

    /** ALTER SYSTEM statements run as {@code user}; skipped per statement where the parameter is unknown. */
    protected final void systemParameters(String user, String... alterSystemStatements) {
        phases.add(new Phase.SystemParameters(user, List.of(alterSystemStatements)));
    }

    // ---- scenario settings ----

    /** The pool for pooled actions: {@code size} connections, each running {@code setup} once, untimed. */
    protected final void pool(int size, String... setup) {
        if (size < 1) {
            throw new ScenarioDefinitionException("pool size must be at least 1, got " + size);
        }
        poolSize = size;
        poolSetup = List.of(setup);
    }

    protected final void requires(Capability... capabilities) {
        requires.addAll(List.of(capabilities));
    }

    /** Overrides some thresholds of one action; later calls for the same action add to earlier ones. */
    protected final void thresholds(Action action, Overrides o) {
        thresholds(action.name(), o);
    }

    /** As {@link #thresholds(Action, Overrides)} by action name; unknown names fail validation. */
    protected final void thresholds(String actionName, Overrides o) {
        overrides.merge(actionName, o, Overrides::with);
    }

    /** An absolute bound: {@code qps >= limit}, any other stat {@code <= limit} (latency in ms). */
    protected final void guarantee(Action action, Stat stat, double limit) {
        guarantee(action.name(), stat, limit);
    }

    protected final void guarantee(String actionName, Stat stat, double limit) {
        guarantees.computeIfAbsent(actionName, k -> new ArrayList<>()).add(new Guarantee(stat, limit));
    }

    /**
     * Declares where {@code action}'s queries must run (runtime, fast path or dataflow, offload).
     * After the load phase the runner checks the target's peek history; a failed or uncheckable
     * expectation makes the run INVALID, so its numbers never enter a verdict.
     */
    protected final void expect(Action action, PeekExpectation expectation) {
        expect(action.name(), expectation);
    }

    protected final void expect(String actionName, PeekExpectation expectation) {
        expectations.put(actionName, expectation);
    }

    // ---- actions, arrivals, loops ----

    protected static Action.StandaloneQuery standalone(String sql, String... setup) {
        return new Action.StandaloneQuery(sql, List.of(setup));
    }

    protected static Action.ReuseConnQuery reuseConn(String sql, String... setup) {
        return new Action.ReuseConnQuery(sql, List.of(setup));
    }

    protected static Action.PooledQuery pooled(String sql) {
        return new Action.PooledQuery(sql);
    }

    protected static Action.ScriptAction script(String... statements) {
        return new Action.ScriptAction(List.of(statements));
    }

    protected static Loop.ClosedLoop closedLoop(Action action, int loops) {
        return new Loop.ClosedLoop(action, loops, true);
    }

    protected static Loop.ClosedLoop closedLoop(Action action) {
        return closedLoop(action, 1);
    }

    protected static Loop.OpenLoop openLoop(Action action, Arrival arrival) {
        return new Loop.OpenLoop(action, arrival, true);
    }

    protected static Arrival periodic(double perSecond) {
        return new Arrival.Periodic(perSecond);
    }

    protected static Arrival poisson(double perSecond) {
        return new Arrival.Poisson(perSecond);
    }

    protected static Arrival gaussian(Duration meanGap, Duration stddev) {
        return new Arrival.Gaussian(meanGap, stddev);
    }

    protected static Threshold ratio(double factor) {
        return Threshold.ratio(factor);
    }
}
