package io.stillwater.bench.runner;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.action.SqlErrors;
import io.stillwater.bench.action.StatementFailedException;
import io.stillwater.bench.gate.Guarantee;
import io.stillwater.bench.gate.GuaranteeViolation;
import io.stillwater.bench.gate.Side;
import io.stillwater.bench.gate.StatVerdict;
import io.stillwater.bench.gate.Verdicts;
import io.stillwater.bench.load.BoundLoop;
import io.stillwater.bench.load.LoadDriver;
import io.stillwater.bench.load.LoadPhaseReport;
import io.stillwater.bench.load.Loop;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Phase;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.LatencyRecorder;
import io.stillwater.bench.stats.Sample;
import io.stillwater.bench.verify.PeekVerifier;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs scenarios against a target, one after another. A scenario that throws in construction,
 * validation, setup, load or cleanup is reported FAILED with its error and the runner continues
 * with the next one; nothing a scenario does can end the run. Not thread-safe: one run at a time.
 */
public final class Runner {
    private final Duration loadDurationOverride;
    private final LoadPhaseListener listener;
    private final LoadDriver driver = new LoadDriver(SqlErrors::describe);

    /** Every load phase runs for its declared duration. */
    public Runner() {
        this(null);
    }

    /** @param loadDurationOverride if non-null, the duration of every load phase of every scenario */
    public Runner(Duration loadDurationOverride) {
        this(loadDurationOverride, LoadPhaseListener.NONE);
    }

    /** As {@link #Runner(Duration)}, telling {@code listener} about every load phase (progress bars). */
    public Runner(Duration loadDurationOverride, LoadPhaseListener listener) {
        this.loadDurationOverride = loadDurationOverride;
        this.listener = listener;
    }

    public List<ScenarioResult> run(Target target, List<ScenarioSource> scenarios) {
        List<ScenarioResult> out = new ArrayList<>();
        for (ScenarioSource s : scenarios) {
            out.add(run(target, s));
        }
        return out;
    }

    /**
     * Runs {@code source} {@code runsPerSide} times on each side, interleaved this, other, this,
     * other, ..., and compares each side's median per stat with the scenario's thresholds. Failed
     * runs are excluded from the medians and listed as problems.
     */
    public ScenarioComparison compare(Target thisSide, Target otherSide, ScenarioSource source, int runsPerSide) {
        return compare(TargetLauncher.existing(thisSide), TargetLauncher.existing(otherSide), source, runsPerSide);
    }

