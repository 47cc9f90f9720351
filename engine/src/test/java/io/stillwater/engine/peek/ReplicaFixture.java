package io.stillwater.engine.peek;

import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReplica;
import io.stillwater.engine.compute.ReplicaIntrospection;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.expr.Expr;
import io.stillwater.engine.expr.Func;
import io.stillwater.engine.plan.PlanNode;
import io.stillwater.engine.session.EngineSession;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.UtilityParser;
import io.stillwater.engine.types.SqlType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real coordinator and a real {@link ComputeReplica} (solo or two-runtime) holding table
 * {@code t (k int, v int)} with {@code ROWS} rows ({@code v = k % 100}) and index
 * {@code t_k} on {@code k}; reads go through the real planner, inputs and executor.
 */
final class ReplicaFixture implements AutoCloseable {
    static final int ROWS = 20_000;
    static final List<SqlType> TYPES = List.of(SqlType.INTEGER, SqlType.INTEGER);
    static final Expr K = new Expr.Column(0, SqlType.INTEGER);

    final Path dir;
    final ComputeReplica replica;
    final Coordinator coord;
    final EngineSession admin;
    final PeekExecutor executor;
    final PeekPlanner planner;
    final EvalContext ctx = EvalContext.defaults();
    final long table;
    final long index;

    ReplicaFixture(int workers, boolean twoRuntimes) {
        try {
            dir = Files.createTempDirectory("replica-test");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        replica = new ComputeReplica(ComputeReplica.defaultSpec(workers, twoRuntimes));
        coord = Coordinator.open(new EngineConfig(dir, false, workers), replica);
        admin = session("mz_system");
        executor = new PeekExecutor(coord.builtins(), coord.systemParameters());
        planner = new PeekPlanner(replica, id -> coord.table(id).isPresent());
        ReadPathSessionTest.q(admin, "CREATE TABLE t (k int, v int)");
        ReadPathSessionTest.q(admin, "INSERT INTO t SELECT x, x % 100 FROM generate_series(1, " + ROWS + ") AS x");
        ReadPathSessionTest.q(admin, "CREATE INDEX t_k ON t (k)");
        ReadPathSessionTest.q(admin, "GRANT SELECT ON t TO PUBLIC"); // the tests' sessions read it as other roles
        table = coord.catalog().table("t").orElseThrow().id();
        index = coord.catalog().index("t_k").orElseThrow().id();
        try { // hydrated before any test reads it
            indexReader().readableAt(Long.MIN_VALUE).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("t_k did not hydrate", e);
        }
    }

    EngineSession session(String user) {
        return new EngineSession(coord, new StatementPlanner(UtilityParser::parse), user, "materialize", Map.of());
    }

    List<List<String>> q(String sql) { return ReadPathSessionTest.q(admin, sql); }

    /** ALTER SYSTEM SET, as mz_system. */
    void set(String name, Object value) { q("ALTER SYSTEM SET " + name + " = " + value); }

    PlanNode.Get getT() { return new PlanNode.Get(table, "t", TYPES); }

    PeekPlan walkPlan() { return planner.plan(getT(), ctx); }

    PeekPlan lookupPlan(int k) {
        Expr eq = new Expr.Call(Func.EQ, List.of(K, new Expr.Literal(k, SqlType.INTEGER)), SqlType.BOOLEAN);
        return planner.plan(new PlanNode.Filter(getT(), List.of(eq)), ctx);
    }

    /** Reads {@code plan} the way a session does: pin inputs, serve on the replica, await, release. */
    PeekExecutor.Result read(String statement, PeekPlan plan, Cancellation cancel) {
        try (PeekInputs in = PeekInputs.acquire(coord.reads(), plan, Isolation.SERIALIZABLE, cancel)) {
            if (cancel instanceof HeldCheck h) h.armed = true;
            return executor.run(replica, statement, plan, in, ctx, cancel);
        }
    }

    ReplicaIntrospection intro() { return replica.introspection().orElseThrow(); }

    /** The state ({@code queued}, {@code running}, ...) of the active read named {@code statement}, or null. */
    String activeState(String statement) {
        return intro().activePeeks().stream().filter(p -> p.statement().equals(statement)).map(p -> p.state())
                .findFirst().orElse(null);
    }

    /** Finished reads' statements, in finishing order. */
    List<String> historyStatements() {
        return intro().peekHistory().stream().map(ReplicaIntrospection.PeekRecord::statement).toList();
    }

    ReplicaIntrospection.PeekRecord history(String statement) {
        return intro().peekHistory().stream().filter(r -> r.statement().equals(statement)).findFirst()
                .orElseThrow(() -> new AssertionError("no read \"" + statement + "\" in " + historyStatements()));
    }

    CollectionReader indexReader() { return replica.reader(index).orElseThrow(); }

    /** Waits (no sleeping: polling a condition) up to a minute for {@code condition}. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    @Override
    public void close() {
        admin.close();
        coord.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }

    /**
     * A statement's cancellation that parks the read at its {@code holdAt}-th check made
     * on a thread {@code where} accepts (after the inputs are pinned), until {@link
     * #release}: how a test holds a walk mid-way. {@link #cancel} makes every later check
     * throw 57014, like a CancelRequest.
     */
    static final class HeldCheck implements Cancellation {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final Predicate<Thread> where;
        private final int holdAt;
        private final AtomicInteger seen = new AtomicInteger();
        volatile boolean armed;
        private volatile SqlException canceled;
        volatile Thread heldOn;

        HeldCheck(Predicate<Thread> where, int holdAt) {
            this.where = where;
            this.holdAt = holdAt;
        }

        static Predicate<Thread> named(String part) { return t -> t.getName().contains(part); }

        void cancel() { canceled = new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request"); }

        void release() { release.countDown(); }

        void awaitReached() {
            try {
                if (!reached.await(60, TimeUnit.SECONDS)) throw new AssertionError("the read never reached its hold point");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void check() {
            throwIfCanceled();
            if (armed && where.test(Thread.currentThread()) && seen.incrementAndGet() == holdAt) {
                heldOn = Thread.currentThread();
                reached.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                heldOn = null;
            }
            throwIfCanceled();
        }

        private void throwIfCanceled() {
            SqlException c = canceled;
            if (c != null) throw new SqlException(c.state(), c.getMessage());
        }
    }
}
