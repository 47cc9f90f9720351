package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Msg;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sockets that never finish startup are bounded ({@link PgServer.Limits#maxStartingConnections})
 * and cost no thread; past the bound a socket is refused at once with FATAL 53300.
 */
class ConnectionLimitsTest {
    private static final int STARTING_LIMIT = 4;

    private CannedSession.Probe probe;
    private PgServer server;

    @BeforeEach
    void start() {
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory(), PgServer.Limits.DEFAULTS.withMaxStartingConnections(STARTING_LIMIT))
                .start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private int port() { return server.boundPort(); }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not reached in 30s: " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    private static long connectionThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("pgwire-conn-")).count();
    }

    private int selectOne() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port() + "/materialize?user=x");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    @Test
    void socketsThatNeverStartUpAreBoundedAndCostNoThread() throws Exception {
        long threadsBefore = connectionThreads();
        List<RawClient> idle = new ArrayList<>();
        try {
            for (int i = 0; i < STARTING_LIMIT; i++) idle.add(new RawClient(port()));
            await("the idle sockets are accepted", () -> server.startingConnections() == STARTING_LIMIT);
            for (int i = 0; i < 50; i++) {
                try (RawClient refused = new RawClient(port())) {
                    List<Msg> msgs = refused.readUntilClosed();
                    assertThat(msgs).hasSize(1);
                    assertThat(msgs.getFirst().fields()).containsEntry('S', "FATAL").containsEntry('C', "53300")
                            .containsEntry('M', "sorry, too many clients already");
                    assertThat(msgs.getFirst().fields().get('H')).contains("--max-starting-connections");
                }
            }
            assertThat(server.startingConnections()).isEqualTo(STARTING_LIMIT);
            assertThat(connectionThreads()).isEqualTo(threadsBefore);
        } finally {
            for (RawClient c : idle) c.close();
        }
        await("the idle sockets are gone", () -> server.startingConnections() == 0);
        assertThat(selectOne()).isEqualTo(1);
    }

    @Test
    void aConnectionLeavesTheStartupCountOnceItHasASession() throws Exception {
        List<RawClient> started = new ArrayList<>();
        try {
            for (int i = 0; i < STARTING_LIMIT * 3; i++) started.add(RawClient.started(port()));
            assertThat(server.startingConnections()).isZero();
            assertThat(selectOne()).isEqualTo(1);
        } finally {
            for (RawClient c : started) c.close();
        }
    }

    @Test
    void aRefusedStartupGivesItsSlotBack() throws Exception {
        for (int i = 0; i < STARTING_LIMIT * 3; i++) {
            try (RawClient c = new RawClient(port())) {
                List<Msg> msgs = c.startup(Map.of("user", "u", "database", "nosuchdb"));
                assertThat(msgs.getLast().fields()).containsEntry('C', "3D000");
            }
        }
        await("every refused startup gave its slot back", () -> server.startingConnections() == 0);
        assertThat(selectOne()).isEqualTo(1);
    }
}
