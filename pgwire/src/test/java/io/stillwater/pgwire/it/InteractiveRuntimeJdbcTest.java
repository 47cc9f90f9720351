package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.util.PSQLException;

/**
 * The two runtimes through pgjdbc (issue 5, "Done when"), on a replica provisioned with two
 * workers and either a maintenance + an interactive runtime or one solo runtime:
 *
 * <ul>
 *   <li>point lookups issued while another connection walks a large index over and over
 *       return exactly the row asked for, and {@code mz_introspection.mz_peek_history}
 *       says which runtime served them: {@code interactive} on a two-runtime replica,
 *       {@code solo} on a solo one;</li>
 *   <li>a walk stopped by a CancelRequest ({@link Statement#cancel()}) or by
 *       {@code statement_timeout} fails with 57014, an offloaded walk as well as walks
 *       parked behind a full offload pool, and the server keeps serving afterwards.</li>
 * </ul>
 *
 * No sleeps for synchronization: threads meet at latches, and whatever is observed
 * asynchronously (the history, a running statement) is polled with a deadline. No timing
 * assertion: the only expectations are results, SQLSTATEs and history rows.
 *
 * Knobs: {@code -Dstillwater.rt.rows} (rows of the walked index, default 300,000) and
 * {@code -Dstillwater.rt.lookups} (lookups per lookup thread, default 120; two threads).
 */
class InteractiveRuntimeJdbcTest {
    private static final long ROWS = Long.getLong("stillwater.rt.rows", 300_000);
    private static final int LOOKUPS_PER_THREAD = Integer.getInteger("stillwater.rt.lookups", 120);
    private static final int LOOKUP_THREADS = 2;
    private static final long DEADLINE_SECONDS = 60;

    /** A full walk: {@code payload} is not the index key, so every cursor position is visited. */
    private static final String WALK = "SELECT id AS walk_probe FROM big WHERE payload = 'payload-" + ROWS + "'";
    private static final String LOOKUP = "SELECT payload AS lookup_probe FROM big WHERE id = ?";
    /**
     * A walk that takes far longer than any test waits for it: an md5 of a ~10 KB string per
     * visited row, and no row matches. It is only ever run to be cancelled.
     */
    private static final String SLOW_WALK =
            "SELECT id AS slow_walk_probe FROM big WHERE md5(repeat(payload, 800)) = 'no such digest'";

    /** How the test's replica is provisioned. */
    enum Mode {
        TWO_RUNTIMES(true, "interactive"),
        SOLO(false, "solo");

        final boolean flag;
        /** What mz_peek_history says for a fast-path read on such a replica. */
        final String fastPathRuntime;

        Mode(boolean flag, String fastPathRuntime) {
            this.flag = flag;
            this.fastPathRuntime = fastPathRuntime;
        }
    }

    private EmbeddedStillwater db;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(DEADLINE_SECONDS, TimeUnit.SECONDS);
        if (db != null) db.close();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void pointLookupsDuringFullWalksAreCorrectAndServedWhereTheModeSays(Mode mode) throws Exception {
        startWithCluster(mode);
        AtomicBoolean lookupsDone = new AtomicBoolean(false);
        CountDownLatch walking = new CountDownLatch(1);

        // The walker: full walks back to back until every lookup has returned; each must find
        // exactly the last row. It counts down the latch as it sends its first walk.
        Future<Integer> walker = threads.submit(() -> {
            int walks = 0;
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(WALK)) {
                do {
                    walking.countDown();
                    assertThat(ids(ps)).as("walk %d", walks).containsExactly(ROWS);
                    walks++;
                } while (!lookupsDone.get());
            }
            return walks;
        });
        assertThat(walking.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).as("the walker started").isTrue();

