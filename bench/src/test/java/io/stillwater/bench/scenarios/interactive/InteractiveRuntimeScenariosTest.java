package io.stillwater.bench.scenarios.interactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.gate.Overrides;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.load.Loop;
import io.stillwater.bench.runner.ScenarioSource;
import io.stillwater.bench.scenario.Capability;
import io.stillwater.bench.scenario.Phase;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.scenario.ScenarioDefinition;
import io.stillwater.bench.scenario.ScenarioDefinitionException;
import io.stillwater.bench.scenarios.GenericScenarios;
import io.stillwater.bench.scenarios.Suite;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every interactive-runtime scenario builds, validates and states what it measures consistently. */
class InteractiveRuntimeScenariosTest {

    private static final List<String> NAMES = List.of("TemporaryDataflowFloor", "IntrospectionUnderHydration",
            "FreshnessUnderPeekDataflows", "PeekIsolationUnderExpensivePeeks", "FreshnessUnderPeekWalks",
            "ReadIsolationUnderHydration", "MaintenanceUnderPeekSaturation");

    private static List<InteractiveRuntimeScenario> all() {
        return InteractiveRuntimeScenarios.all().stream()
                .map(s -> (InteractiveRuntimeScenario) s.constructor().get()).toList();
    }

    /** Built as the runner builds them for a Stillwater/Materialize target. */
    private static final Set<Capability> FULL = EnumSet.allOf(Capability.class);

    private static List<String> statements(ScenarioDefinition d) {
        List<String> out = new ArrayList<>();
        for (Phase p : d.phases()) {
            switch (p) {
                case Phase.Setup s -> out.addAll(s.statements());
                case Phase.Cleanup c -> out.addAll(c.statements());
                case Phase.SystemParameters s -> out.addAll(s.statements());
                case Phase.Load l -> { }
            }
        }
        return out;
    }

    private static List<Loop> loops(ScenarioDefinition d) {
        return d.phases().stream().filter(p -> p instanceof Phase.Load).flatMap(p -> ((Phase.Load) p).loops().stream())
                .toList();
    }

    private static ExpectedRows expected(Action a) {
        return switch (a) {
            case Action.StandaloneQuery q -> q.expected();
            case Action.ReuseConnQuery q -> q.expected();
            case Action.PooledQuery q -> q.expected();
            case Action.ScriptAction s -> null;
        };
    }

    @Test
    void theSevenScenariosInOrderEachBuildsAndValidates() {
        assertThat(InteractiveRuntimeScenarios.all()).extracting(ScenarioSource::name).containsExactlyElementsOf(NAMES);
        for (ScenarioSource source : InteractiveRuntimeScenarios.all()) {
            for (Set<Capability> target : List.of(Set.<Capability>of(), FULL)) {
                Scenario s = Scenario.buildFor(target, source.constructor());
                ScenarioDefinition d = s.definition(); // throws on unknown threshold/guarantee keys, duplicate names
                assertThat(d.name()).isEqualTo(source.name());
                assertThat(d.version()).as(d.name()).matches("\\d+\\.\\d+\\.\\d+");
                assertThat(d.warnings()).as(d.name()).isEmpty(); // closed loops gate qps and avg alike
                assertThat(d.phases().getFirst()).as(d.name()).isInstanceOf(Phase.Setup.class);
                assertThat(d.phases().getLast()).as(d.name()).isInstanceOf(Phase.Cleanup.class);
                assertThat(d.phases()).as(d.name()).filteredOn(p -> p instanceof Phase.Load).hasSize(1);
                assertThat(d.expectations()).as(d.name()).isNotEmpty();
            }
        }
        // not also in the generic set: a name is a scenario's identity in history and sharding
        assertThat(GenericScenarios.all()).extracting(ScenarioSource::name).doesNotContainAnyElementsOf(NAMES);
        // the registry: the main job's set, and every scenario once
        assertThat(Suite.INTERACTIVE.scenarios()).extracting(ScenarioSource::name).containsExactlyElementsOf(NAMES);
        assertThat(Suite.all()).extracting(ScenarioSource::name).doesNotHaveDuplicates()
                .containsAll(NAMES).hasSize(NAMES.size() + GenericScenarios.all().size());
    }

