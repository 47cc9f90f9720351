package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.memory.MemoryPool;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;

/**
 * Read-write transactions through pgjdbc in its default non-autocommit mode, the way ORMs
 * use it: reads then writes with read-your-own-writes, rollback, atomic multi-row commits
 * that a concurrent reader never sees half of, concurrent increments that are never lost
 * (a conflicting commit fails with 40001 and is retried), and a large result read with
 * {@code setFetchSize} (portals with Execute row limits) and through DECLARE / FETCH, with
 * the memory the reads hold staying small. No sleeps, no timing assertions.
 */
class ReadWriteTransactionJdbcTest {
    private static final int INCREMENTERS = 4;
    private static final int INCREMENTS_EACH = 40;
    private static final int TRANSFERS = 60;

    static EmbeddedStillwater db;

    @BeforeAll
    static void start() throws SQLException {
        db = new EmbeddedStillwater(2);
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE acct (id int, bal int)");
            s.execute("CREATE TABLE counter (id int, n int)");
            s.execute("CREATE TABLE saved (id int, bal int)");
            s.execute("INSERT INTO counter VALUES (1, 0)");
            s.execute("CREATE TABLE xs (x int)");
            s.execute("CREATE TABLE ys (y int)");
            s.execute("INSERT INTO xs SELECT * FROM generate_series(1, 1500)");
            s.execute("INSERT INTO ys SELECT * FROM generate_series(1, 1500)");
        }
    }

    @AfterAll
    static void stop() {
        if (db != null) db.close();
    }

    @Test
    void selectThenWritesInTheDefaultModeReadTheirOwnWritesAndCommitAtomically() throws SQLException {
        try (Connection c = db.connect(); Connection other = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement(); Statement o = other.createStatement()) {
                assertThat(count(s, "SELECT count(*) FROM acct WHERE id >= 100")).isZero();
                assertThat(s.executeUpdate("INSERT INTO acct VALUES (100, 10), (101, 20)")).isEqualTo(2);
                try (PreparedStatement upd = c.prepareStatement("UPDATE acct SET bal = bal + ? WHERE id = ?")) {
                    upd.setInt(1, 5);
                    upd.setInt(2, 100);
                    assertThat(upd.executeUpdate()).isEqualTo(1);
                }
                assertThat(s.executeUpdate("DELETE FROM acct WHERE id = 101")).isEqualTo(1);
                assertThat(count(s, "SELECT sum(bal) FROM acct WHERE id >= 100")).isEqualTo(15);
                assertThat(count(o, "SELECT count(*) FROM acct WHERE id >= 100")).as("not yet committed").isZero();
                c.commit();
                assertThat(count(o, "SELECT sum(bal) FROM acct WHERE id >= 100")).isEqualTo(15);

                assertThat(s.executeUpdate("UPDATE acct SET bal = 0 WHERE id >= 100")).isEqualTo(1);
                assertThat(count(s, "SELECT sum(bal) FROM acct WHERE id >= 100")).isZero();
                c.rollback();
                assertThat(count(s, "SELECT sum(bal) FROM acct WHERE id >= 100")).isEqualTo(15);
                c.commit();
            }
        }
    }

    @Test
    void jdbcSavepointsAndAutosaveRollBackToTheSavepoint() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO saved VALUES (200, 1)");
                java.sql.Savepoint sp = c.setSavepoint();
                s.executeUpdate("INSERT INTO saved VALUES (201, 1)");
                c.rollback(sp);
                s.executeUpdate("UPDATE saved SET bal = 2 WHERE id = 200");
                c.commit();
                assertThat(count(s, "SELECT count(*) FROM saved WHERE id IN (200, 201)")).isEqualTo(1);
                assertThat(count(s, "SELECT bal FROM saved WHERE id = 200")).isEqualTo(2);
                c.commit();
            }
        }
        // autosave=always: pgjdbc wraps each statement in SAVEPOINT / RELEASE and rolls back to it after an error.
        java.util.Properties autosave = new java.util.Properties();
        autosave.setProperty("autosave", "always");
        try (Connection c = db.connect(autosave)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO saved VALUES (202, 1)");
                assertThatThrownBy(() -> s.executeUpdate("INSERT INTO saved VALUES (203, 1 / 0)"))
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
                s.executeUpdate("INSERT INTO saved VALUES (204, 1)");
                c.commit();
                assertThat(count(s, "SELECT count(*) FROM saved WHERE id BETWEEN 202 AND 204")).isEqualTo(2);
                c.commit();
            }
        }
    }

    @Test
    void isolationLevelsCanBeReadAndSetAsOrmsDo() throws SQLException {
        try (Connection c = db.connect()) {
            c.getTransactionIsolation(); // SHOW TRANSACTION ISOLATION LEVEL; must not fail
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_SERIALIZABLE);
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement s = c.createStatement()) {
                assertThat(count(s, "SELECT count(*) FROM counter")).isEqualTo(1);
                s.executeUpdate("UPDATE counter SET id = 1 WHERE id = 1");
            }
            c.commit();
        }
    }

    @Test
    void readOnlyConnectionsRefuseWrites() throws SQLException {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            c.setReadOnly(true); // pgjdbc sends BEGIN READ ONLY
            try (Statement s = c.createStatement()) {
                assertThat(count(s, "SELECT count(*) FROM counter")).isEqualTo(1);
                assertThatThrownBy(() -> s.executeUpdate("DELETE FROM counter"))
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
            }
            c.rollback();
        }
    }

    @Test
    void concurrentIncrementsAreNeverLost() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(INCREMENTERS);
        List<Future<Integer>> retries = new ArrayList<>();
        try {
            for (int i = 0; i < INCREMENTERS; i++) retries.add(pool.submit(() -> increment(INCREMENTS_EACH)));
            for (Future<Integer> f : retries) f.get(5, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            assertThat(count(s, "SELECT n FROM counter WHERE id = 1")).isEqualTo(INCREMENTERS * INCREMENTS_EACH);
        }
    }

    /** {@code times} committed increments, each retried until its commit is not a 40001; returns the retries. */
    private static int increment(int times) throws SQLException {
        int retried = 0;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement inc = c.prepareStatement("UPDATE counter SET n = n + 1 WHERE id = 1")) {
                for (int done = 0; done < times; ) {
                    try {
                        assertThat(inc.executeUpdate()).isEqualTo(1);
                        c.commit();
                        done++;
                    } catch (PSQLException e) {
                        if (!"40001".equals(e.getSQLState())) throw e;
                        assertThat(e.getServerErrorMessage().getMessage())
                                .isEqualTo("could not serialize access due to concurrent update");
                        c.rollback(); // a no-op: the failed COMMIT ended the transaction
                        retried++;
                    }
                }
            }
        }
        return retried;
    }

    @Test
    void aConcurrentReaderNeverSeesHalfATransfer() throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO acct VALUES (1, 100), (2, 0)");
        }
        AtomicBoolean done = new AtomicBoolean();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Future<Integer> reads = pool.submit(() -> {
            int n = 0;
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
                while (!done.get()) {
                    assertThat(count(s, "SELECT sum(bal) FROM acct WHERE id IN (1, 2)")).isEqualTo(100);
                    n++;
                }
            }
            return n;
        });
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (int i = 0; i < TRANSFERS; i++) {
                    s.executeUpdate("UPDATE acct SET bal = bal - 1 WHERE id = 1");
                    s.executeUpdate("UPDATE acct SET bal = bal + 1 WHERE id = 2");
                    c.commit();
                }
            }
        } finally {
            done.set(true);
            assertThat(reads.get(5, TimeUnit.MINUTES)).isPositive();
            pool.shutdown();
        }
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            assertThat(count(s, "SELECT bal FROM acct WHERE id = 2")).isEqualTo(TRANSFERS);
        }
    }

    @Test
    void aFetchSizeReadInATransactionStreamsInPortalRowLimits() throws SQLException {
        long before = MemoryPool.process().reserved();
        long mostReserved = 0;
        long rows = 0;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1000);
                try (ResultSet rs = s.executeQuery("SELECT x, y FROM xs, ys")) {
                    while (rs.next()) {
                        if (++rows % 1000 == 0) mostReserved = Math.max(mostReserved, MemoryPool.process().reserved() - before);
                    }
                }
            }
            c.commit();
        }
        assertThat(rows).isEqualTo(1500L * 1500);
        // Held whole, 2.25M rows would take well over 100 MB; streamed, a hash table and a chunk.
        assertThat(mostReserved).as("pool bytes reserved while streaming").isLessThan(8L << 20);
    }

    @Test
    void aCursorOverALargeResultFetchesInPiecesWithBoundedMemory() throws SQLException {
        long before = MemoryPool.process().reserved();
        long mostReserved = 0;
        long rows = 0;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO xs VALUES (0)")).isEqualTo(1); // the cursor reads its block's write
                s.execute("DECLARE big CURSOR FOR SELECT x, y FROM xs, ys");
                while (true) {
                    int got = 0;
                    try (ResultSet rs = s.executeQuery("FETCH FORWARD 5000 FROM big")) {
                        while (rs.next()) got++;
                    }
                    mostReserved = Math.max(mostReserved, MemoryPool.process().reserved() - before);
                    if (got == 0) break;
                    rows += got;
                }
                s.execute("CLOSE big");
                assertThatThrownBy(() -> s.executeQuery("FETCH 1 FROM big"))
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("34000"));
            }
            c.rollback();
        }
        assertThat(rows).isEqualTo(1501L * 1500);
        assertThat(mostReserved).as("pool bytes reserved while fetching").isLessThan(8L << 20);
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
