package io.stillwater.bench.feature.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.feature.scenario.FeatureSuite;
import io.stillwater.bench.feature.scenario.ScaleOption;
import io.stillwater.bench.feature.scenario.ScriptStatement;
import io.stillwater.bench.feature.scenario.Scripts;
import io.stillwater.bench.scenario.Capability;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

/** The catalog's static shape: every scenario loads, renders, marks its span and cleans up after itself. */
class FeatureCatalogTest {
    private static final List<Class<? extends FeatureScenario>> ALL = FeatureCatalog.all();

    /** The issue's list, in report order. */
    private static final List<String> ISSUE_NAMES = List.of(
            "FastPathFilterNoIndex", "FastPathFilterIndex", "FastPathOrderByLimit", "FastPathLimit",
            "Insert", "ManySmallInserts", "InsertBatch", "InsertMultiRow", "Update", "ManySmallUpdates", "InsertAndSelect",
            "OrderBy", "CountDistinct", "MinMax", "MinMaxMaintained", "GroupBy", "GroupByMaintained", "CrossJoin",
            "DeltaJoin", "DifferentialJoin", "FullOuterJoin", "AccumulateReductions", "Retraction",
            "CreateIndex", "HydrateIndex", "StartupEmpty", "StartupLoaded", "QueryLatency", "ConnectionLatency",
            "PeekDataflowJoin", "IntrospectionRead", "ManyIndexesIdle", "ManyIndexesRestart", "ManyReexportsIdle");

    /** Scenarios that must run on plain PostgreSQL: no capability, no Materialize-only SQL. */
    private static final Set<String> PORTABLE = Set.of(
            "FastPathFilterNoIndex", "FastPathFilterIndex", "FastPathOrderByLimit", "FastPathLimit",
            "Insert", "ManySmallInserts", "InsertBatch", "InsertMultiRow", "Update", "ManySmallUpdates", "InsertAndSelect",
            "OrderBy", "CountDistinct", "MinMax", "GroupBy", "CrossJoin", "DeltaJoin", "DifferentialJoin",
            "FullOuterJoin", "CreateIndex", "QueryLatency", "ConnectionLatency", "StartupEmpty");

    /** SQL PostgreSQL does not have (or has with another meaning). */
    private static final Pattern MATERIALIZE_ONLY = Pattern.compile(
            "materialized view|default index|\\bcluster\\b|in cluster|\\bmz_\\w*\\.", Pattern.CASE_INSENSITIVE);

    private static FeatureScenario instance(Class<? extends FeatureScenario> c, ScaleOption scale) {
        try {
            FeatureScenario s = c.getConstructor().newInstance();
            s.applyScale(scale);
            return s;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(c.getName() + " cannot be instantiated", e);
        }
    }

    private static List<FeatureScenario> all(ScaleOption scale) {
        return ALL.stream().map(c -> instance(c, scale)).toList();
    }

    private static final ScaleOption TWO = new ScaleOption(2, false);

    @Test
    void theCatalogIsTheIssuesListInReportOrder() {
        assertThat(ALL.stream().map(Class::getSimpleName)).containsExactlyElementsOf(ISSUE_NAMES);
        assertThat(ALL).doesNotHaveDuplicates();
    }

    @Test
    void everyScenarioIsAConcretePublicClassWithAPublicNoArgumentConstructor() throws Exception {
        for (Class<? extends FeatureScenario> c : ALL) {
            assertThat(Modifier.isAbstract(c.getModifiers())).as(c.getName()).isFalse();
            assertThat(Modifier.isPublic(c.getModifiers())).as(c.getName()).isTrue();
            Constructor<? extends FeatureScenario> ctor = c.getConstructor();
            assertThat(Modifier.isPublic(ctor.getModifiers())).as(c.getName()).isTrue();
        }
    }