    @Test
    void everyScenarioNeedsClustersArrangementsIntrospectionAndTheInteractiveRuntime() {
        for (InteractiveRuntimeScenario s : all()) {
            assertThat(s.definition().requires()).as(s.name()).contains(Capability.CLUSTERS, Capability.ARRANGEMENTS,
                    Capability.INTROSPECTION, Capability.INTERACTIVE_RUNTIME);
        }
    }

    @Test
    void everyMeasuredQueryChecksItsAnswerAndGuaranteesNoErrors() {
        for (InteractiveRuntimeScenario s : all()) {
            ScenarioDefinition d = s.definition();
            List<Loop> measured = loops(d).stream().filter(Loop::reportRegressions).toList();
            assertThat(measured).as(s.name()).isNotEmpty();
            for (Loop loop : measured) {
                String name = loop.action().name();
                assertThat(expected(loop.action())).as(name).isNotNull();
                assertThat(d.guarantees().get(name)).as(name)
                        .anySatisfy(g -> {
                            assertThat(g.stat()).isEqualTo(Stat.ERROR_RATE);
                            assertThat(g.limit()).isZero();
                        });
                // each measured query declares where it must run
                assertThat(d.expectations()).as(name).containsKey(name);
            }
        }
    }

    /** A run whose contention failed measured a quiet replica: every loop guarantees no errors. */
    @Test
    void everyLoopContentionIncludedGuaranteesNoErrors() {
        for (InteractiveRuntimeScenario s : all()) {
            ScenarioDefinition d = s.definition();
            for (Loop loop : loops(d)) {
                assertThat(d.guarantees().get(loop.action().name())).as(loop.action().name()).isNotNull()
                        .anySatisfy(g -> {
                            assertThat(g.stat()).isEqualTo(Stat.ERROR_RATE);
                            assertThat(g.limit()).isZero();
                        });
            }
        }
    }

    @Test
    void contentionLoopsAreUngatedAndMeasuredLoopsUnderContentionAreContended() {
        Thresholds contended = Thresholds.DEFAULT.with(Overrides.CONTENDED);
        for (InteractiveRuntimeScenario s : all()) {
            ScenarioDefinition d = s.definition();
            List<Loop> loops = loops(d);
            boolean underContention = loops.stream().anyMatch(l -> !l.reportRegressions());
            for (Loop loop : loops) {
                Thresholds t = d.thresholdsFor(loop.action().name());
                if (!loop.reportRegressions()) {
                    assertThat(t).as(loop.action().name()).isEqualTo(Thresholds.ALL_UNGATED);
                } else if (underContention) {
                    assertThat(t).as(loop.action().name()).isEqualTo(contended);
                    assertThat(t.of(Stat.P99)).isEqualTo(Threshold.UNGATED);
                } else {
                    assertThat(t).as(loop.action().name()).isEqualTo(Thresholds.DEFAULT);
                }
            }
        }
        // the quiet floor is the only scenario without contention, and it keeps the defaults
        ScenarioDefinition floor = new TemporaryDataflowFloor().definition();
        assertThat(loops(floor)).singleElement().satisfies(l -> assertThat(l.reportRegressions()).isTrue());
    }

