package io.stillwater.pgwire.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Strict serializable reads see every acknowledged write (issue 4, "Done when"): on an
 * engine with 2 maintenance workers, a reader inserts a row, and as soon as the INSERT is
 * acknowledged reads it back through pgjdbc three ways: a fast-path point lookup in the
 * table's default index, a lookup in an indexed view (count per writer and group), and a
 * materialized view (count and sum per writer). Meanwhile several writer threads insert
 * batches into the same table, so the maintenance workers are busy and the frontiers keep
 * moving. Every check is exact: the reader is the only writer of its own rows, so a read
 * that misses an acknowledged write (or sees half of one) fails the test.
 *
 * <p>The work is fixed, not timed (issue 12): the reader runs {@code
 * -Dstillwater.ryw.iterations} iterations (default {@value #DEFAULT_ITERATIONS}) and grants
 * each writer one batch per iteration ({@link WritePacing}), so the writers keep maintenance
 * busy during the checks but never run ahead of the reader: at most 1 + {@value #WRITERS} ×
 * {@value #BATCH} rows per iteration, whatever the machine's speed. Before, the writers wrote
 * as fast as they could until the reader finished, so on a slow or loaded machine the
 * backlog, the heap and the run time grew with the machine's slowness. There are no sleeps
 * and no timing assertions; the hang guard is the suite's default per-test limit.
 */
class ReadYourWritesTest {
    private static final int READER = 0;
    private static final int WRITERS = 3;
    private static final int BATCH = 10;
    private static final int GROUPS = 7;
    private static final int DEFAULT_ITERATIONS = 300;
    private static final int ITERATIONS = Integer.getInteger("stillwater.ryw.iterations", DEFAULT_ITERATIONS);

    static EmbeddedStillwater db;

    @BeforeAll
    static void start() throws SQLException {
        db = new EmbeddedStillwater(2);
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE events (writer int, seq int, grp int, amount int)");
            s.execute("CREATE DEFAULT INDEX ON events");
            s.execute("CREATE VIEW per_group AS SELECT writer, grp, count(*) AS n FROM events GROUP BY writer, grp");
            s.execute("CREATE DEFAULT INDEX ON per_group");
            s.execute("CREATE MATERIALIZED VIEW per_writer AS "
                    + "SELECT writer, count(*) AS n, sum(amount) AS total FROM events GROUP BY writer");
        }
    }

    @AfterAll
    static void stop() {
        if (db != null) db.close();
    }

    @Test
    void aReadRightAfterAnAcknowledgedInsertSeesIt() throws Exception {
        WritePacing pacing = new WritePacing();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<Long>> writers = new ArrayList<>();
        try {
            for (int w = 1; w <= WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> write(writer, pacing)));
            }
            readYourWrites(pacing);
        } finally {
            pacing.stop();
            pool.shutdown();
            assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).as("writers stop after their current batch").isTrue();
        }

        // Every writer's acknowledged rows are all in the materialized view, exactly.
        try (Connection c = db.connect();
             PreparedStatement mv = c.prepareStatement("SELECT n FROM per_writer WHERE writer = ?")) {
            for (int w = 1; w <= WRITERS; w++) {
                long acknowledged = writers.get(w - 1).get();
                mv.setInt(1, w);
                assertThat(single(mv)).as("rows of writer %d in per_writer", w).isEqualTo(acknowledged);
            }
        }
    }

    /**
     * How the reader paces the writers: at the start of each iteration it grants every writer
     * one batch, and {@link #stop()} ends them. A writer takes one grant per batch, so the
     * writes follow the reader's progress and their total is bounded; a writer slower than
     * the reader keeps its unused grants until the reader stops.
     */
    private static final class WritePacing {
        private final Semaphore[] grants = new Semaphore[WRITERS + 1]; // by writer number, 1..WRITERS
        private volatile boolean stopped;

        WritePacing() {
            for (int w = 1; w <= WRITERS; w++) grants[w] = new Semaphore(0);
        }

        /** Called by the reader at the start of each iteration. */
        void grantOneBatchPerWriter() {
            for (int w = 1; w <= WRITERS; w++) grants[w].release();
        }

        /** Ends the writers: each finishes the batch it is writing, if any, and returns. */
        void stop() {
            stopped = true;
            for (int w = 1; w <= WRITERS; w++) grants[w].release(); // wakes a writer waiting for a grant
        }

        /** Waits for writer {@code w}'s next grant; false once stopped. */
        boolean awaitGrant(int w) throws InterruptedException {
            grants[w].acquire();
            return !stopped;
        }
    }

    /** The reader: insert one row, then read it back through the index, the indexed view and the MV. */
    private static void readYourWrites(WritePacing pacing) throws SQLException {
        try (Connection c = db.connect();
             PreparedStatement insert = c.prepareStatement("INSERT INTO events VALUES (?, ?, ?, ?)");
             PreparedStatement lookup = c.prepareStatement(
                     "SELECT seq FROM events WHERE writer = ? AND seq = ? AND grp = ? AND amount = ?");
             PreparedStatement perGroup = c.prepareStatement(
                     "SELECT n FROM per_group WHERE writer = ? AND grp = ?");
             PreparedStatement perWriter = c.prepareStatement(
                     "SELECT n, total FROM per_writer WHERE writer = ?")) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW transaction_isolation")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("strict serializable");
            }
            long[] perGroupCount = new long[GROUPS];
            long total = 0;
            for (int i = 0; i < ITERATIONS; i++) {
                pacing.grantOneBatchPerWriter();
                int grp = i % GROUPS;
                int amount = i * 3 + 1;
                insert.setInt(1, READER);
                insert.setInt(2, i);
                insert.setInt(3, grp);
                insert.setInt(4, amount);
                assertThat(insert.executeUpdate()).isEqualTo(1);
                perGroupCount[grp]++;
                total += amount;

                // 1. Fast-path lookup on the full key of the table's default index.
                lookup.setInt(1, READER);
                lookup.setInt(2, i);
                lookup.setInt(3, grp);
                lookup.setInt(4, amount);
                assertThat(rows(lookup)).as("iteration %d: lookup of the row just inserted", i)
                        .containsExactly(List.of((long) i));

                // 2. Lookup in the indexed view: my rows in this group, all of them.
                perGroup.setInt(1, READER);
                perGroup.setInt(2, grp);
                assertThat(single(perGroup)).as("iteration %d: per_group count for group %d", i, grp)
                        .isEqualTo(perGroupCount[grp]);

                // 3. The materialized view: count and sum of all my rows so far.
                perWriter.setInt(1, READER);
                assertThat(rows(perWriter)).as("iteration %d: per_writer row", i)
                        .containsExactly(List.of((long) i + 1, total));
            }
        } finally {
            pacing.stop();
        }
    }

    /** A writer: a multi-row INSERT of {@link #BATCH} rows per grant until stopped; returns the rows acknowledged. */
    private static long write(int writer, WritePacing pacing) throws SQLException, InterruptedException {
        StringBuilder sql = new StringBuilder("INSERT INTO events VALUES ");
        for (int r = 0; r < BATCH; r++) sql.append(r == 0 ? "" : ", ").append("(?, ?, ?, ?)");
        long acknowledged = 0;
        try (Connection c = db.connect(); PreparedStatement insert = c.prepareStatement(sql.toString())) {
            int seq = 0;
            while (pacing.awaitGrant(writer)) {
                for (int r = 0; r < BATCH; r++) {
                    insert.setInt(4 * r + 1, writer);
                    insert.setInt(4 * r + 2, seq);
                    insert.setInt(4 * r + 3, seq % GROUPS);
                    insert.setInt(4 * r + 4, seq);
                    seq++;
                }
                assertThat(insert.executeUpdate()).isEqualTo(BATCH);
                acknowledged += BATCH;
            }
        }
        return acknowledged;
    }

    /** All rows of a query, every column read as a long. */
    private static List<List<Long>> rows(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            List<List<Long>> out = new ArrayList<>();
            while (rs.next()) {
                List<Long> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) row.add(rs.getLong(i));
                out.add(row);
            }
            return out;
        }
    }

    /** The one value of a one-row, one-column result. */
    private static long single(PreparedStatement ps) throws SQLException {
        List<List<Long>> r = rows(ps);
        assertThat(r).as("a single row").hasSize(1);
        assertThat(r.get(0)).as("a single column").hasSize(1);
        return r.get(0).get(0);
    }
}