    @Test
    void theSuiteLoadsAtScaleTwoAndAtTheDefaultScales() {
        // load() instantiates, scales, parses every script and rejects duplicates
        assertThat(FeatureSuite.load(ALL, TWO).scenarios()).hasSize(ALL.size());
        FeatureSuite defaults = FeatureSuite.load(ALL, ScaleOption.NONE);
        assertThat(defaults.scenarios()).extracting(FeatureScenario::name).containsExactlyElementsOf(ISSUE_NAMES);
        for (FeatureScenario s : defaults.scenarios()) {
            assertThat(s.scale()).as(s.name()).isEqualTo(s.defaultScale());
        }
    }

    @Test
    void scaleTwoReachesEveryScenarioExceptThoseWithAFixedScale() {
        for (FeatureScenario s : all(TWO)) {
            assertThat(s.scale()).as(s.name()).isEqualTo(s.fixedScale() ? s.defaultScale() : 2.0);
        }
        assertThat(all(TWO).stream().filter(FeatureScenario::fixedScale).map(FeatureScenario::name))
                .containsExactlyInAnyOrder("QueryLatency", "ConnectionLatency", "StartupEmpty", "IntrospectionRead");
    }

    @Test
    void everyScriptBodyMarksExactlyOneStartAndOneStopAndTimedBodiesRestartOnlyWhereDeclared() {
        for (ScaleOption scale : List.of(TWO, ScaleOption.NONE)) {
            for (FeatureScenario s : all(scale)) {
                Body body = s.benchmark();
                if (body instanceof Body.Script script) {
                    List<ScriptStatement> st = Scripts.parseBenchmark(s.name(), script.sql());
                    assertThat(st.stream().filter(ScriptStatement::startsTimer)).as(s.name()).hasSize(1);
                    assertThat(st.stream().filter(ScriptStatement::stopsTimer)).as(s.name()).hasSize(1);
                    assertThat(s.restarts()).as(s.name() + " restarts but has a script body").isFalse();
                } else {
                    assertThat(((Body.Timed) body).description()).as(s.name()).isNotBlank();
                }
            }
        }
        assertThat(all(TWO).stream().filter(FeatureScenario::restarts).map(FeatureScenario::name))
                .containsExactlyInAnyOrder("StartupEmpty", "StartupLoaded", "ManyIndexesRestart");
    }

    @Test
    void everyCountIsCheckedSoAWrongAnswerCannotTimeFast() {
        for (FeatureScenario s : all(TWO)) {
            if (s.benchmark() instanceof Body.Script script) {
                for (ScriptStatement st : Scripts.parse(script.sql())) {
                    if (st.sql().toLowerCase(Locale.ROOT).contains("count(")) {
                        assertThat(st.expected()).as(s.name() + ": " + st.sql()).isPresent();
                    }
                }
            }
        }
    }

    @Test
    void portableScenariosDeclareNoCapabilityAndUseNoMaterializeOnlySql() {
        for (FeatureScenario s : all(TWO)) {
            String everything = String.join("\n", s.cleanup(), s.shared(), s.init(), s.before(),
                    s.benchmark().rendered());
            if (PORTABLE.contains(s.name())) {
                assertThat(s.requires()).as(s.name()).isEmpty();
                assertThat(MATERIALIZE_ONLY.matcher(everything).find()).as(s.name() + ":\n" + everything).isFalse();
            } else {
                assertThat(s.requires()).as(s.name() + " uses Materialize SQL, so it must say what it needs")
                        .isNotEmpty();
            }
            if (MATERIALIZE_ONLY.matcher(everything).find()) {
                assertThat(s.requires()).as(s.name()).containsAnyOf(Capability.ARRANGEMENTS, Capability.CLUSTERS,
                        Capability.INTROSPECTION, Capability.INTERACTIVE_RUNTIME);
            }
        }
    }

