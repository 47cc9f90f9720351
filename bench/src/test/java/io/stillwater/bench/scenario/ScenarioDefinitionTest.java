package io.stillwater.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.bench.gate.Overrides;
import io.stillwater.bench.gate.Threshold;
import io.stillwater.bench.gate.Thresholds;
import io.stillwater.bench.stats.Stat;
import io.stillwater.bench.verify.PeekExpectation;
import java.time.Duration;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class ScenarioDefinitionTest {
    private static final Duration D = Duration.ofSeconds(1);

    static final class Read extends Scenario {
        Read() {
            setup("CREATE TABLE t (a int)");
            load(D, closedLoop(reuseConn("SELECT 1"), 10));
            cleanup("DROP TABLE t");
        }
    }

    @Test
    void defaultsGateQpsAvgP50P95AndErrorRateButNotTheTails() {
        Thresholds t = new Read().definition().thresholdsFor("SELECT 1 (reuse connection)");
        assertThat(t).isEqualTo(Thresholds.DEFAULT);
        assertThat(t.of(Stat.QPS)).isEqualTo(Threshold.ratio(1.2));
        assertThat(t.of(Stat.AVG)).isEqualTo(Threshold.ratio(1.2));
        assertThat(t.of(Stat.P50)).isEqualTo(Threshold.ratio(1.2));
        assertThat(t.of(Stat.P95)).isEqualTo(Threshold.ratio(1.3));
        assertThat(t.of(Stat.ERROR_RATE)).isEqualTo(Threshold.absoluteIncrease(0.01));
        for (Stat s : new Stat[] {Stat.P99, Stat.P99_9, Stat.MAX, Stat.MIN, Stat.STD, Stat.SLOPE, Stat.QUERIES}) {
            assertThat(t.of(s)).as(s.key()).isEqualTo(Threshold.UNGATED);
        }
        assertThat(new Read().definition().warnings()).isEmpty();
        assertThat(new Read().version()).isEqualTo("1.0.0");
    }

    static final class Contended extends Scenario {
        Contended() {
            pool(10);
            var read = pooled("SELECT 1");
            load(D, openLoop(read, periodic(50)), closedLoop(script("INSERT INTO t VALUES (1)", "DELETE FROM t"), 2)
                    .reportRegressions(false));
            thresholds(read, CONTENDED);
        }
    }

    @Test
    void contendedLoosensQpsAvgP50P95AndLeavesP99Ungated() {
        ScenarioDefinition d = new Contended().definition();
        Thresholds t = d.thresholdsFor("SELECT 1 (pooled)");
        for (Stat s : new Stat[] {Stat.QPS, Stat.AVG, Stat.P50, Stat.P95}) {
            assertThat(t.of(s)).as(s.key()).isEqualTo(Threshold.ratio(1.5));
        }
        assertThat(t.of(Stat.P99)).isEqualTo(Threshold.UNGATED);
        assertThat(t.of(Stat.ERROR_RATE)).isEqualTo(Threshold.absoluteIncrease(0.01));
        assertThat(d.thresholdsFor("INSERT INTO t VALUES (1); DELETE FROM t (script)"))
                .isEqualTo(Thresholds.ALL_UNGATED);
    }

    static final class UngatedAvg extends Scenario {
        UngatedAvg() {
            var read = reuseConn("SELECT 1");
            load(D, openLoop(read, periodic(1)));
            thresholds(read, Overrides.NONE.with(Stat.AVG, UNGATED).with(Stat.P99, ratio(2)));
        }
    }

    @Test
    void explicitUngatedSwitchesADefaultOffWhileAnAbsentOverrideKeepsIt() {
        Thresholds t = new UngatedAvg().definition().thresholdsFor("SELECT 1 (reuse connection)");
        assertThat(t.of(Stat.AVG)).isEqualTo(Threshold.UNGATED);
        assertThat(t.of(Stat.P50)).isEqualTo(Threshold.ratio(1.2));
        assertThat(t.of(Stat.P99)).isEqualTo(Threshold.ratio(2));
    }

    static final class UnknownKey extends Scenario {
        UnknownKey() {
            load(D, closedLoop(reuseConn("SELECT 1")));
            thresholds("SELECT count(*) FROM fresh_w WHERE k = 0 (reuse connection)", CONTENDED);
        }
    }

    static final class UnknownGuarantee extends Scenario {
        UnknownGuarantee() {
            load(D, closedLoop(reuseConn("SELECT 1")));
            guarantee("SELECT 1", Stat.P99, 200);
        }
    }

    @Test
    void overrideAndGuaranteeKeysMustNameRealActions() {
        assertThatThrownBy(() -> new UnknownKey().definition())
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("\"SELECT count(*) FROM fresh_w WHERE k = 0 (reuse connection)\"")
                .hasMessageContaining("[\"SELECT 1 (reuse connection)\"]");
        assertThatThrownBy(() -> new UnknownGuarantee().definition())
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("guarantee for unknown action \"SELECT 1\"");
    }

    static final class TwoLoopsOneAction extends Scenario {
        TwoLoopsOneAction() {
            load(D, closedLoop(reuseConn("SELECT 1")), closedLoop(reuseConn("SELECT 1")));
        }
    }

    static final class SameNameDifferentActions extends Scenario {
        SameNameDifferentActions() {
            load(D, closedLoop(reuseConn("SELECT 1")));
            load(D, closedLoop(reuseConn("SELECT 1", "SET search_path = x")));
        }
    }

    static final class SameActionTwoPhases extends Scenario {
        SameActionTwoPhases() {
            load(D, closedLoop(reuseConn("SELECT 1")));
            load(D, closedLoop(reuseConn("SELECT 1"), 4));
        }
    }

    static final class PooledWithoutPool extends Scenario {
        PooledWithoutPool() {
            load(D, openLoop(pooled("SELECT 1"), periodic(1)));
        }
    }

    @Test
    void duplicateActionNamesAreRejected() {
        assertThatThrownBy(() -> new TwoLoopsOneAction().definition())
                .isInstanceOf(ScenarioDefinitionException.class).hasMessageContaining("drives two loops");
        assertThatThrownBy(() -> new SameNameDifferentActions().definition())
                .isInstanceOf(ScenarioDefinitionException.class).hasMessageContaining("two different actions");
        assertThat(new SameActionTwoPhases().definition().actions()).containsOnlyKeys("SELECT 1 (reuse connection)");
        assertThatThrownBy(() -> new PooledWithoutPool().definition())
                .isInstanceOf(ScenarioDefinitionException.class).hasMessageContaining("pool(size");
    }

    static final class ClosedAvgOnly extends Scenario {
        ClosedAvgOnly() {
            var closed = reuseConn("SELECT 1");
            var open = reuseConn("SELECT 2");
            load(D, closedLoop(closed), openLoop(open, periodic(10)));
            thresholds(closed, Overrides.NONE.with(Stat.AVG, ratio(1.5)));
            thresholds(open, Overrides.NONE.with(Stat.AVG, ratio(1.5)));
        }
    }

    @Test
    void closedLoopWithDisagreeingQpsAndAvgThresholdsWarns() {
        assertThat(new ClosedAvgOnly().definition().warnings()).singleElement().asString()
                .contains("\"SELECT 1 (reuse connection)\"").contains("qps at 20%").contains("avg at 50%");
        assertThat(new Contended().definition().warnings()).isEmpty();
    }

    static final class ExpectsOnAScript extends Scenario {
        ExpectsOnAScript() {
            var churn = script("INSERT INTO t VALUES (1)", "DELETE FROM t");
            load(D, closedLoop(churn));
            expect(churn, PeekExpectation.ANYWHERE);
        }
    }

    static final class ExpectsOnATypo extends Scenario {
        ExpectsOnATypo() {
            load(D, closedLoop(reuseConn("SELECT 1")));
            expect("SELECT 1 (pooled)", PeekExpectation.on(
                    PeekExpectation.Runtime.INTERACTIVE).fastPath());
        }
    }

    @Test
    void peekExpectationsMustNameARealQueryAction() {
        Assertions.assertThatThrownBy(() -> new ExpectsOnATypo().definition())
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("peek expectation for unknown action \"SELECT 1 (pooled)\"")
                .hasMessageContaining("\"SELECT 1 (reuse connection)\"");
        Assertions.assertThatThrownBy(() -> new ExpectsOnAScript().definition())
                .isInstanceOf(ScenarioDefinitionException.class)
                .hasMessageContaining("expectations apply to query actions");
    }

    /** The example of docs/bench.md, verbatim. */
    public static final class PoolRead extends Scenario {
        public PoolRead() {
            pool(100, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
            setup("CREATE TABLE t (k int PRIMARY KEY, v int)",
                  "INSERT INTO t SELECT g, g FROM generate_series(1, 1000) g");
            var lookup = pooled("SELECT v FROM t WHERE k = 42");
            var churn = script("INSERT INTO t VALUES (-1, 0)", "DELETE FROM t WHERE k = -1");
            load(Duration.ofSeconds(120),
                 openLoop(lookup, periodic(100)),
                 closedLoop(churn, 2).reportRegressions(false));   // contention only
            thresholds(lookup, CONTENDED);
            guarantee(lookup, Stat.P99, 200);                     // ms
            guarantee(lookup, Stat.QPS, 95);
            cleanup("DROP TABLE t");
        }

        @Override public String version() { return "1.1.0"; }  // bump when the workload changes
    }

    @Test
    void theDocumentedExampleIsValid() {
        ScenarioDefinition d = new PoolRead().definition();
        assertThat(d.name()).isEqualTo("PoolRead");
        assertThat(d.version()).isEqualTo("1.1.0");
        assertThat(d.phases()).hasSize(3);
        assertThat(d.poolSize()).isEqualTo(100);
        assertThat(d.guarantees().get("SELECT v FROM t WHERE k = 42 (pooled)")).hasSize(2);
        assertThat(d.warnings()).isEmpty();
    }

    @Test
    void actionNamesCarryTheirKind() {
        assertThat(Scenario.standalone("SELECT 1").name()).isEqualTo("SELECT 1 (standalone)");
        assertThat(Scenario.pooled(" SELECT 1 ").name()).isEqualTo("SELECT 1 (pooled)");
        assertThat(Scenario.reuseConn("SELECT 1").name()).isEqualTo("SELECT 1 (reuse connection)");
        assertThat(Scenario.script("BEGIN", "COMMIT").name()).isEqualTo("BEGIN; COMMIT (script)");
    }
}
