package io.stillwater.bench.scenarios.interactive;

import io.stillwater.bench.action.ExpectedRows;
import io.stillwater.bench.scenario.Scenario;
import java.util.List;

/**
 * A scenario of the interactive-runtime set: a {@link Scenario} with the SQL and conventions its
 * setups share. Subclasses declare phases in their constructor exactly like the generic scenarios,
 * and where their measured queries must run with {@link Scenario#expect} and
 * {@link io.stillwater.bench.verify.PeekExpectation}: {@code onReadRuntime()} where the cluster follows
 * the side's {@code enable_compute_interactive_runtime} (interactive on this = defaults, solo on
 * other = the flag off), {@code on(Runtime.SOLO)} where the scenario provisions a solo replica on
 * every side.
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