    @Test
    void everyScenarioCreatesTwoWorkerClustersAndDropsWhatItCreates() {
        Pattern create = Pattern.compile("CREATE CLUSTER (\\w+) \\(SIZE = 'scale=1,workers=(\\d+)'\\)");
        Pattern table = Pattern.compile("CREATE TABLE (\\w+) ");
        Set<String> clustersSeen = new HashSet<>();
        Set<String> tablesSeen = new HashSet<>();
        for (InteractiveRuntimeScenario s : all()) {
            ScenarioDefinition d = s.definition();
            List<String> setup = d.phases().stream().filter(p -> p instanceof Phase.Setup)
                    .flatMap(p -> ((Phase.Setup) p).statements().stream()).toList();
            List<String> cleanup = ((Phase.Cleanup) d.phases().getLast()).statements();
            List<String> clusters = new ArrayList<>();
            for (String stmt : setup) {
                Matcher m = create.matcher(stmt);
                if (m.matches()) {
                    clusters.add(m.group(1));
                    assertThat(stmt).as(s.name()).isEqualTo(InteractiveRuntimeScenario.createCluster(m.group(1),
                            Integer.parseInt(m.group(2))));
                }
                Matcher t = table.matcher(stmt);
                if (t.lookingAt()) {
                    assertThat(tablesSeen.add(t.group(1))).as("table %s used by two scenarios", t.group(1)).isTrue();
                    assertThat(t.group(1)).startsWith("bench_");
                    assertThat(setup).as(s.name()).anyMatch(x -> x.startsWith("DROP TABLE IF EXISTS " + t.group(1)));
                    assertThat(cleanup).as(s.name()).anyMatch(x -> x.startsWith("DROP TABLE " + t.group(1)));
                }
            }
            assertThat(clusters).as(s.name()).isNotEmpty();
            // the measured cluster (the first) has two workers
            assertThat(setup).as(s.name()).contains(InteractiveRuntimeScenario.createCluster(clusters.getFirst(), 2));
            for (String c : clusters) {
                assertThat(c).startsWith("bench_");
                assertThat(clustersSeen.add(c)).as("cluster %s used by two scenarios", c).isTrue();
                assertThat(setup.indexOf(InteractiveRuntimeScenario.dropCluster(c))).as(s.name())
                        .isLessThan(setup.indexOf(createClusterOf(setup, c)));
                assertThat(cleanup).as(s.name()).contains(InteractiveRuntimeScenario.dropCluster(c));
            }
        }
    }

    private static String createClusterOf(List<String> setup, String cluster) {
        return setup.stream().filter(x -> x.startsWith("CREATE CLUSTER " + cluster + " ")).findFirst().orElseThrow();
    }

