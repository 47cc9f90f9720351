package io.stillwater.pgwire;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Body;
import io.stillwater.pgwire.RawClient.Msg;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Results are streamed to the socket: rows leave as the session's {@link
 * io.stillwater.engine.session.RowStream} produces them, a client that does not read
 * makes the server wait instead of buffer, and every stream is closed on every path
 * (completion, error, cancel, portal close/replace, transaction end, disconnect).
 * Runs against {@link CannedSession}'s lazily produced streams.
 */
class StreamingTest {
    /** The most a connection may hold for sending: high-water mark, a chunk on its way, a chunk being filled, a row. */
    private static final long OUTBOUND_BOUND = PgServer.WRITE_HIGH_WATER_MARK + 2L * Outbound.CHUNK + 8 * 1024;

    private CannedSession.Probe probe;
    private PgServer server;

    @BeforeEach
    void start() {
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory()).start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private int port() { return server.boundPort(); }

    /** Waits (bounded) until {@code condition} holds. */
    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not reached in 30s: " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    private void awaitAllStreamsClosed() {
        await("every stream closed (" + probe.streamsOpened + " opened, " + probe.streamsClosed + " closed)",
                probe::allStreamsClosed);
    }

    private static long count(List<Msg> msgs, char type) {
        return msgs.stream().filter(m -> m.type() == type).count();
    }

    private static String tag(List<Msg> msgs) {
        return msgs.stream().filter(m -> m.type() == 'C').map(Msg::string).reduce((a, b) -> b).orElseThrow();
    }

    private static void sync(RawClient c) throws Exception {
        c.send('S', new byte[0]);
    }

    @Test
    void rowsReachTheClientBeforeTheStreamIsExhausted() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT * FROM gated(1000)"));
            assertThat(c.read().type()).isEqualTo('T');
            for (int i = 1; i <= 1000; i++) {
                Msg row = c.read();
                assertThat(row.type()).isEqualTo('D');
            }
            // Every row arrived while the stream still waits to report its end.
            assertThat(probe.atGate.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
            assertThat(probe.streamsClosed.get()).isZero();
            probe.gate.release();
            List<Msg> rest = c.readUntilReady();
            assertThat(RawClient.types(rest)).isEqualTo("CZ");
            assertThat(rest.getFirst().string()).isEqualTo("SELECT 1000");
        }
        awaitAllStreamsClosed();
    }

    @Test
    void aClientThatStopsReadingMakesTheServerWaitNotBuffer() throws Exception {
        int rows = 100_000;
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT * FROM lazy(" + rows + ", 1000)"));
            // The client reads nothing: the worker must end up waiting for it.
            await("the worker waits for the client", () -> server.connectionsAwaitingWritability() == 1);
            long produced = probe.rowsProduced.get();
            assertThat(server.bufferedOutputBytes()).isLessThanOrEqualTo(OUTBOUND_BOUND);
            // What was produced fits the server's bound plus the kernel's socket buffers, far from all of it.
            assertThat(produced).isLessThan(rows / 2);
            // While it waits it may still hand over a chunk when the kernel grows the socket's
            // buffers (autotuning), but it stays waiting and bounded, far from all of it.
            await("the worker waits again", () -> server.connectionsAwaitingWritability() == 1);
            assertThat(server.bufferedOutputBytes()).isLessThanOrEqualTo(OUTBOUND_BOUND);
            assertThat(probe.rowsProduced.get()).isLessThan(rows / 2);

            List<Msg> all = c.readUntilReady();
            assertThat(count(all, 'D')).isEqualTo(rows);
            assertThat(tag(all)).isEqualTo("SELECT " + rows);
            assertThat(all.getLast().type()).isEqualTo('Z');
        }
        awaitAllStreamsClosed();
        assertThat(server.bufferedOutputBytes()).isZero();
    }

    @Test
    void aCancelStopsAResultTheClientIsNotReading() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT * FROM lazy(1000000, 1000)"));
            await("the worker waits for the client", () -> server.connectionsAwaitingWritability() == 1);
            c.cancel(port());
            List<Msg> msgs = c.readUntilReady();
            assertThat(count(msgs, 'D')).isLessThan(1_000_000);
            Msg error = msgs.get(msgs.size() - 2);
            assertThat(error.type()).isEqualTo('E');
            assertThat(error.fields()).containsEntry('C', "57014");
            awaitAllStreamsClosed();

            c.send('Q', RawClient.query("SELECT 5"));
            assertThat(RawClient.types(c.readUntilReady())).isEqualTo("TDCZ");
        }
    }

    @Test
    void aClientThatGoesAwayMidResultClosesTheStream() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT * FROM lazy(1000000, 1000)"));
            await("the worker waits for the client", () -> server.connectionsAwaitingWritability() == 1);
        }
        awaitAllStreamsClosed();
        await("the session is closed", () -> probe.closed.get() == 1);
        assertThat(probe.rowsProduced.get()).isLessThan(1_000_000);
    }

    @Test
    void anErrorMidStreamFollowsTheRowsAlreadySent() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT * FROM broken(600)"));
            List<Msg> msgs = c.readUntilReady();
            assertThat(count(msgs, 'D')).isEqualTo(600);
            assertThat(RawClient.types(msgs)).startsWith("TD").endsWith("DEZ");
            assertThat(msgs.get(msgs.size() - 2).fields()).containsEntry('C', "22012");

            c.send('Q', RawClient.query("SELECT * FROM oom(300)"));
            msgs = c.readUntilReady();
            assertThat(count(msgs, 'D')).isEqualTo(300);
            assertThat(msgs.get(msgs.size() - 2).fields()).containsEntry('C', "53200").containsEntry('M', "out of memory");

            c.send('Q', RawClient.query("SELECT * FROM lazy(3)"));
            assertThat(RawClient.types(c.readUntilReady())).isEqualTo("TDDDCZ");
        }
        awaitAllStreamsClosed();
    }

    @Test
    void aRowLimitSuspendsTheOpenStreamAndCountsTheRowsOfEachExecute() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("BEGIN"));
            c.readUntilReady();
            c.send('P', RawClient.parse("s", "SELECT * FROM lazy(5)"));
            c.send('B', RawClient.bind("p", "s"));
            c.send('E', RawClient.execute("p", 2));
            c.send('E', RawClient.execute("p", 2));
            c.send('E', RawClient.execute("p", 2));
            c.send('E', RawClient.execute("p", 2));
            sync(c);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("12DDsDDsDCCZ");
            assertThat(msgs.get(9).string()).isEqualTo("SELECT 1");
            assertThat(msgs.get(10).string()).isEqualTo("SELECT 0"); // a finished portal
            assertThat(probe.rowsProduced.get()).isEqualTo(5);
            awaitAllStreamsClosed();

            // A limit that ends exactly at the last row suspends, as PostgreSQL does; the next Execute completes it.
            c.send('B', RawClient.bind("q", "s"));
            c.send('E', RawClient.execute("q", 5));
            c.send('E', RawClient.execute("q", 5));
            sync(c);
            msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("2DDDDDsCZ");
            assertThat(msgs.get(7).string()).isEqualTo("SELECT 0");
            c.send('Q', RawClient.query("COMMIT"));
            c.readUntilReady();
        }
        awaitAllStreamsClosed();
    }

    @Test
    void aSuspendedPortalsStreamIsClosedWhenThePortalIsClosedReplacedOrItsTransactionEnds() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            // Closed by Close.
            c.send('Q', RawClient.query("BEGIN"));
            c.readUntilReady();
            c.send('P', RawClient.parse("s", "SELECT * FROM lazy(100000)"));
            c.send('B', RawClient.bind("p", "s"));
            c.send('E', RawClient.execute("p", 10));
            sync(c);
            assertThat(RawClient.types(c.readUntilReady())).endsWith("sZ");
            assertThat(probe.streamsOpened.get() - probe.streamsClosed.get()).isEqualTo(1);
            c.send('C', new Body().int8('P').cstring("p").bytes());
            sync(c);
            assertThat(RawClient.types(c.readUntilReady())).isEqualTo("3Z");
            assertThat(probe.allStreamsClosed()).isTrue();

            // Replaced: binding the unnamed portal again closes the old one's stream.
            c.send('B', RawClient.bind("", "s"));
            c.send('E', RawClient.execute("", 10));
            c.send('B', RawClient.bind("", "s"));
            sync(c);
            assertThat(RawClient.types(c.readUntilReady())).endsWith("s2Z");
            assertThat(probe.streamsOpened.get()).isEqualTo(2);
            assertThat(probe.allStreamsClosed()).isTrue();

            // Replaced by a simple query, which ends the unnamed portal.
            c.send('E', RawClient.execute("", 10));
            sync(c);
            c.readUntilReady();
            assertThat(probe.streamsOpened.get() - probe.streamsClosed.get()).isEqualTo(1);
            c.send('Q', RawClient.query("SELECT 1"));
            c.readUntilReady();
            assertThat(probe.allStreamsClosed()).isTrue(); // the unnamed portal's and SELECT 1's own

            // The transaction ends: its portals go.
            c.send('B', RawClient.bind("p", "s"));
            c.send('E', RawClient.execute("p", 10));
            sync(c);
            c.readUntilReady();
            c.send('Q', RawClient.query("COMMIT"));
            assertThat(c.readUntilReady().getLast().body()).containsExactly('I');
            assertThat(probe.allStreamsClosed()).isTrue();

            // Outside a transaction the portal ends at Sync.
            c.send('B', RawClient.bind("p", "s"));
            c.send('E', RawClient.execute("p", 10));
            sync(c);
            assertThat(RawClient.types(c.readUntilReady())).endsWith("sZ");
            assertThat(probe.allStreamsClosed()).isTrue();

            // The connection ends with a suspended portal.
            c.send('Q', RawClient.query("BEGIN"));
            c.readUntilReady();
            c.send('B', RawClient.bind("p", "s"));
            c.send('E', RawClient.execute("p", 10));
            sync(c);
            c.readUntilReady();
            assertThat(probe.allStreamsClosed()).isFalse();
        }
        awaitAllStreamsClosed();
        assertThat(probe.rowsProduced.get()).isLessThan(10_000); // nothing was read past what was sent
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Generously: what a connection may hold plus noise; far below the ~300 MiB of 5M rows held in memory. */
    private static final long HEAP_GROWTH_BOUND = 64L << 20;

    @Test
    void millionsOfRowsPassThroughWithoutTheServerHoldingThem() throws Exception {
        int rows = 5_000_000;
        long before = usedHeapAfterGc();
        String url = "jdbc:postgresql://127.0.0.1:" + port() + "/materialize?user=x";
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1000);
                long count = 0;
                try (ResultSet rs = s.executeQuery("SELECT * FROM lazy(" + rows + ")")) {
                    while (rs.next()) {
                        count++;
                        if (count == rows / 2) {
                            assertThat(usedHeapAfterGc() - before).isLessThan(HEAP_GROWTH_BOUND);
                        }
                    }
                }
                assertThat(count).isEqualTo(rows);
            }
            c.commit();
        }

        // psql: the simple protocol, one Query for all rows; the server sends them as psql reads.
        Path psql = Path.of("/usr/bin/psql");
        assertThat(Files.isExecutable(psql)).as("psql must be installed").isTrue();
        long producedBefore = probe.rowsProduced.get();
        ProcessBuilder pb = new ProcessBuilder(psql.toString(), "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                "-p", String.valueOf(port()), "-U", "x", "-d", "materialize", "-c", "SELECT * FROM lazy(" + rows + ")");
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        p.getOutputStream().close();
        await("psql is half way", () -> probe.rowsProduced.get() - producedBefore >= rows / 2 || !p.isAlive());
        assertThat(usedHeapAfterGc() - before).isLessThan(HEAP_GROWTH_BOUND);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getErrorStream().readAllBytes())).isZero();
        assertThat(probe.rowsProduced.get() - producedBefore).isEqualTo(rows);
        awaitAllStreamsClosed();
    }

    @Test
    void pgjdbcCursorAndSimpleModesReadLargeLazyResults() throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + port() + "/materialize?user=x";
        int rows = 300_000;
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1000);
                long count = 0;
                long sum = 0;
                try (ResultSet rs = s.executeQuery("SELECT * FROM lazy(" + rows + ")")) {
                    while (rs.next()) {
                        count++;
                        sum += rs.getInt(1);
                        if (count == 1000) {
                            // The first fetch is served from a suspended portal: barely more than asked for was made.
                            assertThat(probe.rowsProduced.get()).isLessThanOrEqualTo(2000);
                        }
                    }
                }
                assertThat(count).isEqualTo(rows);
                assertThat(sum).isEqualTo((long) rows * (rows + 1) / 2);
            }
            c.commit();
        }
        try (Connection c = DriverManager.getConnection(url + "&preferQueryMode=simple");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM lazy(" + rows + ")")) {
            long count = 0;
            while (rs.next()) count++;
            assertThat(count).isEqualTo(rows);
        }
        awaitAllStreamsClosed();
    }
}