    @Test
    void theInteractiveRuntimeGroupDependsOnTheParameterAndNeedsTheRuntime() {
        for (FeatureScenario s : all(TWO)) {
            boolean group = FeatureSuite.groupPath(s.getClass()).contains("InteractiveRuntime");
            if (group) {
                assertThat(s.dependsOnParams()).as(s.name()).containsExactly("enable_compute_interactive_runtime");
                assertThat(s.requires()).as(s.name()).contains(Capability.INTERACTIVE_RUNTIME);
            } else {
                assertThat(s.dependsOnParams()).as(s.name()).isEmpty();
            }
        }
        assertThat(ALL.stream().filter(c -> FeatureSuite.groupPath(c).contains("ManyIndexes")).map(Class::getSimpleName))
                .containsExactly("ManyIndexesIdle", "ManyIndexesRestart", "ManyReexportsIdle");
    }

    @Test
    void theGroupsAreTheClassHierarchy() {
        assertThat(FeatureSuite.groups(ALL)).containsExactlyInAnyOrder("FastPath", "Dml", "Dataflow", "Maintained",
                "Index", "Startup", "Coordinator", "InteractiveRuntime", "ManyIndexes");
        assertThat(FeatureSuite.groupPath(Dataflow.MinMaxMaintained.class)).containsExactly("Dataflow", "Maintained");
        assertThat(FeatureSuite.select(ALL, "Dataflow", List.of())).hasSize(12);
        assertThat(FeatureSuite.select(ALL, "Maintained", List.of()).stream().map(Class::getSimpleName))
                .containsExactly("MinMaxMaintained", "GroupByMaintained", "AccumulateReductions", "Retraction");
    }

    /** Cleanup drops only, tolerates absence, and covers what init creates, so re-runs and shared servers start clean. */
    @Test
    void cleanupDropsWhatInitCreatesAndToleratesAbsence() {
        Pattern created = Pattern.compile("create (?:table|cluster) (\\w+)", Pattern.CASE_INSENSITIVE);
        for (FeatureScenario s : all(TWO)) {
            List<ScriptStatement> cleanup = Scripts.parse(s.cleanup());
            for (ScriptStatement st : cleanup) {
                assertThat(st.sql()).as(s.name()).matches("(?is)DROP (TABLE|INDEX|CLUSTER|VIEW|MATERIALIZED VIEW) IF EXISTS .*");
            }
            var m = created.matcher(s.init() + "\n" + s.before());
            while (m.find()) {
                String object = m.group(1);
                assertThat(cleanup.stream().map(ScriptStatement::sql))
                        .as(s.name() + " creates " + object + " but its cleanup does not drop it")
                        .anyMatch(d -> Pattern.compile("IF EXISTS " + object + "( |$)").matcher(d).find());
            }
        }
    }

    /** Objects are named per scenario, so a leftover of one never collides with another's setup. */
    @Test
    void noTwoScenariosCreateTheSameTable() {
        Pattern created = Pattern.compile("create table (\\w+)", Pattern.CASE_INSENSITIVE);
        Map<String, String> owner = new HashMap<>();
        for (FeatureScenario s : all(TWO)) {
            var m = created.matcher(s.init() + "\n" + s.before());
            Set<String> mine = new HashSet<>();
            while (m.find()) {
                mine.add(m.group(1));
            }
            for (String t : mine) {
                String other = owner.putIfAbsent(t, s.name());
                if (other != null && !(FeatureSuite.groupPath(s.getClass()).contains("ManyIndexes"))) {
                    throw new AssertionError(s.name() + " and " + other + " both create table " + t);
                }
            }
        }
    }

    /** Any scale in the range the command line is used with renders valid scripts. */
    @Property(tries = 40)
    void everyScenarioRendersAtAnyReasonableScale(@ForAll @DoubleRange(min = 0.5, max = 3.5) double scale) {
        FeatureSuite suite = FeatureSuite.load(ALL, new ScaleOption(scale, false));
        for (FeatureScenario s : suite.scenarios()) {
            assertThat(s.n()).as(s.name()).isPositive();
            for (String script : List.of(s.cleanup(), s.init(), s.before())) {
                Scripts.parse(script);
            }
        }
    }
}