    /**
     * The offload scenarios provision a solo replica on every side: the flag is set as mz_system
     * right before the cluster is created and reset right after, so nothing else in the run sees it.
     */
    @Test
    void offloadScenariosProvisionTheirReplicaSoloAndResetTheFlagRightAfter() {
        for (InteractiveRuntimeScenario s : List.of(new PeekIsolationUnderExpensivePeeks(),
                new FreshnessUnderPeekWalks())) {
            ScenarioDefinition d = s.definition();
            assertThat(d.requires()).as(s.name()).contains(Capability.SYSTEM_PARAMETERS);
            List<Phase> phases = d.phases();
            int set = -1;
            for (int i = 0; i < phases.size(); i++) {
                if (phases.get(i) instanceof Phase.SystemParameters p
                        && p.statements().equals(List.of("ALTER SYSTEM SET enable_compute_interactive_runtime = false"))) {
                    set = i;
                }
            }
            assertThat(set).as(s.name()).isPositive();
            assertThat(phases.get(set)).isEqualTo(new Phase.SystemParameters("mz_system",
                    List.of("ALTER SYSTEM SET enable_compute_interactive_runtime = false")));
            assertThat(phases.get(set + 1)).as(s.name()).isInstanceOfSatisfying(Phase.Setup.class,
                    p -> assertThat(p.statements()).singleElement().asString().startsWith("CREATE CLUSTER "));
            assertThat(phases.get(set + 2)).isEqualTo(new Phase.SystemParameters("mz_system",
                    List.of("ALTER SYSTEM RESET enable_compute_interactive_runtime")));
            assertThat(d.expectations().values()).as(s.name()).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.runtime()).isEqualTo(PeekExpectation.Runtime.SOLO));
        }
        // the others follow the side's flag and never touch system parameters
        for (InteractiveRuntimeScenario s : all()) {
            if (s instanceof PeekIsolationUnderExpensivePeeks || s instanceof FreshnessUnderPeekWalks) {
                continue;
            }
            assertThat(s.definition().phases()).as(s.name()).noneMatch(p -> p instanceof Phase.SystemParameters);
            // the read runtime of whatever replica the side provisions: interactive with the defaults, solo with
            // the flag off; so the same declaration holds on both sides of the main job
            assertThat(s.definition().expectations().values()).as(s.name()).isNotEmpty()
                    .allSatisfy(e -> assertThat(e.runtime()).isEqualTo(PeekExpectation.Runtime.READ));
        }
    }

    /** Measured reads of the freshness scenarios are strict serializable; service-time reads serializable. */
    @Test
    void isolationLevelsMatchWhatIsMeasured() {
        Map<String, String> freshnessReads = Map.of(
                "FreshnessUnderPeekDataflows", "SELECT n, s FROM bench_fpd_mv WHERE k = 1 (reuse connection)",
                "FreshnessUnderPeekWalks", "SELECT v FROM bench_fpw_w WHERE k = 1 (reuse connection)",
                "MaintenanceUnderPeekSaturation", "SELECT n, s FROM bench_mps_mv WHERE k = 1 (reuse connection)");
        for (InteractiveRuntimeScenario s : all()) {
            ScenarioDefinition d = s.definition();
            for (Loop loop : loops(d)) {
                if (!loop.action().name().startsWith("SELECT")) {
                    continue; // writes and churn scripts
                }
                List<String> setup = switch (loop.action()) {
                    case Action.ReuseConnQuery q -> q.setup();
                    case Action.PooledQuery q -> d.poolSetup();
                    case Action.StandaloneQuery q -> q.setup();
                    case Action.ScriptAction x -> throw new AssertionError("a script named SELECT: " + x);
                };
                String want = loop.action().name().equals(freshnessReads.get(s.name()))
                        ? InteractiveRuntimeScenario.STRICT_SERIALIZABLE : InteractiveRuntimeScenario.SERIALIZABLE;
                assertThat(setup).as(loop.action().name()).contains(want)
                        .anyMatch(x -> x.startsWith("SET cluster = bench_"));
            }
        }
        assertThat(freshnessReads.keySet()).allSatisfy(n -> assertThat(NAMES).contains(n));
    }

    /** A scenario whose expectation names an action it never runs fails, naming the valid ones. */
    static final class ExpectsUnknownAction extends InteractiveRuntimeScenario {
        ExpectsUnknownAction() {
            var read = reuseConn("SELECT 1");
            load(Duration.ofSeconds(1), closedLoop(read));
            expect(reuseConn("SELECT 2"), PeekExpectation.onReadRuntime().fastPath().notOffloaded());
        }
    }

    static final class ExpectsAScript extends InteractiveRuntimeScenario {
        ExpectsAScript() {
            var churn = script("SELECT 1", "SELECT 2");
            load(Duration.ofSeconds(1), closedLoop(churn));
            expect(churn, PeekExpectation.onReadRuntime());
        }
    }

    @Test
    void expectationsAreValidatedAgainstTheScenariosActions() {
        assertThatThrownBy(() -> new ExpectsUnknownAction().definition())
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("peek expectation for unknown action \"SELECT 2 (reuse connection)\"")
                .hasMessageContaining("\"SELECT 1 (reuse connection)\"");
        assertThatThrownBy(() -> new ExpectsAScript().definition()).isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("peek expectation for the script");
        assertThat(new TemporaryDataflowFloor().definition().expectations()).containsExactly(Map.entry(
                "SELECT count(*) FROM bench_tdf_a JOIN bench_tdf_b USING (k) (reuse connection)",
                PeekExpectation.onReadRuntime().dataflow()));
        assertThat(new ReadIsolationUnderHydration().definition().expectations()).containsEntry(
                "SELECT v FROM bench_rih_hot WHERE k = 42 (pooled)",
                new PeekExpectation(PeekExpectation.Runtime.READ, PeekExpectation.Path.FAST_PATH,
                        PeekExpectation.Offload.NOT_OFFLOADED));
    }

    /** Setup and cleanup only use SQL the engine's issue-5 surface has (and Materialize accepts). */
    @Test
    void setupUsesOnlyTheClusterSurface() {
        Pattern allowed = Pattern.compile("^(DROP CLUSTER IF EXISTS|CREATE CLUSTER|SET cluster ="
                + "|SET transaction_isolation = 'serializable'|DROP TABLE|CREATE TABLE|INSERT INTO|CREATE (DEFAULT )?INDEX|CREATE MATERIALIZED VIEW \\w+ IN CLUSTER|CREATE VIEW|SELECT "
                + "|ALTER SYSTEM (SET|RESET) enable_compute_interactive_runtime)");
        for (InteractiveRuntimeScenario s : all()) {
            assertThat(statements(s.definition())).as(s.name()).allMatch(x -> allowed.matcher(x).find());
            assertThat(statements(s.definition())).as(s.name()).filteredOn(x -> x.contains("INDEX ") && x.startsWith("CREATE"))
                    .allMatch(x -> x.contains(" IN CLUSTER bench_"));
        }
    }
}
