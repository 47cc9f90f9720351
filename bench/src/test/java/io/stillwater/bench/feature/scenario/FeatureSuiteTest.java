package io.stillwater.bench.feature.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.scenario.ScenarioDefinitionException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FeatureSuiteTest {

    // a small catalog: FeatureScenario > Dataflow > Join > {DeltaJoin, CrossJoin}; Dataflow > OrderBy;
    // FeatureScenario > Dml > Insert; FeatureScenario > Direct

    public abstract static class Dataflow extends FeatureScenario {
        @Override
        public String init() {
            return "CREATE TABLE t (a int); INSERT INTO t SELECT g FROM generate_series(1, " + n() + ") g";
        }
    }

    public abstract static class Join extends Dataflow {
    }

    public static final class DeltaJoin extends Join {
        @Override
        public Body benchmark() {
            return Body.script("SELECT count(*) FROM t t1 JOIN t t2 USING (a) /* A */ /* B */");
        }
    }

    public static final class CrossJoin extends Join {
        @Override
        public Body benchmark() {
            return Body.script("SELECT count(*) FROM t t1, t t2 /* A */ /* B */");
        }
    }

    public static final class OrderBy extends Dataflow {
        @Override
        public Body benchmark() {
            return Body.script("SELECT * FROM t ORDER BY a /* A */ /* B */");
        }
    }

    public abstract static class Dml extends FeatureScenario {
    }

    public static final class Insert extends Dml {
        @Override
        public String init() {
            return "CREATE TABLE i (a int)";
        }

        @Override
        public Body benchmark() {
            return Body.script("INSERT INTO i VALUES (1) /* A */ /* B */");
        }
    }

    public static final class Direct extends FeatureScenario {
        @Override
        public double defaultScale() {
            return 3;
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT " + n() + " /* A */ /* B */");
        }
    }

    public static final class Fixed extends FeatureScenario {
        @Override
        public double defaultScale() {
            return 2;
        }

        @Override
        public boolean fixedScale() {
            return true;
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 'fixed' /* A */ /* B */");
        }
    }

    private static final List<Class<? extends FeatureScenario>> CATALOG =
            List.of(DeltaJoin.class, CrossJoin.class, OrderBy.class, Insert.class, Direct.class);

    // duplicates

    public static final class Copy1 extends FeatureScenario {
        @Override
        public String init() {
            return "CREATE TABLE c (a int);";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT count(*) FROM c /* A */; SELECT 1 /* B */");
        }
    }

    public static final class Copy2 extends FeatureScenario {
        @Override
        public String init() {
            return "CREATE TABLE c (a int);";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT count(*) FROM c /* A */; SELECT 1 /* B */");
        }
    }

    /** Copy1 again, differing only in case, whitespace, semicolons, comments and where markers sit. */
    public static final class Disguised extends FeatureScenario {
        @Override
        public String init() {
            return "-- the table\ncreate   TABLE C(A INT)";
        }

        @Override
        public Body benchmark() {
            return Body.script("/*A*/ select COUNT(*)\n\tfrom c;;\nSELECT 1 /* B */ ;");
        }
    }

    /** Same as Copy1 but a different literal: a different workload. */
    public static final class DifferentLiteral extends FeatureScenario {
        @Override
        public String init() {
            return "CREATE TABLE c (a int);";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT count(*) FROM c /* A */; SELECT 2 /* B */");
        }
    }

    public static final class Timed1 extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.timed("restart; SELECT count(*) FROM all_v", ctx -> ctx.restart());
        }
    }

    public static final class Timed2 extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.timed("RESTART;   select COUNT(*) from ALL_V", ctx -> ctx.restart());
        }
    }

    @Test
    void twoIdenticalScenariosFailTheLoadNamingBoth() {
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Copy1.class, Insert.class, Copy2.class), ScaleOption.NONE))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("scenarios Copy1 and Copy2 are duplicates");
    }

    @Test
    void variantsDifferingOnlyInCaseWhitespaceSemicolonsAndCommentsAreDuplicates() {
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Copy1.class, Disguised.class), ScaleOption.NONE))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("Copy1 and Disguised are duplicates");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Timed1.class, Timed2.class), ScaleOption.NONE))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("Timed1 and Timed2 are duplicates");
    }

    @Test
    void everyDuplicatePairIsReportedAtOnce() {
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Copy1.class, Copy2.class, Timed1.class, Timed2.class),
                ScaleOption.NONE))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("(2 problems)")
                .hasMessageContaining("Copy1 and Copy2")
                .hasMessageContaining("Timed1 and Timed2");
    }

    @Test
    void differentBodiesLoadInOrderWithTheScaleApplied() {
        FeatureSuite suite = FeatureSuite.load(List.of(Copy1.class, DifferentLiteral.class, Timed1.class, DeltaJoin.class,
                CrossJoin.class, Copy1.class), ScaleOption.NONE);
        assertThat(suite.scenarios()).extracting(FeatureScenario::name)
                .containsExactly("Copy1", "DifferentLiteral", "Timed1", "DeltaJoin", "CrossJoin");
        assertThat(suite.scenarios()).extracting(FeatureScenario::scale).containsOnly(FeatureScenario.DEFAULT_SCALE);
    }

    @Test
    void scaleIsAppliedAbsoluteOrRelativeAndFixedScaleIgnoresIt() {
        List<Class<? extends FeatureScenario>> classes = List.of(Direct.class, Fixed.class, OrderBy.class);
        assertThat(FeatureSuite.load(classes, ScaleOption.NONE).scenarios()).extracting(FeatureScenario::scale)
                .containsExactly(3.0, 2.0, 5.0);
        assertThat(FeatureSuite.load(classes, ScaleOption.parse("4")).scenarios()).extracting(FeatureScenario::scale)
                .containsExactly(4.0, 2.0, 4.0);
        FeatureSuite relative = FeatureSuite.load(classes, ScaleOption.parse("-1"));
        assertThat(relative.scenarios()).extracting(FeatureScenario::scale).containsExactly(2.0, 2.0, 4.0);
        assertThat(relative.scenarios()).extracting(FeatureScenario::n).containsExactly(100L, 100L, 10_000L);
        // the scale reaches what the scenario renders
        assertThat(relative.scenarios().get(0).benchmark().rendered()).startsWith("SELECT 100 ");
    }

    @Test
    void selectByRootGroupScenarioOrAll() {
        assertThat(FeatureSuite.select(CATALOG, null, List.of())).isEqualTo(CATALOG);
        assertThat(FeatureSuite.select(CATALOG, "FeatureScenario", null)).isEqualTo(CATALOG);
        assertThat(FeatureSuite.select(CATALOG, "Dataflow", List.of()))
                .containsExactly(DeltaJoin.class, CrossJoin.class, OrderBy.class);
        assertThat(FeatureSuite.select(CATALOG, "Join", List.of())).containsExactly(DeltaJoin.class, CrossJoin.class);
        assertThat(FeatureSuite.select(CATALOG, "Insert", List.of())).containsExactly(Insert.class);
    }

    @Test
    void namesNarrowTheSelectionInCatalogOrder() {
        assertThat(FeatureSuite.select(CATALOG, null, List.of("Insert", "DeltaJoin", "Insert")))
                .containsExactly(DeltaJoin.class, Insert.class);
        assertThat(FeatureSuite.select(CATALOG, "Join", List.of("CrossJoin"))).containsExactly(CrossJoin.class);
    }

    @Test
    void unknownRootsAndNamesAreRejectedListingWhatIsKnown() {
        assertThatThrownBy(() -> FeatureSuite.select(CATALOG, "Nope", List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown --root-scenario 'Nope'")
                .hasMessageContaining("known groups: Dataflow, Dml, Join")
                .hasMessageContaining("known scenarios: DeltaJoin, CrossJoin, OrderBy, Insert, Direct");
        assertThatThrownBy(() -> FeatureSuite.select(CATALOG, "dataflow", List.of()))
                .hasMessageContaining("did you mean Dataflow?");
        assertThatThrownBy(() -> FeatureSuite.select(CATALOG, null, List.of("DeltaJoin", "deltajoin", "Nope")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown scenarios deltajoin, Nope (did you mean DeltaJoin?")
                .hasMessageContaining("known scenarios: DeltaJoin, CrossJoin, OrderBy, Insert, Direct");
        assertThatThrownBy(() -> FeatureSuite.select(CATALOG, "Join", List.of("Insert")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("scenario Insert not in --root-scenario Join (scenarios in it: DeltaJoin, CrossJoin)");
    }

    @Test
    void groupsAndGroupPathsFollowTheClassHierarchy() {
        assertThat(FeatureSuite.groups(CATALOG)).containsExactly("Dataflow", "Dml", "Join");
        assertThat(FeatureSuite.groupPath(DeltaJoin.class)).containsExactly("Dataflow", "Join");
        assertThat(FeatureSuite.groupPath(OrderBy.class)).containsExactly("Dataflow");
        assertThat(FeatureSuite.groupPath(Direct.class)).isEmpty();
    }

    public static final class Throws extends FeatureScenario {
        public Throws() {
            throw new IllegalStateException("no table here");
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    public static final class InitThrows extends FeatureScenario {
        @Override
        public String init() {
            throw new ArithmeticException("/ by zero");
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 1 /* A */ /* B */");
        }
    }

    public static final class BenchmarkThrows extends FeatureScenario {
        @Override
        public Body benchmark() {
            throw new UnsupportedOperationException("not yet");
        }
    }

    public static final class NoMarkers extends FeatureScenario {
        @Override
        public Body benchmark() {
            return Body.script("SELECT 1");
        }
    }

    public static final class BadBefore extends FeatureScenario {
        @Override
        public String before() {
            return "DELETE FROM t WHERE s = 'open";
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 3 /* A */ /* B */");
        }
    }

    public static final class NoDefaultConstructor extends FeatureScenario {
        public NoDefaultConstructor(int x) {
        }

        @Override
        public Body benchmark() {
            return Body.script("SELECT 4 /* A */ /* B */");
        }
    }

    @Test
    void brokenScenariosFailTheLoadNamingTheScenarioAndTheCause() {
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Throws.class), ScaleOption.NONE))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("Throws: its constructor threw IllegalStateException: no table here");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(InitThrows.class), ScaleOption.NONE))
                .hasMessageContaining("InitThrows: init() threw ArithmeticException: / by zero");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(BenchmarkThrows.class), ScaleOption.NONE))
                .hasMessageContaining("BenchmarkThrows: benchmark() threw UnsupportedOperationException: not yet");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(NoMarkers.class), ScaleOption.NONE))
                .hasMessageContaining("NoMarkers: benchmark() must mark exactly one statement /* A */");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(BadBefore.class), ScaleOption.NONE))
                .hasMessageContaining("BadBefore: before(): unterminated string literal");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(NoDefaultConstructor.class), ScaleOption.NONE))
                .hasMessageContaining("NoDefaultConstructor has no public no-argument constructor");
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Dataflow.class), ScaleOption.NONE))
                .hasMessageContaining("Dataflow is abstract");
    }

    @Test
    void allProblemsAreReportedTogether() {
        assertThatThrownBy(() -> FeatureSuite.load(List.of(Throws.class, Insert.class, NoMarkers.class, InitThrows.class),
                ScaleOption.NONE))
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageStartingWith("the feature scenarios do not load (3 problems):")
                .hasMessageContaining("Throws:")
                .hasMessageContaining("NoMarkers:")
                .hasMessageContaining("InitThrows:")
                .message().doesNotContain("Insert");
    }
}
