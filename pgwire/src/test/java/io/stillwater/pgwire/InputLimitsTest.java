package io.stillwater.pgwire;

import java.io.IOException;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.stillwater.pgwire.RawClient.Body;
import io.stillwater.pgwire.RawClient.Msg;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Client input is bounded: a message over the maximum size is refused from its header
 * (FATAL 08P01), and incomplete messages of all connections together hold at most the
 * input budget: a connection that would pass it is refused (FATAL 53200) while the
 * others, and new connections, keep working.
 */
class InputLimitsTest {
    private static final int MIB = 1 << 20;

    private final CannedSession.Probe probe = new CannedSession.Probe();
    private PgServer server;

    @AfterEach
    void stop() {
        if (server != null) server.close();
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not reached in 30s: " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    private int selectOne(String padding) throws Exception {
        try (Connection c = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.boundPort() + "/materialize?user=x&preferQueryMode=simple");
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1" + padding)) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }

    private static long usedDirectMemory() {
        return ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider p ? p.metric().usedDirectMemory() : 0;
    }

    /** "SELECT 1" and spaces, {@code length} bytes with the terminator: a query CannedSession answers with 1. */
    private static byte[] paddedSelectOne(int length) {
        byte[] body = new byte[length];
        Arrays.fill(body, (byte) ' ');
        System.arraycopy("SELECT 1".getBytes(), 0, body, 0, 8);
        body[length - 1] = 0;
        return body;
    }

    @Test
    void aMessageOverTheMaximumIsRefusedFromItsHeaderNamingTheLimitAndTheFlag() throws Exception {
        server = new PgServer(probe.factory()).start("127.0.0.1", 0);
        assertThat(server.limits().maxMessageSize()).isEqualTo(16 * MIB);
        try (RawClient c = RawClient.started(server.boundPort())) {
            c.sendRaw(new Body().int8('Q').int32(17 * MIB).bytes());
            List<Msg> msgs = c.readUntilClosed();
            Map<Character, String> e = msgs.getLast().fields();
            assertThat(e).containsEntry('S', "FATAL").containsEntry('C', "08P01");
            assertThat(e.get('M')).contains("too large", "17825792", "16777216", "--max-message-size");
        }
        assertThat(server.bufferedInputBytes()).isZero();
        // Just under the limit is accepted and answered.
        assertThat(selectOne(" ".repeat(15 * MIB))).isEqualTo(1);
    }

    @Test
    void incompleteMessagesOfAllConnectionsStayWithinTheBudget() throws Exception {
        long budget = 64L * MIB;
        server = new PgServer(probe.factory(), PgServer.Limits.DEFAULTS.withMaxBufferedInput(budget))
                .start("127.0.0.1", 0);
        int length = 15 * MIB; // the message length field, counting itself
        byte[] body = paddedSelectOne(length - 4);
        long perMessage = 1L + length;
        long directBefore = usedDirectMemory();
        List<RawClient> accepted = new ArrayList<>();
        int refused = 0;
        try {
            for (int i = 0; i < 12; i++) {
                RawClient c = RawClient.started(server.boundPort());
                long reservedBefore = server.bufferedInputBytes();
                // The header and the first bytes of the body: decided before the rest is sent.
                c.sendRaw(new Body().int8('Q').int32(length).raw(Arrays.copyOf(body, 1024)).bytes());
                await("accepted or refused", () -> server.bufferedInputBytes() > reservedBefore || available(c) > 0);
                if (server.bufferedInputBytes() > reservedBefore) {
                    c.sendRaw(Arrays.copyOfRange(body, 1024, body.length - 1)); // all but the last byte
                    accepted.add(c);
                    continue;
                }
                refused++;
                List<Msg> msgs = c.readUntilClosed();
                Map<Character, String> e = msgs.getLast().fields();
                assertThat(e).containsEntry('S', "FATAL").containsEntry('C', "53200");
                assertThat(e.get('H')).contains("--max-buffered-input");
                c.close();
            }
            assertThat(accepted).hasSize((int) (budget / perMessage));
            assertThat(refused).isEqualTo(12 - accepted.size());
            assertThat(server.bufferedInputBytes()).isEqualTo(accepted.size() * perMessage);
            // What Netty holds is what the accepted connections sent (cumulation buffers round up to
            // 4 MiB steps and the allocator keeps some chunks: generously, half the budget again).
            assertThat(usedDirectMemory() - directBefore).isLessThanOrEqualTo(budget * 3 / 2);

            // Unrelated connections keep working, even with a message as large as the ones held.
            assertThat(selectOne("")).isEqualTo(1);

            // A held message completes: it is answered and its reservation returns to the budget.
            RawClient first = accepted.removeFirst();
            first.sendRaw(new byte[] {0});
            assertThat(RawClient.types(first.readUntilReady())).isEqualTo("TDCZ");
            first.close();
            assertThat(server.bufferedInputBytes()).isEqualTo(accepted.size() * perMessage);
            try (RawClient next = RawClient.started(server.boundPort())) {
                next.sendRaw(new Body().int8('Q').int32(length).bytes());
                next.sendRaw(body);
                assertThat(RawClient.types(next.readUntilReady())).isEqualTo("TDCZ");
            }
        } finally {
            for (RawClient c : accepted) c.close();
        }
        await("connections that went away released their reservations", () -> server.bufferedInputBytes() == 0);
    }

    private static int available(RawClient c) {
        try {
            return c.socket().getInputStream().available();
        } catch (IOException e) {
            return 1; // closed: reading will tell
        }
    }
}
