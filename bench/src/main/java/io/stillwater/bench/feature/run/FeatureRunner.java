package io.stillwater.bench.feature.run;

import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.feature.measure.MeasurementPolicy;
import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.MetricSeries;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.measure.StoppingRule;
import io.stillwater.bench.feature.run.TimedScript.ScriptFailedException;
import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureContext;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.feature.scenario.ScriptStatement;
import io.stillwater.bench.feature.scenario.Scripts;
import io.stillwater.bench.runner.SideLaunch;
import io.stillwater.bench.runner.TargetLauncher.LaunchedTarget;
import io.stillwater.bench.runner.TargetLauncher;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.ScenarioDefinitionException;
import io.stillwater.bench.targets.CapabilityProbe;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Runs one scenario instance on one side once: launch the target, check capabilities, run
 * cleanup/shared/init, then measure (before + benchmark per measurement on a fresh connection,
 * wallclock from the start of A to the end of B, memory after each measurement) until the
 * {@link StoppingRule} or the maximum, then cleanup and close the
 * target. A failure anywhere becomes {@link SideOutcome.Failed} (naming the statement and its
 * SQLSTATE); a missing capability or a restart on a url target becomes {@link SideOutcome.Skipped}.
 *
 * <p>Threading: {@link #run} does everything on the calling thread, which owns the launched target
 * (including its state after a restart) and every series for the side's whole run. The runner
 * itself keeps no state between runs and may be reused.
 */
public final class FeatureRunner {
    /** What a parameter the target does not know is recorded as. */
    public static final String ABSENT = "(absent)";

    private final MeasurementPolicy policy;
    private final FeatureProgress progress;
    private final LongSupplier nanoClock;

    public FeatureRunner(MeasurementPolicy policy, FeatureProgress progress) {
        this(policy, progress, System::nanoTime);
    }

    /** With another clock for the timed spans (tests). */
    FeatureRunner(MeasurementPolicy policy, FeatureProgress progress, LongSupplier nanoClock) {
        this.policy = policy;
        this.progress = progress;
        this.nanoClock = nanoClock;
    }

    public MeasurementPolicy policy() {
        return policy;
    }

    /**
     * @param side "this" or "other"
     * @param params the parameters whose effective values to read back and record: the scenario's
     *     {@code dependsOnParams()} plus the names either side sets
     */
    public SideOutcome run(FeatureScenario scenario, String side, int runNumber, TargetLauncher launcher,
            Set<String> params) {
        long started = System.nanoTime();
        String name = scenario.name();
        progress.sideStarted(name, side, runNumber, policy.maxMeasurements());
        Attempt a = new Attempt(scenario, side, runNumber, started);
        SideOutcome outcome = a.run(launcher, params);
        progress.sideFinished(name, outcome, outcome instanceof SideOutcome.Measured m ? m.run().stop() : null);
        return outcome;
    }

    /** The scripts of a scenario, parsed before anything is launched. */
    private record Parsed(List<ScriptStatement> cleanup, List<ScriptStatement> shared, List<ScriptStatement> init,
            List<ScriptStatement> before, Body body, List<ScriptStatement> benchmarkOrNull) {
    }

    /** One side run: owned by the calling thread. */
    private final class Attempt {
        private final FeatureScenario scenario;
        private final String side;
        private final int runNumber;
        private final long started;
        private final List<String> messages = new ArrayList<>();

        Attempt(FeatureScenario scenario, String side, int runNumber, long started) {
            this.scenario = scenario;
            this.side = side;
            this.runNumber = runNumber;
            this.started = started;
        }

        SideOutcome run(TargetLauncher launcher, Set<String> params) {
            Parsed parsed;
            try {
                Body body = scenario.benchmark();
                parsed = new Parsed(Scripts.parse(scenario.cleanup()), Scripts.parse(scenario.shared()),
                        Scripts.parse(scenario.init()), Scripts.parse(scenario.before()), body,
                        body instanceof Body.Script s ? Scripts.parseBenchmark(scenario.name(), s.sql()) : null);
            } catch (RuntimeException e) {
                return failed("the scenario's scripts: " + describe(e));
            }
            LaunchedTarget target;
            switch (SideLaunch.launch(launcher)) {
                case SideLaunch.Skipped s -> {
                    return new SideOutcome.Skipped(side, runNumber, s.reason());
                }
                case SideLaunch.Failed f -> {
                    return failed(f.error());
                }
                case SideLaunch.Up up -> target = up.target();
            }
            boolean setUp = false;
            try {
                messages.addAll(target.messages());
                Set<Capability> missing = SideLaunch.missing(scenario.requires(), target.capabilities());
                if (!missing.isEmpty()) {
                    return new SideOutcome.Skipped(side, runNumber, target.jdbcUrl() + " lacks "
                            + missing.stream().map(Enum::name).sorted().collect(Collectors.joining(", "))
                            + ", which " + scenario.name() + " requires");
                }
                if (scenario.restarts() && !target.restartable()) {
                    return new SideOutcome.Skipped(side, runNumber, scenario.name() + " restarts its target, and "
                            + target.jdbcUrl() + " cannot be restarted: url targets are shared and never restarted");
                }
                Map<String, String> effective = effectiveParams(target, params);
                setUp = true;
                try (Connection c = target.connect()) {
                    TimedScript.Executor ex = TimedScript.jdbc(c);
                    phase("cleanup", parsed.cleanup(), ex);
                    phase("shared", parsed.shared(), ex);
                    phase("init", parsed.init(), ex);
                }
                progress.measuring(scenario.name(), side, runNumber);
                Map<Metric, MetricSeries> series = new EnumMap<>(Metric.class);
                series.put(Metric.WALLCLOCK, new MetricSeries(Metric.WALLCLOCK, policy.effectiveWarmup()));
                StoppingRule rule = new StoppingRule(policy);
                int done = 0;
                StopReason stop = null;
                boolean memoryNoted = false;
                while (stop == null) {
                    double ms = measureOnce(target, parsed) / 1e6;
                    done++;
                    series.get(Metric.WALLCLOCK).add(ms);
                    Map<Metric, Double> memory = MemoryProbe.sample(target);
                    memory.forEach((m, v) -> series.computeIfAbsent(m, k -> new MetricSeries(k, policy.effectiveWarmup()))
                            .add(v));
                    if (!memoryNoted) {
                        memoryNoted = true;
                        if (memory.isEmpty()) {
                            messages.add("memory not measured: " + target.jdbcUrl()
                                    + " exposes no mz_internal.mz_process_memory and is not a process the bench runs");
                        }
                    }
                    progress.measured(scenario.name(), side, runNumber, done, policy.maxMeasurements(), ms);
                    Optional<StopReason> decided = rule.decide(done, series.values());
                    if (decided.isPresent()) {
                        stop = decided.get();
                    } else if (done >= policy.maxMeasurements()) {
                        stop = StopReason.MAX_MEASUREMENTS; // guards the loop whatever the rule says
                    }
                }
                setUp = false;
                try (Connection c = target.connect()) {
                    phase("cleanup", parsed.cleanup(), TimedScript.jdbc(c));
                }
                Map<Metric, MetricSamples> samples = new EnumMap<>(Metric.class);
                series.forEach((m, s) -> samples.put(m, s.snapshot()));
                return new SideOutcome.Measured(new SideRun(side, runNumber, samples, stop, effective, messages,
                        elapsed()));
            } catch (ScriptFailedException e) {
                return failed(e.getMessage());
            } catch (Exception | Error e) {
                return failed(describe(e));
            } finally {
                if (setUp) {
                    bestEffortCleanup(target, parsed.cleanup());
                }
                SideLaunch.close(target).ifPresent(e -> messages.add("closing the target failed: " + e));
            }
        }

        /** One measurement; returns its timed span in nanoseconds. */
        private long measureOnce(LaunchedTarget target, Parsed parsed) throws Exception {
            if (parsed.body() instanceof Body.Timed t) {
                if (!parsed.before().isEmpty()) {
                    try (Connection c = target.connect()) {
                        phase("before", parsed.before(), TimedScript.jdbc(c));
                    }
                }
                FeatureContext context = new Context(target, scenario.n());
                long start = nanoClock.getAsLong();
                try {
                    t.action().run(context);
                } catch (ScriptFailedException e) {
                    throw e.in("benchmark");
                } catch (SQLException e) {
                    throw new ScriptFailedException("benchmark (" + t.description() + "): " + SqlErrors.describe(e), e);
                }
                return nanoClock.getAsLong() - start;
            }
            try (Connection c = target.connect()) {
                TimedScript.Executor ex = TimedScript.jdbc(c);
                phase("before", parsed.before(), ex);
                try {
                    return TimedScript.timed(parsed.benchmarkOrNull(), ex, nanoClock);
                } catch (ScriptFailedException e) {
                    throw e.in("benchmark");
                }
            }
        }

        private void phase(String what, List<ScriptStatement> statements, TimedScript.Executor ex)
                throws ScriptFailedException {
            try {
                TimedScript.untimed(statements, ex);
            } catch (ScriptFailedException e) {
                throw e.in(what);
            }
        }

        /** After a failure: leave a shared target as found, if it still answers. */
        private void bestEffortCleanup(LaunchedTarget target, List<ScriptStatement> cleanup) {
            if (cleanup.isEmpty()) {
                return;
            }
            try (Connection c = target.connect()) {
                TimedScript.untimed(cleanup, TimedScript.jdbc(c));
            } catch (SQLException | ScriptFailedException | RuntimeException e) {
                messages.add("cleanup after the failure failed too: " + describe(e));
            }
        }

        private SideOutcome failed(String error) {
            return new SideOutcome.Failed(side, runNumber, error, messages);
        }

        private Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - started);
        }
    }

    private static String describe(Throwable t) {
        if (t instanceof ScriptFailedException || t instanceof ScenarioDefinitionException) {
            return t.getMessage(); // already says what and where
        }
        return SqlErrors.describe(t);
    }

    /**
     * What {@code SHOW name} gives for each name on the launched target, as the administrative user
     * ({@value CapabilityProbe#ADMIN_USER}) where there is one, else as the ordinary user (plain
     * PostgreSQL has no such role); {@value #ABSENT} for a name the target does not know (or when it
     * cannot be asked at all).
     */
    static Map<String, String> effectiveParams(LaunchedTarget target, Set<String> names) {
        Map<String, String> out = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return out;
        }
        List<String> sorted = names.stream().sorted().toList();
        Connection c = null;
        try {
            try {
                c = target.connect(CapabilityProbe.ADMIN_USER);
            } catch (SQLException e) {
                c = target.connect();
            }
            for (String n : sorted) {
                out.put(n, show(c, n));
            }
        } catch (SQLException e) {
            sorted.forEach(n -> out.putIfAbsent(n, ABSENT));
        } finally {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // read-only session
                }
            }
        }
        return out;
    }

    private static String show(Connection c, String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
            return ABSENT; // never sent: not a parameter name
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW " + name)) {
            if (rs.next()) {
                String v = rs.getString(1);
                return v == null ? ABSENT : v;
            }
            return ABSENT;
        } catch (SQLException e) {
            return ABSENT;
        }
    }

    /** What a timed action may do: connect, restart the launched target (same thread), read N. */
    private record Context(LaunchedTarget target, long n) implements FeatureContext {
        @Override
        public Connection connect() throws SQLException {
            return target.connect();
        }

        @Override
        public void restart() throws Exception {
            target.restart();
        }
    }
}