        List<Future<Integer>> lookers = new ArrayList<>();
        for (int t = 0; t < LOOKUP_THREADS; t++) {
            long seed = t;
            lookers.add(threads.submit(() -> lookups(seed)));
        }
        int lookups = 0;
        try {
            for (Future<Integer> f : lookers) lookups += f.get(DEADLINE_SECONDS * 5, TimeUnit.SECONDS);
        } finally {
            lookupsDone.set(true);
        }
        int walks = walker.get(DEADLINE_SECONDS * 5, TimeUnit.SECONDS);
        assertThat(lookups).isEqualTo(LOOKUP_THREADS * LOOKUPS_PER_THREAD).isGreaterThanOrEqualTo(200);
        assertThat(walks).isPositive();

        // Where they ran. History is recorded by the replica; poll until every read is there.
        try (Connection c = connect()) {
            int expectedLookups = lookups;
            await(() -> historyCount(c, "lookup_probe") >= expectedLookups, "all lookups in mz_peek_history");
            await(() -> historyCount(c, "walk_probe") >= walks, "all walks in mz_peek_history");
            assertThat(historyByPlacement(c, "lookup_probe"))
                    .containsExactly(mode.fastPathRuntime + " fast_path=true offloaded=false success " + expectedLookups);
            // The walks visit every position of a large index: past the inline budget they move
            // to the offload pool (enable_compute_index_peek_offload is on by default).
            assertThat(historyByPlacement(c, "walk_probe"))
                    .containsExactly(mode.fastPathRuntime + " fast_path=true offloaded=true success " + walks);
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void cancelRequestStopsAnOffloadedWalk(Mode mode) throws Exception {
        startWithCluster(mode);
        asSystem("ALTER SYSTEM SET compute_index_peek_inline_budget = 0",
                "ALTER SYSTEM SET compute_index_peek_yield_granularity = 1000");
        try (Connection c = connect(); Statement s = c.createStatement()) {
            PSQLException e = cancelWhileRunning(s, SLOW_WALK);
            assertThat(e.getSQLState()).isEqualTo("57014");
            assertThat(e.getMessage()).contains("canceling statement due to user request");
            // The same connection goes on serving.
            assertLookupWorks(c, 4242);
            await(() -> historyCount(c, "slow_walk_probe") >= 1, "the cancelled walk in mz_peek_history");
            assertThat(historyByPlacement(c, "slow_walk_probe"))
                    .containsExactly(mode.fastPathRuntime + " fast_path=true offloaded=true canceled 1");
        }
    }

    /**
     * Six slow walks at once on a two-worker replica: the offload pool admits a bounded
     * number of walks (assumed fewer than six, e.g. one per worker), so some of them are
     * parked waiting for a slot. Cancelling every one must stop every one, parked or
     * running, and the replica still answers a lookup afterwards.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void cancelRequestStopsParkedWalks(Mode mode) throws Exception {
        startWithCluster(mode);
        asSystem("ALTER SYSTEM SET compute_index_peek_inline_budget = 0",
                "ALTER SYSTEM SET compute_index_peek_yield_granularity = 1000");
        int walkers = 6;
        List<Connection> conns = new ArrayList<>();
        List<Statement> stmts = new ArrayList<>();
        try {
            List<Future<PSQLException>> results = new ArrayList<>();
            CountDownLatch started = new CountDownLatch(walkers);
            for (int i = 0; i < walkers; i++) {
                Connection c = connect();
                conns.add(c);
                Statement s = c.createStatement();
                stmts.add(s);
                results.add(threads.submit(() -> {
                    started.countDown();
                    return expectFailure(s, SLOW_WALK);
                }));
            }
            assertThat(started.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
            // Cancel only once every walk is on the replica (running or parked): pgjdbc
            // sends one CancelRequest per statement, and one that arrives first is lost.
            try (Connection observer = connect()) {
                await(() -> activeCount(observer, SLOW_WALK) >= walkers, "every walk running or parked on the replica");
            }
            // Keep sending CancelRequests until every walk has failed: a request that reaches
            // the server before its statement does cancels nothing, so repeat it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
            while (!results.stream().allMatch(Future::isDone)) {
                if (System.nanoTime() > deadline) fail("the cancelled walks did not stop within " + DEADLINE_SECONDS + " s");
                for (int i = 0; i < walkers; i++) {
                    if (!results.get(i).isDone()) stmts.get(i).cancel();
                }
                waitForAny(results, 20);
            }
            for (Future<PSQLException> r : results) {
                assertThat(r.get().getSQLState()).isEqualTo("57014");
            }
            try (Connection c = connect()) {
                assertLookupWorks(c, 77);
                await(() -> historyCount(c, "slow_walk_probe") >= walkers, "the cancelled walks in mz_peek_history");
                assertThat(historyByPlacement(c, "slow_walk_probe"))
                        .containsExactly(mode.fastPathRuntime + " fast_path=true offloaded=true canceled " + walkers);
            }
        } finally {
            for (Connection c : conns) c.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void statementTimeoutStopsAWalkAndAPeekDataflow(Mode mode) throws Exception {
        startWithCluster(mode);
        asSystem("ALTER SYSTEM SET compute_index_peek_yield_granularity = 1000");
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET statement_timeout = '200ms'");
            PSQLException walk = expectFailure(s, SLOW_WALK);
            assertThat(walk.getSQLState()).isEqualTo("57014");
            assertThat(walk.getMessage()).contains("canceling statement due to statement timeout");
            // A join cannot take the fast path: a peek dataflow, expensive per row on both sides.
            PSQLException join = expectFailure(s, "SELECT count(*) AS slow_join_probe FROM big a JOIN big b"
                    + " ON md5(repeat(a.payload, 400)) = md5(repeat(b.payload, 400))");
            assertThat(join.getSQLState()).isEqualTo("57014");
            s.execute("RESET statement_timeout");
            assertLookupWorks(c, 99);
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM big")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(ROWS);
            }
            await(() -> historyCount(c, "slow_walk_probe") >= 1, "the timed-out walk in mz_peek_history");
            assertThat(historyByPlacement(c, "slow_walk_probe")).hasSize(1)
                    .allSatisfy(row -> assertThat(row).startsWith(mode.fastPathRuntime + " fast_path=true ").endsWith(" canceled 1"));
        }
    }

    // ---------------------------------------------------------------------------------------

    /**
     * A fresh engine; as mz_system, pins {@code enable_compute_interactive_runtime} for the
     * mode and then creates cluster {@code c} with two workers (the flag is read when the
     * replica is provisioned); loads and indexes {@code big} on it.
     */
    private void startWithCluster(Mode mode) throws SQLException {
        db = new EmbeddedStillwater(2);
        asSystem("ALTER SYSTEM SET enable_compute_interactive_runtime = " + mode.flag);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE CLUSTER c (SIZE = 'scale=1,workers=2')");
            s.execute("SET cluster = c");
            s.execute("CREATE TABLE big (id bigint, payload text)");
            for (long from = 1; from <= ROWS; from += 100_000) {
                long to = Math.min(ROWS, from + 100_000 - 1);
                s.execute("INSERT INTO big SELECT g::bigint, 'payload-' || g::text FROM generate_series("
                        + from + ", " + to + ") AS g");
            }
            s.execute("CREATE INDEX big_id ON big (id)");
            // Strict serializable (the default): returns once the index has hydrated.
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM big")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(ROWS);
            }
        }
    }

    /** A connection as user materialize whose session reads from cluster c. */
    private Connection connect() throws SQLException {
        Connection c = db.connect();
        try (Statement s = c.createStatement()) {
            s.execute("SET cluster = c");
        }
        return c;
    }

    private void asSystem(String... statements) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "mz_system");
        try (Connection c = db.connect(p); Statement s = c.createStatement()) {
            for (String sql : statements) s.execute(sql);
        }
    }

    private int lookups(long seed) throws SQLException {
        SplittableRandom random = new SplittableRandom(seed);
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(LOOKUP)) {
            for (int i = 0; i < LOOKUPS_PER_THREAD; i++) {
                long id = 1 + random.nextLong(ROWS);
                ps.setLong(1, id);
                List<String> payloads = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) payloads.add(rs.getString(1));
                }
                assertThat(payloads).as("lookup of id %d", id).containsExactly("payload-" + id);
            }
        }
        return LOOKUPS_PER_THREAD;
    }

    private static void assertLookupWorks(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LOOKUP)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("payload-" + id);
                assertThat(rs.next()).isFalse();
            }
        }
    }

    private static List<Long> ids(PreparedStatement ps) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) ids.add(rs.getLong(1));
        }
        return ids;
    }

    /** Runs {@code sql}, which must fail; returns the failure. */
    private static PSQLException expectFailure(Statement s, String sql) {
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = 0;
            while (rs.next()) n++;
            throw new AssertionError("expected " + sql + " to fail, but it returned " + n + " row(s)");
        } catch (PSQLException e) {
            return e;
        } catch (SQLException e) {
            throw new AssertionError("not a server error: " + e, e);
        }
    }

    /**
     * Runs {@code sql} on another thread and sends CancelRequests until it fails. A request
     * that arrives before the statement has started cancels nothing (PostgreSQL semantics),
     * so the request is repeated until the statement ends, within the deadline.
     */
    private PSQLException cancelWhileRunning(Statement s, String sql) throws Exception {
        Future<PSQLException> result = threads.submit(() -> expectFailure(s, sql));
        // pgjdbc sends one CancelRequest per statement (later cancel() calls are no-ops
        // while it is canceling), and a request that reaches the server before the
        // statement runs cancels nothing: so cancel once the replica shows it running.
        try (Connection observer = connect()) {
            await(() -> result.isDone() || activeCount(observer, sql) >= 1, "the statement running on the replica");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!result.isDone()) {
            if (System.nanoTime() > deadline) fail("the cancelled statement did not stop within " + DEADLINE_SECONDS + " s");
            s.cancel();
            try {
                return result.get(20, TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                // not yet: cancel again
            }
        }
        return result.get();
    }

    /** Blocks up to {@code millis} or until one of the unfinished futures completes. */
    private static void waitForAny(List<? extends Future<?>> futures, long millis) throws InterruptedException {
        for (Future<?> f : futures) {
            if (f.isDone()) continue;
            try {
                f.get(millis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException ignored) {
                // checked by the caller
            }
            return;
        }
    }

    /** Number of mz_peek_history rows of statements {@code SELECT ... AS <probe> FROM ...}. */
    /** Reads of exactly {@code sql} in progress on the connection's replica (mz_active_peeks). */
    private static long activeCount(Connection c, String sql) {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM mz_introspection.mz_active_peeks WHERE statement = ?")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError("cannot read mz_introspection.mz_active_peeks: " + e.getMessage(), e);
        }
    }

    private static long historyCount(Connection c, String probe) {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM mz_introspection.mz_peek_history WHERE statement LIKE ?")) {
            ps.setString(1, "SELECT % AS " + probe + " FROM %");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError("cannot read mz_introspection.mz_peek_history: " + e.getMessage(), e);
        }
    }

    /** The probe's history rows grouped by placement: "runtime fast_path=b offloaded=b outcome count". */
    private static List<String> historyByPlacement(Connection c, String probe) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT runtime, fast_path, offloaded, outcome, count(*) FROM mz_introspection.mz_peek_history"
                        + " WHERE statement LIKE ? GROUP BY runtime, fast_path, offloaded, outcome"
                        + " ORDER BY runtime, fast_path, offloaded, outcome")) {
            ps.setString(1, "SELECT % AS " + probe + " FROM %");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + " fast_path=" + rs.getBoolean(2) + " offloaded=" + rs.getBoolean(3)
                            + " " + rs.getString(4) + " " + rs.getLong(5));
                }
            }
        }
        return rows;
    }

    /** Polls {@code condition} until it holds; fails after the deadline. */
    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail(what + ": not reached within " + DEADLINE_SECONDS + " s");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
