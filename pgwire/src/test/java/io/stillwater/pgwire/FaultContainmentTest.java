package io.stillwater.pgwire;

import org.postgresql.util.PSQLException;
import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.pgwire.RawClient.Msg;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whatever a session throws while serving a message, {@link Error}s included, the client
 * gets an ErrorResponse with a SQLSTATE and no Java text, the server log gets the stack
 * trace under the error id the client saw, and the connection stays usable.
 */
class FaultContainmentTest {
    private static final Pattern ERROR_ID = Pattern.compile("error id ([0-9a-f]{8})");

    private CannedSession.Probe probe;
    private PgServer server;
    private PrintStream originalErr;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @BeforeEach
    void start() {
        probe = new CannedSession.Probe();
        server = new PgServer(probe.factory()).start("127.0.0.1", 0);
        // slf4j-simple writes to whatever System.err is at the time: keep a copy of what the server logs.
        originalErr = System.err;
        PrintStream tee = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                originalErr.write(b);
                synchronized (log) {
                    log.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                originalErr.write(b, off, len);
                synchronized (log) {
                    log.write(b, off, len);
                }
            }
        }, true, StandardCharsets.UTF_8);
        System.setErr(tee);
    }

    @AfterEach
    void stop() {
        System.setErr(originalErr);
        server.close();
    }

    private String log() {
        synchronized (log) {
            return log.toString(StandardCharsets.UTF_8);
        }
    }

    private int port() { return server.boundPort(); }

    /** Asserts that no field of {@code error} shows Java internals. */
    private static void assertNoJavaText(Map<Character, String> error) {
        for (char field : new char[] {'M', 'D', 'H'}) {
            String text = error.getOrDefault(field, "");
            assertThat(text).as("field " + field).doesNotContain("java.", "Error:", "Exception", "Object@", "\tat ");
        }
    }

    /** The error id in {@code text}, checked to be in the server log with a stack trace, exactly once. */
    private String assertLoggedOnce(String text, String throwableClass) {
        Matcher m = ERROR_ID.matcher(text);
        assertThat(m.find()).as("an error id in " + text).isTrue();
        String id = m.group(1);
        String log = log();
        int at = log.indexOf("error id " + id);
        assertThat(at).as("the log mentions error id " + id).isGreaterThanOrEqualTo(0);
        assertThat(log.indexOf("error id " + id, at + 1)).as("logged once").isNegative();
        assertThat(log.substring(at)).contains(throwableClass);
        return id;
    }

    private static Msg errorIn(List<Msg> msgs) {
        return msgs.stream().filter(m -> m.type() == 'E').findFirst().orElseThrow(
                () -> new AssertionError("no ErrorResponse in " + RawClient.types(msgs)));
    }

    private static void assertServes(RawClient c, int n) throws Exception {
        c.send('Q', RawClient.query("SELECT " + n));
        List<Msg> msgs = c.readUntilReady();
        assertThat(RawClient.types(msgs)).isEqualTo("TDCZ");
    }

    @Test
    void outOfMemoryIs53200WithAnActionableDetailAndTheConnectionGoesOn() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT throw oom"));
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("EZ");
            Map<Character, String> e = msgs.getFirst().fields();
            assertThat(e).containsEntry('S', "ERROR").containsEntry('C', "53200").containsEntry('M', "out of memory");
            assertThat(e.get('D')).contains("ran out of memory");
            assertThat(e.get('H')).contains("LIMIT");
            assertNoJavaText(e);
            assertLoggedOnce(e.get('D'), "java.lang.OutOfMemoryError");
            assertServes(c, 1);
        }
    }

    @Test
    void anyOtherThrowableIsAnInternalErrorWithAnIdThatTheLogHas() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            for (String kind : List.of("assert", "runtime", "internal")) {
                c.send('Q', RawClient.query("SELECT throw " + kind));
                List<Msg> msgs = c.readUntilReady();
                assertThat(RawClient.types(msgs)).as(kind).isEqualTo("EZ");
                Map<Character, String> e = msgs.getFirst().fields();
                assertThat(e).as(kind).containsEntry('S', "ERROR").containsEntry('C', "XX000");
                assertThat(e.get('M')).as(kind).matches("internal error \\(error id [0-9a-f]{8}\\)");
                assertThat(e.get('H')).contains("server log");
                assertNoJavaText(e);
                assertLoggedOnce(e.get('M'), switch (kind) {
                    case "assert" -> "java.lang.AssertionError";
                    case "runtime" -> "java.lang.IllegalStateException";
                    default -> "java.lang.NullPointerException";
                });
                assertServes(c, 2);
            }
        }
    }

    @Test
    void aFaultInAMultiStatementQueryEndsItThereAndTheSessionGoesOn() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('Q', RawClient.query("SELECT 1; SELECT throw assert; SELECT 2"));
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("TDCEZ");
            assertThat(msgs.get(3).fields()).containsEntry('C', "XX000");
            assertServes(c, 3);
        }
    }

    @Test
    void aFaultInTheExtendedProtocolSkipsToSync() throws Exception {
        try (RawClient c = RawClient.started(port())) {
            c.send('P', RawClient.parse("s", "SELECT throw oom"));
            c.send('B', RawClient.bind("", "s"));
            c.send('E', RawClient.execute("", 0));
            c.send('P', RawClient.parse("t", "SELECT 1")); // skipped
            c.send('S', new byte[0]);
            List<Msg> msgs = c.readUntilReady();
            assertThat(RawClient.types(msgs)).isEqualTo("12EZ");
            assertThat(msgs.get(2).fields()).containsEntry('C', "53200");

            c.send('B', RawClient.bind("", "s")); // the statement is still there; t is not
            c.send('E', RawClient.execute("", 0));
            c.send('S', new byte[0]);
            assertThat(errorIn(c.readUntilReady()).fields()).containsEntry('C', "53200");
            c.send('B', RawClient.bind("", "t"));
            c.send('S', new byte[0]);
            assertThat(errorIn(c.readUntilReady()).fields()).containsEntry('C', "26000");
            assertServes(c, 4);
        }
    }

    @Test
    void pgjdbcSessionsSurviveFaultsOnOneOfThem() throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + port() + "/materialize?user=x";
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url);
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            for (String kind : List.of("oom", "assert", "runtime")) {
                try {
                    sa.executeQuery("SELECT throw " + kind).close();
                    throw new AssertionError("no error for " + kind);
                } catch (PSQLException e) {
                    assertThat(e.getSQLState()).isEqualTo(kind.equals("oom") ? "53200" : "XX000");
                    assertThat(e.getServerErrorMessage().getMessage()).doesNotContain("java.");
                }
                for (Statement s : List.of(sa, sb)) {
                    try (ResultSet rs = s.executeQuery("SELECT 7")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt(1)).isEqualTo(7);
                    }
                }
            }
        }
    }

    @Test
    void aFailureOutsideAStatementEndsTheConnectionWithAnErrorInsteadOfSilence() throws Exception {
        try (RawClient c = new RawClient(port())) {
            List<Msg> msgs = c.startup(Map.of("user", "crash-at-startup"));
            assertThat(msgs).isNotEmpty();
            Map<Character, String> e = msgs.getLast().fields();
            assertThat(msgs.getLast().type()).isEqualTo('E');
            assertThat(e).containsEntry('S', "FATAL").containsEntry('C', "XX000");
            assertNoJavaText(e);
            assertLoggedOnce(e.get('M'), "java.lang.AssertionError");
            assertThat(c.readUntilClosed()).isEmpty();
        }
        assertThat(probe.firstClosed.await(30, TimeUnit.SECONDS)).as("the session opened is closed").isTrue();
        try (RawClient c = RawClient.started(port())) {
            assertServes(c, 5);
        }
    }
}
