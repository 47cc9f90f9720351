package io.stillwater.pgwire;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.engine.session.ResultColumn;
import io.stillwater.engine.session.RowStream;
import io.stillwater.engine.session.Session;
import io.stillwater.engine.session.TransactionStatus;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test-only {@link Session} that answers a handful of canned statements, so the wire
 * protocol can be tested before (and independently of) the real engine:
 *
 * <pre>
 * SELECT &lt;int&gt;              one INTEGER row
 * SELECT $1, $2, ...         echoes its parameters (types from the client's hints, else text)
 * SELECT * FROM series(n)    INTEGER rows 1..n, column "n"
 * SELECT * FROM lazy(n[, w])  rows 1..n produced as the stream is read (plus a TEXT column of w
 *                            characters if w is given), counted in {@link Probe#rowsProduced}
 * SELECT * FROM gated(n)     lazy(n), whose end waits until the test releases {@link Probe#gate}
 * SELECT * FROM broken(n)    lazy(n), then the stream fails with 22012
 * SELECT * FROM oom(n)       lazy(n), then the stream throws an OutOfMemoryError
 * SELECT throw KIND          execute throws: oom (OutOfMemoryError), assert (AssertionError),
 *                            runtime (IllegalStateException), internal (an XX000 SqlException
 *                            wrapping a NullPointerException, as the engine reports bugs)
 * SELECT typed               one row with a value of each of many types ({@link #TYPED_ROW})
 * SELECT NULL                one UNKNOWN column holding NULL
 * SELECT slow                blocks until cancel(), then fails with 57014
 * SELECT 1/0                 fails with 22012
 * BEGIN / COMMIT / ROLLBACK  transaction status, with FAILED after an error inside a transaction
 * SET application_name = 'x' a Command with a parameter change
 * CREATE TABLE ... / INSERT  Commands
 * anything else              42601
 * </pre>
 *
 * Every result's {@link RowStream} is counted when opened and closed ({@link Probe#streamsOpened},
 * {@link Probe#streamsClosed}). A session of user {@code crash-at-startup} throws an
 * AssertionError from {@link #startupParameters}, after the session was opened.
 */
final class CannedSession implements Session {
    /** What the sessions of one server did, for assertions. Thread-safe. */
    static final class Probe {
        final Semaphore slowStarted = new Semaphore(0);
        final AtomicInteger opened = new AtomicInteger();
        final CountDownLatch firstClosed = new CountDownLatch(1);
        final AtomicInteger closed = new AtomicInteger();
        final AtomicInteger cancels = new AtomicInteger();
        final ConcurrentLinkedQueue<Map<String, String>> startupOptions = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> users = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> databases = new ConcurrentLinkedQueue<>();
        final AtomicInteger streamsOpened = new AtomicInteger();
        final AtomicInteger streamsClosed = new AtomicInteger();
        final AtomicLong rowsProduced = new AtomicLong();
        /** Released by a test to let a gated(n) stream end. */
        final Semaphore gate = new Semaphore(0);
        /** Released when a gated(n) stream has produced its rows and waits at the gate. */
        final Semaphore atGate = new Semaphore(0);

        /** Whether every stream opened so far has been closed. */
        boolean allStreamsClosed() { return streamsOpened.get() == streamsClosed.get(); }

        SessionFactory factory() {
            return (user, database, options) -> {
                if (database.equals("nosuchdb")) {
                    throw new SqlException(SqlState.INVALID_CATALOG_NAME, "database \"nosuchdb\" does not exist");
                }
                opened.incrementAndGet();
                users.add(user);
                databases.add(database);
                startupOptions.add(Map.copyOf(options));
                return new CannedSession(this, user);
            };
        }
    }

    static final List<ResultColumn> TYPED_COLUMNS = List.of(
            new ResultColumn("b", SqlType.BOOLEAN),
            new ResultColumn("i2", SqlType.SMALLINT),
            new ResultColumn("i4", SqlType.INTEGER),
            new ResultColumn("i8", SqlType.BIGINT),
            new ResultColumn("f4", SqlType.REAL),
            new ResultColumn("f8", SqlType.DOUBLE),
            new ResultColumn("num", SqlType.numeric(10, 3)),
            new ResultColumn("txt", SqlType.TEXT),
            new ResultColumn("vc", SqlType.varchar(5)),
            new ResultColumn("d", SqlType.DATE),
            new ResultColumn("t", SqlType.TIME),
            new ResultColumn("ts", SqlType.TIMESTAMP),
            new ResultColumn("tstz", SqlType.TIMESTAMPTZ),
            new ResultColumn("iv", SqlType.INTERVAL),
            new ResultColumn("by", SqlType.BYTEA),
            new ResultColumn("nothing", SqlType.INTEGER));

    static final Row TYPED_ROW = Row.of(true, (short) -7, 123456, 9_000_000_000L, 1.5f, -2.25,
            new BigDecimal("-12345.678"), "héllo", "abc", LocalDate.of(2024, 2, 29), LocalTime.of(13, 14, 15, 123_456_000),
            LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000), Instant.parse("2024-05-06T07:08:09.123456Z"),
            new Interval(14, 3, 4_000_005L), ByteString.copyOf(new byte[] {0, 1, (byte) 0xFF}), null);

    private static final Pattern SELECT_INT = Pattern.compile("(?i)select\\s+(-?\\d+)");
    private static final Pattern SELECT_PARAMS = Pattern.compile("(?i)select\\s+(\\$\\d+(\\s*,\\s*\\$\\d+)*)");
    private static final Pattern SERIES = Pattern.compile("(?i)select\\s+\\*\\s+from\\s+series\\((\\d+)\\)");
    private static final Pattern LAZY = Pattern.compile(
            "(?i)select\\s+\\*\\s+from\\s+(lazy|gated|broken|oom)\\((\\d+)(?:\\s*,\\s*(\\d+))?\\)");
    private static final Pattern THROW = Pattern.compile("(?i)select\\s+throw\\s+(\\w+)");
    private static final Pattern SET_APP = Pattern.compile("(?i)set\\s+application_name\\s*(?:=|to)\\s*'?([^']*)'?");

    private final Probe probe;
    private final String user;
    private volatile CountDownLatch running;
    private TransactionStatus status = TransactionStatus.IDLE;

    private CannedSession(Probe probe, String user) {
        this.probe = probe;
        this.user = user;
    }

    private enum Kind { EMPTY, INT, PARAMS, SERIES, LAZY, THROW, TYPED, NULL, SLOW, DIV_ZERO, BEGIN, COMMIT, ROLLBACK, SET_APP, CREATE, INSERT }

    private record Plan(Kind kind, Object arg) {}

    /** This double's own plans, by prepared statement (PreparedStatement.plan is the engine's type; it stays null here). */
    private final Map<PreparedStatement, Plan> plans = new ConcurrentHashMap<>();

    @Override
    public PreparedStatement prepare(String sql, List<SqlType> hints) {
        String s = sql.trim();
        if (s.endsWith(";")) s = s.substring(0, s.length() - 1).trim();
        String lower = s.toLowerCase(Locale.ROOT);
        Matcher m;
        if (s.isEmpty()) return stmt(sql, "", List.of(), List.of(), new Plan(Kind.EMPTY, null));
        if ((m = SELECT_INT.matcher(s)).matches()) {
            return stmt(sql, "SELECT", List.of(), List.of(new ResultColumn("?column?", SqlType.INTEGER)),
                    new Plan(Kind.INT, Integer.parseInt(m.group(1))));
        }
        if ((m = SELECT_PARAMS.matcher(s)).matches()) {
            int n = m.group(1).split(",").length;
            List<SqlType> types = new ArrayList<>();
            List<ResultColumn> cols = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SqlType t = i < hints.size() && hints.get(i) != null ? hints.get(i) : SqlType.TEXT;
                types.add(t);
                cols.add(new ResultColumn("?column?", t));
            }
            return stmt(sql, "SELECT", types, cols, new Plan(Kind.PARAMS, null));
        }
        if ((m = SERIES.matcher(s)).matches()) {
            return stmt(sql, "SELECT", List.of(), List.of(new ResultColumn("n", SqlType.INTEGER)),
                    new Plan(Kind.SERIES, Integer.parseInt(m.group(1))));
        }
        if ((m = LAZY.matcher(s)).matches()) {
            List<ResultColumn> cols = new ArrayList<>(List.of(new ResultColumn("n", SqlType.INTEGER)));
            if (m.group(3) != null) cols.add(new ResultColumn("pad", SqlType.TEXT));
            return stmt(sql, "SELECT", List.of(), cols, new Plan(Kind.LAZY, new LazyRows(m.group(1).toLowerCase(Locale.ROOT),
                    Integer.parseInt(m.group(2)), m.group(3) == null ? -1 : Integer.parseInt(m.group(3)))));
        }
        if ((m = THROW.matcher(s)).matches()) {
            return stmt(sql, "SELECT", List.of(), List.of(new ResultColumn("x", SqlType.INTEGER)),
                    new Plan(Kind.THROW, m.group(1).toLowerCase(Locale.ROOT)));
        }
        if ((m = SET_APP.matcher(s)).matches()) return stmt(sql, "SET", List.of(), List.of(), new Plan(Kind.SET_APP, m.group(1)));
        return switch (lower) {
            case "select typed" -> stmt(sql, "SELECT", List.of(), TYPED_COLUMNS, new Plan(Kind.TYPED, null));
            case "select null" -> stmt(sql, "SELECT", List.of(), List.of(new ResultColumn("?column?", SqlType.UNKNOWN)),
                    new Plan(Kind.NULL, null));
            case "select slow" -> stmt(sql, "SELECT", List.of(), List.of(new ResultColumn("slow", SqlType.INTEGER)),
                    new Plan(Kind.SLOW, null));
            case "select 1/0" -> stmt(sql, "SELECT", List.of(), List.of(new ResultColumn("?column?", SqlType.INTEGER)),
                    new Plan(Kind.DIV_ZERO, null));
            case "begin" -> stmt(sql, "BEGIN", List.of(), List.of(), new Plan(Kind.BEGIN, null));
            case "commit" -> stmt(sql, "COMMIT", List.of(), List.of(), new Plan(Kind.COMMIT, null));
            case "rollback" -> stmt(sql, "ROLLBACK", List.of(), List.of(), new Plan(Kind.ROLLBACK, null));
            default -> {
                if (lower.startsWith("create table")) yield stmt(sql, "CREATE TABLE", List.of(), List.of(), new Plan(Kind.CREATE, null));
                if (lower.startsWith("insert")) yield stmt(sql, "INSERT", List.of(), List.of(), new Plan(Kind.INSERT, null));
                throw fail(new SqlException(SqlState.SYNTAX_ERROR,
                        "syntax error at or near \"" + s.split("\\s+")[0] + "\""));
            }
        };
    }

    private PreparedStatement stmt(String sql, String tag, List<SqlType> params, List<ResultColumn> cols, Plan plan) {
        PreparedStatement prepared = new PreparedStatement(sql, tag, params, cols, null);
        plans.put(prepared, plan);
        return prepared;
    }

    @Override
    public ExecutionResult execute(PreparedStatement stmt, List<Object> params) {
        Plan plan = plans.get(stmt);
        if (status == TransactionStatus.FAILED && plan.kind() != Kind.ROLLBACK && plan.kind() != Kind.COMMIT) {
            throw new SqlException(SqlState.IN_FAILED_SQL_TRANSACTION,
                    "current transaction is aborted, commands ignored until end of transaction block");
        }
        return switch (plan.kind()) {
            case EMPTY -> new ExecutionResult.Empty();
            case INT -> rows(stmt, List.of(Row.of(plan.arg())));
            case PARAMS -> rows(stmt, List.of(Row.of(params)));
            case SERIES -> {
                List<Row> rows = new ArrayList<>();
                for (int i = 1; i <= (Integer) plan.arg(); i++) rows.add(Row.of(i));
                yield rows(stmt, rows);
            }
            case LAZY -> new ExecutionResult.Rows(stmt.columns(), new LazyStream((LazyRows) plan.arg()), "SELECT");
            case THROW -> throw Faults.make((String) plan.arg());
            case TYPED -> rows(stmt, List.of(TYPED_ROW));
            case NULL -> rows(stmt, List.of(Row.of(Arrays.asList((Object) null))));
            case SLOW -> slow();
            case DIV_ZERO -> throw fail(new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero"));
            case BEGIN -> {
                status = TransactionStatus.IN_TRANSACTION;
                yield new ExecutionResult.Command("BEGIN");
            }
            case COMMIT -> {
                boolean failed = status == TransactionStatus.FAILED;
                status = TransactionStatus.IDLE;
                yield new ExecutionResult.Command(failed ? "ROLLBACK" : "COMMIT");
            }
            case ROLLBACK -> {
                status = TransactionStatus.IDLE;
                yield new ExecutionResult.Command("ROLLBACK");
            }
            case SET_APP -> new ExecutionResult.Command("SET", Map.of("application_name", (String) plan.arg()));
            case CREATE -> new ExecutionResult.Command("CREATE TABLE");
            case INSERT -> new ExecutionResult.Command("INSERT 0 1");
        };
    }

    private ExecutionResult rows(PreparedStatement stmt, List<Row> rows) {
        probe.streamsOpened.incrementAndGet();
        RowStream inner = RowStream.of(rows);
        return new ExecutionResult.Rows(stmt.columns(), new RowStream() {
            private boolean closed;

            @Override
            public List<Row> next(int max) { return inner.next(max); }

            @Override
            public void close() {
                if (!closed) probe.streamsClosed.incrementAndGet();
                closed = true;
            }
        }, "SELECT");
    }

    /** What a lazy(n[, w]) family statement produces: {@code kind} is lazy, gated, broken or oom. */
    private record LazyRows(String kind, int count, int width) {}

    /** Throwables for "SELECT throw KIND", thrown the way engine code would (unchecked, undeclared). */
    private static final class Faults {
        static RuntimeException make(String kind) {
            Throwable t = switch (kind) {
                case "oom" -> new OutOfMemoryError("Java heap space");
                case "assert" -> new AssertionError("invariant broken: java.lang.Object@1234");
                case "runtime" -> new IllegalStateException("java.lang.IllegalStateException inside");
                case "internal" -> {
                    NullPointerException npe = new NullPointerException("Cannot invoke \"Row.get(int)\" because \"r\" is null");
                    yield new SqlException(SqlState.INTERNAL_ERROR, "internal error: " + npe, null, null, npe);
                }
                default -> new SqlException(SqlState.SYNTAX_ERROR, "unknown fault " + kind);
            };
            return Faults.<RuntimeException>sneaky(t);
        }

        @SuppressWarnings("unchecked")
        private static <T extends Throwable> T sneaky(Throwable t) throws T {
            throw (T) t;
        }
    }

    /** Rows made as they are pulled; counts opens, closes and produced rows in the probe. */
    private final class LazyStream implements RowStream {
        private final LazyRows spec;
        private final String pad;
        private int next = 1;
        private boolean closed;

        LazyStream(LazyRows spec) {
            this.spec = spec;
            this.pad = spec.width() < 0 ? null : "x".repeat(spec.width());
            probe.streamsOpened.incrementAndGet();
        }

        @Override
        public List<Row> next(int max) {
            if (closed) throw new IllegalStateException("next() after close()");
            if (next > spec.count()) {
                switch (spec.kind()) {
                    case "gated" -> {
                        probe.atGate.release();
                        try {
                            if (!probe.gate.tryAcquire(60, TimeUnit.SECONDS)) {
                                throw new SqlException(SqlState.INTERNAL_ERROR, "gate never opened");
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    case "broken" -> throw new SqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
                    case "oom" -> throw new OutOfMemoryError("Java heap space");
                    default -> { }
                }
                next = Integer.MAX_VALUE; // every later call: empty
                return List.of();
            }
            List<Row> batch = new ArrayList<>(Math.min(max, spec.count() - next + 1));
            while (batch.size() < max && next <= spec.count()) {
                batch.add(pad == null ? Row.of(next) : Row.of(next, pad));
                next++;
            }
            probe.rowsProduced.addAndGet(batch.size());
            return batch;
        }

        @Override
        public void close() {
            if (!closed) probe.streamsClosed.incrementAndGet();
            closed = true;
        }
    }

    private ExecutionResult slow() {
        CountDownLatch latch = new CountDownLatch(1);
        running = latch;
        probe.slowStarted.release();
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new SqlException(SqlState.INTERNAL_ERROR, "slow statement was never cancelled");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = null;
        }
        throw fail(new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request"));
    }

    private SqlException fail(SqlException e) {
        if (status == TransactionStatus.IN_TRANSACTION) status = TransactionStatus.FAILED;
        return e;
    }

    @Override
    public List<String> splitStatements(String sql) {
        return Arrays.stream(sql.split(";")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    @Override
    public void cancel() {
        probe.cancels.incrementAndGet();
        CountDownLatch latch = running;
        if (latch != null) latch.countDown();
    }

    @Override
    public TransactionStatus transactionStatus() { return status; }

    @Override
    public void sync() {}

    @Override
    public Map<String, String> startupParameters() {
        if (user.equals("crash-at-startup")) throw new AssertionError("crash-at-startup: a bug after the session opened");
        return Map.of("is_superuser", "off");
    }

    @Override
    public String user() { return user; }

    @Override
    public void close() {
        probe.closed.incrementAndGet();
        probe.firstClosed.countDown();
    }
}
