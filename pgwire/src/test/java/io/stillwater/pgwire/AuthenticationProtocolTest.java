package io.stillwater.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Body;
import io.stillwater.pgwire.RawClient.Msg;
import io.stillwater.pgwire.auth.AuthMethod;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.pgwire.auth.ScramClient;
import io.stillwater.pgwire.auth.TestRoles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SASL exchange byte by byte, as a client that does what no driver would: message
 * order, the final AuthenticationSASLFinal and AuthenticationOk, malformed data (08P01 and
 * closed, server unharmed), a client that stops mid-exchange (closed by the startup
 * timeout, its slot given back).
 */
class AuthenticationProtocolTest {
    private CannedSession.Probe probe;
    private PgServer server;

    @BeforeEach
    void start() {
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory(), PgServer.Limits.DEFAULTS, SCRAM).start("127.0.0.1", 0);
    }

    private static final Authentication SCRAM = Authentication.of(AuthMethod.SCRAM_SHA_256, new TestRoles());

    /** Restarts the server with a startup timeout short enough to wait for in a test. */
    private void withShortStartupTimeout() {
        server.close();
        server = new PgServer(probe.factory(), PgServer.Limits.DEFAULTS, SCRAM.withTimeout(Duration.ofMillis(1000)))
                .start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawClient startup(String user) throws IOException {
        RawClient c = new RawClient(server.boundPort());
        Body b = new Body().int32(3 << 16).cstring("user").cstring(user).cstring("database").cstring("materialize");
        c.sendUntyped(b.int8(0).bytes());
        return c;
    }

    private static int authCode(Msg m) {
        assertThat(m.type()).as("an authentication request, got %s", m).isEqualTo('R');
        return ByteBuffer.wrap(m.body()).getInt();
    }

    private static String authData(Msg m) {
        return new String(m.body(), 4, m.body().length - 4, StandardCharsets.UTF_8);
    }

    @Test
    void theWholeExchangeInOrderEndsInASession() throws Exception {
        try (RawClient c = startup("alice")) {
            Msg sasl = c.read();
            assertThat(authCode(sasl)).isEqualTo(10);
            assertThat(authData(sasl)).isEqualTo("SCRAM-SHA-256\0\0");
            ScramClient client = new ScramClient("rOprNGfwEbeRWgbNEkqO");
            c.send('p', client.saslInitialResponse("SCRAM-SHA-256"));
            Msg cont = c.read();
            assertThat(authCode(cont)).isEqualTo(11);
            String serverFirst = authData(cont);
            assertThat(serverFirst).matches("r=rOprNGfwEbeRWgbNEkqO[A-Za-z0-9+/=]{24},s=[A-Za-z0-9+/=]+,i=4096");
            c.send('p', client.clientFinal(serverFirst, "secret").getBytes(StandardCharsets.UTF_8));
            Msg fin = c.read();
            assertThat(authCode(fin)).isEqualTo(12);
            assertThat(authData(fin)).isEqualTo(client.expectedServerFinal());
            List<Msg> rest = c.readUntilReady();
            assertThat(authCode(rest.getFirst())).isZero(); // AuthenticationOk
            assertThat(rest.getLast().type()).isEqualTo('Z');
        }
        assertThat(probe.users).containsExactly("alice");
    }

    @Test
    void aWrongProofIsFatal28P01AndNoSessionOpens() throws Exception {
        try (RawClient c = startup("alice")) {
            c.read();
            ScramClient client = new ScramClient("abc");
            c.send('p', client.saslInitialResponse("SCRAM-SHA-256"));
            String serverFirst = authData(c.read());
            c.send('p', client.clientFinal(serverFirst, "wrong").getBytes(StandardCharsets.UTF_8));
            List<Msg> end = c.readUntilClosed();
            assertThat(end).hasSize(1);
            assertThat(end.getFirst().fields()).containsEntry('S', "FATAL").containsEntry('C', "28P01")
                    .containsEntry('M', "password authentication failed for user \"alice\"");
        }
        assertThat(probe.opened.get()).isZero();
    }

    @Test
    void malformedSaslDataIs08P01AndTheServerCarriesOn() throws Exception {
        for (byte[] bad : new byte[][] {new byte[0], {1, 2, 3}, "SCRAM-SHA-256\0\0\0\0\3n,,".getBytes(StandardCharsets.ISO_8859_1),
                new ScramClient("x").saslInitialResponse("SCRAM-SHA-1")}) {
            try (RawClient c = startup("alice")) {
                c.read();
                c.send('p', bad);
                List<Msg> end = c.readUntilClosed();
                assertThat(end).as(java.util.Arrays.toString(bad)).hasSize(1);
                assertThat(end.getFirst().fields()).containsEntry('S', "FATAL").containsEntry('C', "08P01");
            }
        }
        try (RawClient c = startup("alice")) { // client-first fine, client-final garbage
            c.read();
            c.send('p', new ScramClient("abc").saslInitialResponse("SCRAM-SHA-256"));
            c.read();
            c.send('p', "c=biws,r=nope".getBytes(StandardCharsets.UTF_8));
            assertThat(c.readUntilClosed().getFirst().fields()).containsEntry('C', "08P01");
        }
        try (RawClient c = startup("alice")) { // an oversized password message is refused from its header
            c.read();
            c.sendRaw(ByteBuffer.allocate(5).put((byte) 'p').putInt(1 << 20).array());
            assertThat(c.readUntilClosed().getFirst().fields()).containsEntry('C', "08P01");
        }
        await("no connection left in startup", () -> server.startingConnections() == 0);
    }

    @Test
    void anotherMessageInsteadOfTheResponseIsAProtocolViolation() throws Exception {
        try (RawClient c = startup("alice")) {
            c.read();
            c.send('Q', new Body().cstring("SELECT 1").bytes());
            List<Msg> end = c.readUntilClosed();
            assertThat(end.getFirst().fields()).containsEntry('C', "08P01")
                    .containsEntry('M', "expected password response, got another message type");
        }
        assertThat(probe.opened.get()).isZero();
    }

    @Test
    void aClientThatStopsMidExchangeIsClosedByTheStartupTimeout() throws Exception {
        withShortStartupTimeout();
        try (RawClient c = startup("alice")) {
            c.read();
            c.send('p', new ScramClient("abc").saslInitialResponse("SCRAM-SHA-256"));
            c.read(); // server-first; the client never answers
            assertThat(server.startingConnections()).isEqualTo(1);
            List<Msg> end = c.readUntilClosed();
            assertThat(end.getFirst().fields()).containsEntry('C', "08P01")
                    .containsEntry('M', "timeout expired during startup");
        }
        await("the timed-out connection gave its startup slot back", () -> server.startingConnections() == 0);
    }

    @Test
    void aSuccessfulLoginIsNotClosedByTheStartupTimeoutLater() throws Exception {
        withShortStartupTimeout();
        try (RawClient c = startup("alice")) {
            c.read();
            ScramClient client = new ScramClient("abc");
            c.send('p', client.saslInitialResponse("SCRAM-SHA-256"));
            c.send('p', client.clientFinal(authData(c.read()), "secret").getBytes(StandardCharsets.UTF_8));
            assertThat(c.readUntilReady().getLast().type()).isEqualTo('Z');
            // Wait past the timeout by asking the server: it must still answer.
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2000);
            while (System.nanoTime() < until) {
                c.send('Q', new Body().cstring("SELECT 1").bytes());
                assertThat(c.readUntilReady().getLast().type()).isEqualTo('Z');
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    @Test
    void noneOfThisIsAskedUnderTrust() throws Exception {
        try (PgServer trust = new PgServer(probe.factory()).start("127.0.0.1", 0);
             RawClient c = new RawClient(trust.boundPort())) {
            List<Msg> msgs = c.startup(Map.of("user", "anyone"));
            assertThat(authCode(msgs.getFirst())).isZero();
            assertThat(msgs.getLast().type()).isEqualTo('Z');
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("not reached in 30s: " + what);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }
}
