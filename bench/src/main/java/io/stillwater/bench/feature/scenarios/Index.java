package io.stillwater.bench.feature.scenarios;

import static io.stillwater.bench.feature.scenarios.ScriptBuilder.a;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.b;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.expect;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.insertSeries;
import static io.stillwater.bench.feature.scenarios.ScriptBuilder.script;

import io.stillwater.bench.feature.scenario.Body;
import io.stillwater.bench.feature.scenario.FeatureScenario;
import io.stillwater.bench.scenario.Capability;
import java.util.Set;

/**
 * Building an index over existing data until a read can use it: on Stillwater the arrangement's
 * hydration (a read that uses an index waits until it has hydrated), on PostgreSQL the B-tree build.
 */
public abstract class Index extends FeatureScenario {

    /**
     * CREATE INDEX on a table of N rows, then a lookup through it. {@code before()} drops the index.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5.5 rows: ~100 ms, setup 0.8 s (10^5: ~20 ms).
     */
    public static final class CreateIndex extends Index {
        @Override
        public double defaultScale() {
            return 5.5;
        }

        @Override
        public String init() {
            return script("CREATE TABLE ix_create (f1 integer, f2 integer)", insertSeries("ix_create", "g, g", 1, n()));
        }

        @Override
        public String before() {
            return "DROP INDEX IF EXISTS ix_create_f1";
        }

        @Override
        public Body benchmark() {
            return Body.script(script(a("CREATE INDEX ix_create_f1 ON ix_create (f1)"),
                    b(expect("SELECT f1, f2 FROM ix_create WHERE f1 = 1", 1, 1))));
        }

        @Override
        public String cleanup() {
            return ScriptBuilder.dropTables("ix_create");
        }
    }

    /**
     * An existing index of N rows hydrating on a cluster that comes back online: {@code before()}
     * takes the cluster's replica away ({@code REPLICATION FACTOR = 0}); timed: bringing one back,
     * then a lookup through the index on that cluster, which waits for the hydration.
     *
     * <p>Measured (embedded, this 2-core host, 2026-12-02): 10^5.5 rows: 100-170 ms (10^5: ~20 ms).
     */
    public static final class HydrateIndex extends Index {
        @Override
        public double defaultScale() {
            return 5.5;
        }

        @Override
        public Set<Capability> requires() {
            return Set.of(Capability.CLUSTERS, Capability.ARRANGEMENTS);
        }

        @Override
        public String init() {
            return script("CREATE CLUSTER ix_hydrate_c (SIZE = '1')",
                    "CREATE TABLE ix_hydrate (f1 integer, f2 integer)", insertSeries("ix_hydrate", "g, g", 1, n()),
                    "CREATE INDEX ix_hydrate_f1 IN CLUSTER ix_hydrate_c ON ix_hydrate (f1)");
        }

        @Override
        public String before() {
            return "ALTER CLUSTER ix_hydrate_c SET (REPLICATION FACTOR = 0)";
        }

        @Override
        public Body benchmark() {
            return Body.script(script(a("ALTER CLUSTER ix_hydrate_c SET (REPLICATION FACTOR = 1)"),
                    "SET cluster = ix_hydrate_c",
                    b(expect("SELECT f1, f2 FROM ix_hydrate WHERE f1 = 1", 1, 1))));
        }

        /** The cluster is Materialize DDL: this scenario only ever runs where CLUSTERS is offered. */
        @Override
        public String cleanup() {
            return script(ScriptBuilder.dropTables("ix_hydrate"), "DROP CLUSTER IF EXISTS ix_hydrate_c CASCADE");
        }
    }
}
