package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Scenario;
import io.stillwater.bench.scenario.ScenarioDefinitionException;
import io.stillwater.bench.scenarios.interactive.PeekExpectation.Offload;
import io.stillwater.bench.scenarios.interactive.PeekExpectation.Path;
import io.stillwater.bench.scenarios.interactive.PeekExpectation.ServedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A scenario of the interactive-runtime set: a {@link Scenario} that also declares where its
 * measured queries must run ({@link #expect}), and the SQL its setups share. Subclasses declare
 * phases in their constructor exactly like the generic scenarios.
 */
public abstract class InteractiveRuntimeScenario extends Scenario {
    /** Every cluster these scenarios create has two workers: the machine the main job runs on has two cores. */
    static final int WORKERS = 2;
    /** The superuser that may run ALTER SYSTEM. */
    static final String SYSTEM_USER = "mz_system";
    /**
     * Service-time reads are serializable, so waiting for a frontier (M5) is not part of what they
     * measure. Setups and churn loops also wait for an index to hydrate with a serializable read: on
     * this engine (main as of 2026-12-02) a <em>strict</em> serializable read issued while a large
     * index hydrates can fail with "cannot hold time T: the trace is compacted through T'" after its
     * retries (seen on a cold JVM), where a serializable one waits for the freshest complete time.
     */
    static final String SERIALIZABLE = "SET transaction_isolation = 'serializable'";
    /** Stated explicitly (it is the default) so a target with another default still measures freshness. */
    static final String STRICT_SERIALIZABLE = "SET transaction_isolation = 'strict serializable'";
    static final ExpectedRows NO_ROWS = new ExpectedRows(List.of(), true);

    private final List<PeekExpectation> expectations = new ArrayList<>();

    /**
     * Where {@code action} must run; declared next to the action, like thresholds and guarantees.
     * Only query actions can be checked (a script's statements are not one read).
     */
    protected final void expect(Action action, String cluster, ServedBy servedBy, Path path, Offload offload) {
        String sql = switch (action) {
            case Action.StandaloneQuery q -> q.sql();
            case Action.ReuseConnQuery q -> q.sql();
            case Action.PooledQuery q -> q.sql();
            case Action.ScriptAction s -> throw new ScenarioDefinitionException("scenario " + name()
                    + ": a script action is several reads; declare expectations on query actions only");
        };
        expectations.add(new PeekExpectation(action.name(), sql, cluster, servedBy, path, offload));
    }

    /**
     * Where this scenario's queries must run, validated against its actions.
     *
     * <p>TODO(self-verification): the harness's self-verification API (scenarios declare where
     * measured queries must run; checked against {@code mz_introspection.mz_peek_history} after the
     * load phase; INVALID when an expectation fails or cannot be checked) is not on this branch.
     * The coordinator connects it here: translate each {@link PeekExpectation} into that API's
     * declaration (or have the harness call this method for scenarios of this type).
     *
     * @throws ScenarioDefinitionException if an expectation names an action the scenario does not run
     */
    public final List<PeekExpectation> expectations() {
        Set<String> actions = definition().actions().keySet();
        for (PeekExpectation e : expectations) {
            if (!actions.contains(e.action())) {
                throw new ScenarioDefinitionException("scenario " + name() + ": expectation for unknown action \""
                        + e.action() + "\"; the scenario's actions are "
                        + actions.stream().map(a -> "\"" + a + "\"").toList());
            }
        }
        return List.copyOf(expectations);
    }

    /** {@code CREATE CLUSTER name (SIZE = 'scale=1,workers=N')}: one replica, provisioned now. */
    static String createCluster(String name, int workers) {
        return "CREATE CLUSTER " + name + " (SIZE = 'scale=1,workers=" + workers + "')";
    }

    static String dropCluster(String name) {
        return "DROP CLUSTER IF EXISTS " + name + " CASCADE";
    }

    static String useCluster(String name) {
        return "SET cluster = " + name;
    }
}
