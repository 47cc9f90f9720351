package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Msg;
import io.stillwater.pgwire.embedded.EmbeddedStillwater;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Large results of a real query on a real engine reach real clients as a stream:
 * pgjdbc in cursor mode (extended protocol, Execute with a row limit), psql (simple
 * protocol), and a client that stops reading, which makes the server wait with bounded
 * outbound buffers until it reads again or cancels.
 */
class EngineStreamingTest {
    private static final int ROWS = 5_000_000;
    private static final Path PSQL = Path.of("/usr/bin/psql");
    /** What one connection may hold for sending: the high-water mark, two chunks and a row. */
    private static final long OUTBOUND_BOUND = PgServer.WRITE_HIGH_WATER_MARK + 2L * Outbound.CHUNK + 1024;
    private static final String SERIES = "SELECT * FROM generate_series(1, " + ROWS + ")";

    static EmbeddedStillwater db;

    @BeforeAll
    static void start() { db = new EmbeddedStillwater(); }

    @AfterAll
    static void stop() { db.close(); }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not reached in 60s: " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    @Test
    void pgjdbcCursorModeReadsMillionsOfRows() throws Exception {
        long maxOutbound = 0;
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1000);
                long count = 0;
                long sum = 0;
                try (ResultSet rs = s.executeQuery(SERIES)) {
                    while (rs.next()) {
                        count++;
                        sum += rs.getLong(1);
                        if (count % 100_000 == 0) maxOutbound = Math.max(maxOutbound, db.server().bufferedOutputBytes());
                    }
                }
                assertThat(count).isEqualTo(ROWS);
                assertThat(sum).isEqualTo((long) ROWS * (ROWS + 1) / 2);
            }
            c.commit();
        }
        assertThat(maxOutbound).isLessThanOrEqualTo(OUTBOUND_BOUND);
    }

    @Test
    void psqlReadsMillionsOfRowsInSimpleMode() throws Exception {
        assertThat(Files.isExecutable(PSQL)).as("psql must be installed").isTrue();
        ProcessBuilder pb = new ProcessBuilder(List.of(PSQL.toString(), "-X", "-At", "-v", "ON_ERROR_STOP=1",
                "-h", "127.0.0.1", "-p", String.valueOf(db.port()), "-U", "materialize", "-d", "materialize",
                "-c", SERIES));
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        p.getOutputStream().close();
        long maxOutbound = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!p.waitFor(20, TimeUnit.MILLISECONDS)) {
            maxOutbound = Math.max(maxOutbound, db.server().bufferedOutputBytes());
            if (System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new AssertionError("psql did not finish in 5 minutes");
            }
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(maxOutbound).isLessThanOrEqualTo(OUTBOUND_BOUND);
    }

    @Test
    void aClientThatStopsReadingIsWaitedForAndCanCancel() throws Exception {
        try (RawClient c = RawClient.started(db.port())) {
            c.send('Q', RawClient.query(SERIES));
            await("the worker waits for the client", () -> db.server().connectionsAwaitingWritability() == 1);
            assertThat(db.server().bufferedOutputBytes()).isLessThanOrEqualTo(OUTBOUND_BOUND);
            c.cancel(db.port());
            List<Msg> msgs = c.readUntilReady();
            Msg error = msgs.get(msgs.size() - 2);
            assertThat(error.type()).isEqualTo('E');
            assertThat(error.fields()).containsEntry('C', "57014");
            assertThat(msgs.stream().filter(m -> m.type() == 'D').count()).isLessThan(ROWS);

            c.send('Q', RawClient.query("SELECT 41 + 1"));
            List<Msg> next = c.readUntilReady();
            assertThat(RawClient.types(next)).isEqualTo("TDCZ");
        }
        await("no connection waits", () -> db.server().connectionsAwaitingWritability() == 0);
    }
}