    /**
     * As {@link #compare(Target, Target, ScenarioSource, int)}, launching each side afresh for every
     * run (see {@link #run(TargetLauncher, ScenarioSource)}).
     */
    public ScenarioComparison compare(TargetLauncher thisSide, TargetLauncher otherSide, ScenarioSource source,
            int runsPerSide) {
        List<ScenarioResult> thisRuns = new ArrayList<>();
        List<ScenarioResult> otherRuns = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Side side : Side.interleaved(runsPerSide)) {
            List<ScenarioResult> runs = side == Side.THIS ? thisRuns : otherRuns;
            ScenarioResult r = run(side == Side.THIS ? thisSide : otherSide, source);
            runs.add(r);
            if (r.status() != ScenarioResult.Status.COMPLETED) {
                problems.add(side.name().toLowerCase(Locale.ROOT) + " run " + runs.size() + " "
                        + r.status() + ": " + r.failure());
            }
        }
        ScenarioDefinition def;
        try {
            // Built without a target: thresholds and action names never depend on target capabilities
            // (Scenario.targetHas may only choose setup and cleanup statements).
            def = source.constructor().get().definition();
        } catch (Throwable t) {
            return new ScenarioComparison(source.name(), thisRuns, otherRuns, List.of(), problems);
        }
        List<StatVerdict> verdicts = Verdicts.compare(completed(thisRuns), completed(otherRuns), def::thresholdsFor);
        return new ScenarioComparison(source.name(), thisRuns, otherRuns, verdicts, problems);
    }

    private static List<Map<String, ActionStatistics>> completed(List<ScenarioResult> runs) {
        return runs.stream().filter(r -> r.status() == ScenarioResult.Status.COMPLETED)
                .map(ScenarioResult::actions).toList();
    }

    /**
     * Launches the target, runs the scenario on it and closes it. A launch that throws
     * {@link TargetSkipException} gives a SKIPPED result with its reason; any other launch failure
     * a FAILED one ("starting the target: ..."). Messages from the launch are added to the result's.
     */
    public ScenarioResult run(TargetLauncher launcher, ScenarioSource source) {
        TargetLauncher.LaunchedTarget target;
        switch (SideLaunch.launch(launcher)) {
            case SideLaunch.Skipped s -> {
                return new ScenarioResult(source.name(), version(source), ScenarioResult.Status.SKIPPED, s.reason(),
                        Map.of(), Map.of(), List.of(), List.of(), List.of(), List.of());
            }
            case SideLaunch.Failed f -> {
                return new ScenarioResult(source.name(), version(source), ScenarioResult.Status.FAILED, f.error(),
                        Map.of(), Map.of(), List.of(), List.of(), List.of(), List.of());
            }
            case SideLaunch.Up up -> target = up.target();
        }
        List<String> messages = new ArrayList<>(target.messages());
        ScenarioResult r;
        try {
            r = run(target, source);
        } finally {
            SideLaunch.close(target).ifPresent(e -> messages.add("stopping the target: " + e));
        }
        if (messages.isEmpty()) {
            return r;
        }
        messages.addAll(r.messages());
        return new ScenarioResult(r.scenario(), r.version(), r.status(), r.failure(), r.actions(), r.timeSeries(),
                r.loadPhases(), messages, r.warnings(), r.violations());
    }

    /** The scenario's version for a result that never reached its constructor's target; "" if it cannot be built. */
    private static String version(ScenarioSource source) {
        try {
            return source.constructor().get().version();
        } catch (Throwable t) {
            return "";
        }
    }

    public ScenarioResult run(Target target, ScenarioSource source) {
        ScenarioDefinition def;
        try {
            Scenario scenario = Scenario.buildFor(target.capabilities(), source.constructor());
            def = scenario.definition();
        } catch (Throwable t) {
            return new ScenarioResult(source.name(), "", ScenarioResult.Status.FAILED,
                    "construction: " + SqlErrors.describe(t), Map.of(), Map.of(), List.of(), List.of(), List.of(),
                    List.of());
        }
        Set<Capability> missing = SideLaunch.missing(def.requires(), target.capabilities());
        if (!missing.isEmpty()) {
            return new ScenarioResult(def.name(), def.version(), ScenarioResult.Status.SKIPPED,
                    "target lacks " + missing, Map.of(), Map.of(), List.of(), List.of(), def.warnings(), List.of());
        }
        return new Execution(target, def).run();
    }

    /** One scenario run; owns the recorders and the pool for its duration (runner thread). */
    private final class Execution {
        private final Target target;
        private final ScenarioDefinition def;
        private final Map<String, LatencyRecorder> recorders = new LinkedHashMap<>();
        private final List<LoadPhaseReport> loadReports = new ArrayList<>();
        private final List<String> messages = new ArrayList<>();
        private ConnectionPool pool;
        private long origin = -1;

        Execution(Target target, ScenarioDefinition def) {
            this.target = target;
            this.def = def;
        }

        ScenarioResult run() {
            String failure = null;
            String invalid = "";
            // Where the measured queries ran is checked right after the last load phase:
            // cleanup may drop the cluster whose replica holds the peek history.
            int lastLoad = 0;
            for (int i = 1; i <= def.phases().size(); i++) if (def.phases().get(i - 1) instanceof Phase.Load) lastLoad = i;
            try {
                int index = 0;
                for (Phase phase : def.phases()) {
                    index++;
                    if (failure != null && !(phase instanceof Phase.Cleanup)) {
                        continue;
                    }
                    try {
                        runPhase(phase);
                        if (index == lastLoad) invalid = verify();
                    } catch (Throwable t) {
                        String text = "phase " + index + " (" + kind(phase) + "): " + SqlErrors.describe(t);
                        if (failure == null) {
                            failure = text;
                        } else {
                            messages.add("after the failure, " + text);
                        }
                    }
                }
            } finally {
                if (pool != null) {
                    pool.close();
                }
            }
            if (failure != null) invalid = "";
            Map<String, ActionStatistics> stats = new LinkedHashMap<>();
            Map<String, List<Sample>> series = new LinkedHashMap<>();
            List<GuaranteeViolation> violations = new ArrayList<>();
            recorders.forEach((name, r) -> {
                ActionStatistics s = r.statistics();
                stats.put(name, s);
                series.put(name, r.samples());
                for (Guarantee g : def.guarantees().getOrDefault(name, List.of())) {
                    g.check(s).ifPresent(violations::add);
                }
            });
            ScenarioResult.Status status = failure != null ? ScenarioResult.Status.FAILED
                    : !invalid.isEmpty() ? ScenarioResult.Status.INVALID : ScenarioResult.Status.COMPLETED;
            return new ScenarioResult(def.name(), def.version(), status,
                    failure != null ? failure : invalid, stats, series, loadReports, messages, def.warnings(),
                    violations);
        }

        /**
         * Self-verification after the last load phase: "" when the scenario declares no expectations or
         * they held, else why the run is INVALID (including "cannot verify" on a target without a
         * peek history).
         */
        private String verify() {
            if (def.expectations().isEmpty()) {
                return "";
            }
            try (Connection c = target.connect()) {
                PeekVerifier.Verification v = PeekVerifier.verifyAll(c, def.expectations(), def.actions());
                messages.addAll(v.findings()); // where the reads ran, valid or not: both sides, in every report
                return v.failure();
            } catch (SQLException e) {
                return "cannot verify where the queries ran: connecting failed: " + SqlErrors.describe(e);
            }
        }

        private void runPhase(Phase phase) throws Exception {
            switch (phase) {
                case Phase.Setup s -> script(s.statements());
                case Phase.Cleanup c -> script(c.statements());
                case Phase.SystemParameters p -> systemParameters(p);
                case Phase.Load l -> load(l);
            }
        }

        private void script(List<String> statements) throws SQLException, StatementFailedException {
            try (Connection c = target.connect()) {
                for (String s : statements) {
                    try {
                        SqlExecution.execute(c, s);
                    } catch (SQLException e) {
                        throw new StatementFailedException(s, e);
                    }
                }
            }
        }

        private void systemParameters(Phase.SystemParameters p) throws SQLException, StatementFailedException {
            try (Connection c = target.connect(p.user())) {
                for (String s : p.statements()) {
                    try {
                        SqlExecution.execute(c, s);
                    } catch (SQLException e) {
                        if (!"42704".equals(e.getSQLState())) {
                            throw new StatementFailedException(s, e);
                        }
                        messages.add("skipped `" + s + "`: the target has no such parameter ("
                                + SqlErrors.describe(e) + ")");
                    }
                }
            }
        }

        private void load(Phase.Load l) throws Exception {
            List<BoundLoop> bound = new ArrayList<>();
            for (Loop loop : l.loops()) {
                Action a = loop.action();
                LatencyRecorder r = recorders.computeIfAbsent(a.name(), LatencyRecorder::new);
                bound.add(new BoundLoop(loop, JdbcInvokers.of(a, target, this::pool), r));
            }
            if (origin < 0) {
                origin = System.nanoTime();
            }
            Duration d = loadDurationOverride != null ? loadDurationOverride : l.duration();
            try (LoadPhaseListener.Running running = listener.started(def.name(), loadReports.size() + 1, d)) {
                loadReports.add(driver.run(d, bound, origin));
            }
        }

        /** Opened on first use by a pooled action, after the setup phases it may depend on. */
        private ConnectionPool pool() {
            if (pool == null) {
                try {
                    pool = new ConnectionPool(target, def.poolSize(), def.poolSetup());
                } catch (SQLException e) {
                    throw new IllegalStateException("opening the connection pool: " + SqlErrors.describe(e), e);
                }
            }
            return pool;
        }

        private static String kind(Phase p) {
            return switch (p) {
                case Phase.Setup s -> "setup";
                case Phase.Cleanup c -> "cleanup";
                case Phase.SystemParameters s -> "system parameters";
                case Phase.Load l -> "load";
            };
        }
    }
}
