package io.stillwater.pgwire;

import java.util.LinkedHashMap;
import java.util.function.Predicate;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.engine.session.ResultColumn;
import io.stillwater.engine.session.RowStream;
import io.stillwater.engine.session.Session;
import io.stillwater.engine.session.TransactionStatus;
import io.stillwater.engine.types.SqlType;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;
import io.stillwater.pgwire.protocol.FormatCode;
import io.stillwater.pgwire.protocol.FrontendMessage;
import io.stillwater.pgwire.types.DataRowEncoder;
import io.stillwater.pgwire.types.PgTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import io.stillwater.engine.auth.LoginRole;
import io.stillwater.pgwire.auth.AuthFailure;
import io.stillwater.pgwire.auth.AuthStep;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.pgwire.auth.LoginExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one connection's frontend messages against its {@link Session}: startup, the
 * simple query protocol, and the extended protocol's statements and portals.
 *
 * <p>Threading: every method except {@link #cancelRunning} runs on the connection's
 * <em>runner</em>, in message order; the runner owns all fields but {@link #session} and
 * {@link #cancelRequested}. The runner is the connection's worker thread, except that
 * while the worker has nothing queued or running, the event loop may run messages itself
 * through {@link #handleNow}: those that cannot block or take long, including the Execute
 * of a read the engine can finish at once ({@link Session#executeImmediate}: a point
 * lookup). {@link PgConnectionHandler} hands the role over (see its {@code runInline}).
 * The engine is synchronous, so a slow statement blocks only the worker thread, never the
 * event loop.
 *
 * <p>Fault containment: whatever serving a message throws, {@link Error}s included,
 * becomes an ErrorResponse ({@link ClientErrors}) and the connection carries on: a
 * simple query still ends with ReadyForQuery, the extended protocol skips to Sync.
 *
 * <p>Results are streamed: rows are pulled from the result's {@link RowStream} in
 * batches of {@link #BATCH_ROWS}, sent as they come, and flushed after each batch;
 * {@link Outbound#sendRow} blocks while the client is not reading, so the server holds
 * a bounded amount of any result however large it is. Every stream is closed exactly
 * when its rows are done, its statement fails, or its portal goes away.
 */
final class ConnectionWorker {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionWorker.class);
    static final String DEFAULT_DATABASE = "materialize";
    /** Rows pulled from a result stream at a time; each batch is flushed to the client. */
    static final int BATCH_ROWS = 256;

    private final SessionFactory sessions;
    private final CancelRegistry registry;
    private final Outbound out;
    /** Called once, on this thread, when startup has succeeded (the connection holds a session). */
    private final Runnable onStarted;
    private final Authentication authentication;
    /** Whether the connection is encrypted (TLS); asked when the StartupMessage arrives. */
    private final BooleanSupplier tls;
    /** Non-null from the StartupMessage until authentication ends; the startup parameters wait here meanwhile. */
    private LoginExchange login;
    private FrontendMessage.Startup startupMessage;

    /** Set once startup succeeds; volatile so the event loop can cancel through it. */
    private volatile Session session;
    /**
     * Set by {@link #cancelRunning} (any thread), cleared when a Query or Execute message
     * starts: stops the rows being sent, even while waiting for the client to read.
     */
    private volatile boolean cancelRequested;
    private BackendKey key;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    /** Open portals; every removal goes through {@link #dropPortal} or {@link #dropPortals} to close streams. */
    private final Map<String, Portal> portals = new HashMap<>();
    /** Non-null while a COPY FROM STDIN waits for the client's data (copy-in mode). */
    private CopyInProgress copyIn;
    /** After an error in the extended protocol, everything up to the next Sync is skipped. */
    private boolean ignoreTillSync;
    private boolean closed;
    /** The row encoder of the last result sent, and the shape it was built for ({@link #encoderFor}). */
    private DataRowEncoder lastEncoder;
    private List<ResultColumn> lastEncoderColumns;
    private List<FormatCode> lastEncoderFormats;
    /** The last RowDescription sent, and the shape it describes ({@link #rowDescription}). */
    private BackendMessage.RowDescription lastDescription;
    private List<ResultColumn> lastDescriptionColumns;
    private List<FormatCode> lastDescriptionFormats;

    ConnectionWorker(SessionFactory sessions, CancelRegistry registry, Outbound out, Runnable onStarted,
                     Authentication authentication, BooleanSupplier tls) {
        this.sessions = sessions;
        this.registry = registry;
        this.out = out;
        this.onStarted = onStarted;
        this.authentication = authentication;
        this.tls = tls;
    }

    /**
     * Any thread: cancels the statement this connection is running, if any, including
     * the sending of its rows (waking the worker if it waits for the client to read).
     */
    void cancelRunning() {
        cancelRequested = true;
        Session s = session;
        if (s != null) s.cancel();
        out.wakeUp();
    }

    void handle(FrontendMessage message) {
        if (closed) return;
        if (!out.isOpen() && !(message instanceof FrontendMessage.Terminate)) return;
        if (copyIn != null && !(message instanceof FrontendMessage.Terminate)) {
            copyInMessage(message);
            return;
        }
        switch (message) {
            case FrontendMessage.Startup m -> startup(m);
            case FrontendMessage.Terminate m -> close();
            case FrontendMessage.Sync m -> sync();
            case FrontendMessage.Flush m -> out.flush();
            case FrontendMessage.PasswordMessage m when session == null && login != null -> authenticate(m);
            default -> {
                if (login != null) {
                    fatal(SqlState.PROTOCOL_VIOLATION, "expected password response, got another message type");
                    return;
                }
                if (session == null) {
                    fatal(SqlState.PROTOCOL_VIOLATION, "unexpected message before startup completed");
                    return;
                }
                if (ignoreTillSync) return;
                try {
                    dispatch(message);
                } catch (Throwable e) {
                    error(e);
                    if (!(message instanceof FrontendMessage.Query)) ignoreTillSync = true;
                }
            }
        }
    }

    /**
     * On the event loop, while the worker thread is idle: handles {@code message} now and
     * returns true if it is one that cannot block or take long (Bind, Describe, Close, Flush,
     * Sync, and an Execute whose read {@link Session#executeImmediate} finishes at once),
     * with exactly the replies and errors {@link #handle} would give; otherwise returns
     * false having done nothing, and the caller hands this message and every later one to
     * the worker thread. A Parse or a simple Query is taken only when its plan is cached
     * (planning may take milliseconds) and, for a Query, its read finishes at once.
     */
    boolean handleNow(FrontendMessage message) {
        if (closed || session == null || login != null || copyIn != null || !out.isOpen()) return false;
        switch (message) {
            case FrontendMessage.Bind m -> { }
            case FrontendMessage.Describe m -> { }
            case FrontendMessage.Close m -> { }
            case FrontendMessage.Flush m -> { }
            case FrontendMessage.Sync m -> { }
            case FrontendMessage.Execute m -> {
                if (!ignoreTillSync && !executedNow(m)) return false;
            }
            case FrontendMessage.Parse m -> {
                if (!ignoreTillSync) return parsedNow(m); // else handle() skips it
            }
            case FrontendMessage.Query m -> {
                if (!ignoreTillSync) return queriedNow(m.sql()); // else handle() skips it
            }
            default -> {
                return false;
            }
        }
        handle(message);
        return true;
    }

    /**
     * A Parse whose plan is cached already ({@link Session#prepareImmediate}: a lookup, no
     * planning), answered now as {@link #parse} would; false (nothing done) for anything else.
     */
    private boolean parsedNow(FrontendMessage.Parse m) {
        if (!m.statementName().isEmpty() && statements.containsKey(m.statementName())) return false; // its error: parse()
        PreparedStatement stmt;
        try {
            stmt = session.prepareImmediate(m.sql(), paramHints(m));
        } catch (Throwable e) {
            return false; // parse() plans it again and reports what is wrong
        }
        if (stmt == null) return false;
        statements.put(m.statementName(), stmt);
        out.send(new BackendMessage.ParseComplete());
        return true;
    }

    /**
     * A simple Query of one statement whose plan is cached and whose read finishes at once
     * ({@link Session#prepareImmediate}, {@link Session#executeImmediate}), answered now with
     * exactly {@link #simpleQuery}'s replies; false (nothing done) for anything else.
     */
    private boolean queriedNow(String sql) {
        PreparedStatement stmt;
        try {
            List<String> parts = session.splitStatements(sql);
            if (parts.size() != 1) return false;
            stmt = session.prepareImmediate(parts.get(0), List.of());
        } catch (Throwable e) {
            return false; // simpleQuery() reports it
        }
        if (stmt == null) return false;
        ExecutionResult result;
        try {
            result = session.executeImmediate(stmt, List.of());
            if (result == null) return false;
        } catch (Throwable e) {
            endUnnamed();
            error(e);
            syncAndReady();
            return true;
        }
        endUnnamed();
        try {
            sendResult(result, Collections.emptyIterator());
        } catch (Throwable e) {
            error(e);
        }
        syncAndReady();
        return true;
    }

    /**
     * Runs an Execute's statement now if the engine can finish it at once, leaving its
     * result in the portal for {@link #execute} to send; false if it cannot (nothing done).
     * A failure is the statement's, answered as {@link #handle} answers it.
     */
    private boolean executedNow(FrontendMessage.Execute m) {
        Portal portal = portals.get(m.portalName());
        if (portal == null || portal.result != null || portal.statement.isEmpty()) return true; // no statement runs
        ExecutionResult result;
        try {
            result = session.executeImmediate(portal.statement, portal.params);
        } catch (Throwable e) {
            error(e);
            ignoreTillSync = true;
            return true;
        }
        if (result == null) return false;
        portal.result = result;
        return true;
    }

    /**
     * Called by the connection's thread when {@link #handle} itself failed outside a
     * statement (e.g. while encoding a reply): the connection can no longer be trusted to
     * be in protocol order, so it ends with a FATAL error that carries an error id.
     */
    void failed(Throwable failure) {
        if (closed) return;
        try {
            out.send(new BackendMessage.ErrorResponse(ClientErrors.diagnose(failure, Severity.FATAL)));
        } catch (Throwable ignored) {
            // nothing more can be said to this client
        }
        close();
    }

    private void dispatch(FrontendMessage message) {
        switch (message) {
            case FrontendMessage.Query m -> simpleQuery(m.sql());
            case FrontendMessage.Malformed m -> malformed(m);
            case FrontendMessage.Parse m -> parse(m);
            case FrontendMessage.Bind m -> bind(m);
            case FrontendMessage.Describe m -> describe(m);
            case FrontendMessage.Execute m -> execute(m);
            case FrontendMessage.Close m -> closeTarget(m);
            case FrontendMessage.PasswordMessage m ->
                    fatal(SqlState.PROTOCOL_VIOLATION, "unexpected password message: no authentication was requested");
            case FrontendMessage.SslRequest m -> fatal(SqlState.PROTOCOL_VIOLATION, "unexpected SSLRequest after startup");
            case FrontendMessage.GssEncRequest m -> fatal(SqlState.PROTOCOL_VIOLATION, "unexpected GSSENCRequest after startup");
            case FrontendMessage.CancelRequest m -> fatal(SqlState.PROTOCOL_VIOLATION, "unexpected CancelRequest after startup");
            // Outside copy-in mode (e.g. after the COPY failed) these are dropped, as PostgreSQL does.
            case FrontendMessage.CopyData m -> { }
            case FrontendMessage.CopyDone m -> { }
            case FrontendMessage.CopyFail m -> { }
            case FrontendMessage.Startup m -> throw new AssertionError("handled by handle()");
            case FrontendMessage.Sync m -> throw new AssertionError("handled by handle()");
            case FrontendMessage.Flush m -> throw new AssertionError("handled by handle()");
            case FrontendMessage.Terminate m -> throw new AssertionError("handled by handle()");
        }
    }

    // ---- startup ----

    private void startup(FrontendMessage.Startup m) {
        if (login != null || session != null) {
            fatal(SqlState.PROTOCOL_VIOLATION, "unexpected StartupMessage: startup has already begun");
            return;
        }
        String user = m.parameters().get("user");
        if (user == null || user.isEmpty()) {
            fatal(SqlState.INVALID_AUTHORIZATION_SPECIFICATION, "no PostgreSQL user name specified in startup packet");
            return;
        }
        List<String> unrecognized = m.parameters().keySet().stream().filter(k -> k.startsWith("_pq_.")).toList();
        if (m.minorVersion() > 0 || !unrecognized.isEmpty()) {
            out.send(new BackendMessage.NegotiateProtocolVersion(0, unrecognized));
        }
        startupMessage = m;
        login = new LoginExchange(authentication, user, tls.getAsBoolean());
        authStep(login::start);
    }

    /** A password or SASL message during authentication. */
    private void authenticate(FrontendMessage.PasswordMessage m) {
        authStep(() -> login.respond(m.payload()));
    }

    /** Runs one step of the login exchange: a challenge to send, a session to open, or a FATAL error. */
    private void authStep(java.util.function.Supplier<AuthStep> step) {
        AuthStep next;
        try {
            next = step.get();
        } catch (AuthFailure f) {
            fatal(f.diagnostic());
            return;
        } catch (Throwable e) {
            fatal(ClientErrors.diagnose(e, Severity.FATAL));
            return;
        }
        switch (next) {
            case AuthStep.Challenge c -> {
                out.send(c.message());
                out.flush();
            }
            case AuthStep.Authenticated a -> {
                login = null;
                a.last().ifPresent(out::send);
                out.send(new BackendMessage.AuthenticationOk());
                openSession(a.role());
            }
        }
    }

    /**
     * After AuthenticationOk, as in PostgreSQL: the role must be allowed to log in (28000)
     * and the database must be the one there is (3D000); then the session opens.
     */
    private void openSession(LoginRole role) {
        Map<String, String> params = startupMessage.parameters();
        String user = role.name();
        if (!role.canLogin()) {
            fatal(SqlState.INVALID_AUTHORIZATION_SPECIFICATION, "role \"" + user + "\" is not permitted to log in");
            return;
        }
        String database = params.getOrDefault("database", "");
        if (database.isEmpty()) database = DEFAULT_DATABASE;
        if (!database.equals(DEFAULT_DATABASE)) {
            fatal(new Diagnostic(Severity.FATAL, SqlState.INVALID_CATALOG_NAME.code(),
                    "database \"" + database + "\" does not exist", null,
                    "The server has one database, \"" + DEFAULT_DATABASE + "\" (psql: -d " + DEFAULT_DATABASE + ")."));
            return;
        }
        Map<String, String> options = new LinkedHashMap<>();
        params.forEach((k, v) -> { if (!k.startsWith("_pq_.")) options.put(k, v); });
        Session s;
        try {
            s = sessions.connect(user, database, options);
        } catch (Throwable e) {
            fatal(ClientErrors.diagnose(e, Severity.FATAL));
            return;
        }
        key = registry.register(s, this::cancelRunning);
        session = s;
        startupMessage = null;
        onStarted.run();
        ServerParameters.forStartup(user, s.startupParameters(), params)
                .forEach((name, value) -> out.send(new BackendMessage.ParameterStatus(name, value)));
        out.send(new BackendMessage.BackendKeyData(key.processId(), key.secretKey()));
        readyForQuery();
    }

    // ---- simple query ----

    /**
     * A message the decoder could frame but not read (bad UTF-8, NUL in a query string):
     * an ERROR; a simple query then ends with ReadyForQuery, an extended-protocol message
     * skips to Sync, as for any failed message.
     */
    private void malformed(FrontendMessage.Malformed m) {
        SqlException e = new SqlException(m.state(), m.message());
        session.statementRejected(); // inside BEGIN the transaction is now failed, as in PostgreSQL
        if (m.type() != 'Q') throw e;
        error(e);
        syncAndReady();
    }

    private void simpleQuery(String sql) {
        endUnnamed();
        List<String> parts;
        try {
            parts = session.splitStatements(sql);
        } catch (Throwable e) {
            error(e);
            syncAndReady();
            return;
        }
        if (parts.isEmpty()) out.send(new BackendMessage.EmptyQueryResponse());
        runStatements(parts.iterator());
    }

    /** A simple query ends the unnamed statement and portal, as in PostgreSQL, and starts anew for cancels. */
    private void endUnnamed() {
        statements.remove("");
        dropPortal("");
        cancelRequested = false;
    }

    /**
     * Runs a simple query's statements from {@code parts} on, then ReadyForQuery; a COPY
     * FROM STDIN stops here and the rest runs when its data has arrived.
     */
    private void runStatements(Iterator<String> parts) {
        try {
            while (parts.hasNext()) {
                if (!sendResult(session.execute(parts.next()), parts)) return;
            }
        } catch (Throwable e) {
            // After whatever rows were sent, as PostgreSQL does; the rest of the string is not run.
            error(e);
        }
        syncAndReady();
    }

    /** Sends one simple-query statement's result; false when a COPY FROM STDIN now waits for its data. */
    private boolean sendResult(ExecutionResult result, Iterator<String> parts) {
        switch (result) {
            case ExecutionResult.Rows rows -> {
                try (RowStream stream = rows.stream()) {
                    out.send(rowDescription(rows.columns(), List.of()));
                    Sent sent = sendRows(stream, rows.columns(), List.of(), Long.MAX_VALUE);
                    out.send(new BackendMessage.CommandComplete(rows.commandVerb() + " " + sent.rows()));
                }
            }
            case ExecutionResult.Command command -> sendCommand(command);
            case ExecutionResult.Empty empty -> out.send(new BackendMessage.EmptyQueryResponse());
            case ExecutionResult.CopyOut copy -> sendCopyOut(copy);
            case ExecutionResult.CopyIn copy -> {
                startCopyIn(copy, parts);
                return false;
            }
        }
        return true;
    }

    // ---- COPY ----

    /** COPY TO STDOUT: CopyOutResponse, one CopyData per line, CopyDone, {@code COPY n}. */
    private void sendCopyOut(ExecutionResult.CopyOut copy) {
        try (RowStream stream = copy.rows()) {
            out.send(new BackendMessage.CopyOutResponse(copy.columns()));
            byte[] header = copy.encoder().header();
            if (header != null) out.send(new BackendMessage.CopyData(header));
            long sent = 0;
            while (true) {
                stopIfInterrupted();
                List<Row> batch = stream.next(BATCH_ROWS);
                if (batch.isEmpty()) break;
                for (Row row : batch) {
                    out.sendRow(new BackendMessage.CopyData(copy.encoder().row(row)), () -> cancelRequested);
                    stopIfInterrupted();
                }
                sent += batch.size();
                out.flush();
            }
            out.send(new BackendMessage.CopyDone());
            out.send(new BackendMessage.CommandComplete("COPY " + sent));
        }
    }

    /** COPY FROM STDIN: CopyInResponse, then copy-in mode until CopyDone or CopyFail. */
    private void startCopyIn(ExecutionResult.CopyIn copy, Iterator<String> restOfQuery) {
        copyIn = new CopyInProgress(copy.target(), restOfQuery);
        out.send(new BackendMessage.CopyInResponse(copy.columns()));
        out.flush();
    }

    /**
     * A message in copy-in mode: data goes to the COPY; CopyDone writes it; CopyFail (57014)
     * or any other message (08P01) fails it. After a failure a simple query ends with
     * ReadyForQuery, an extended one skips to Sync.
     */
    private void copyInMessage(FrontendMessage message) {
        CopyInProgress copy = copyIn;
        try {
            // A CancelRequest during copy-in ends the COPY at the client's next message, as in PostgreSQL.
            if (cancelRequested) throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
            switch (message) {
                case FrontendMessage.CopyData m -> copy.target().data(m.data());
                case FrontendMessage.CopyDone m -> {
                    copyIn = null;
                    sendCommand(copy.target().done());
                    if (copy.simple()) runStatements(copy.restOfQuery());
                }
                case FrontendMessage.CopyFail m -> throw new SqlException(SqlState.QUERY_CANCELED,
                        "COPY from stdin failed: " + m.message());
                case FrontendMessage.Sync m -> { }
                case FrontendMessage.Flush m -> { }
                default -> throw new SqlException(SqlState.PROTOCOL_VIOLATION,
                        "unexpected message type during COPY from stdin");
            }
        } catch (Throwable e) {
            copyIn = null;
            if (e instanceof SqlException se) copy.target().fail(se);
            else copy.target().fail(new SqlException(SqlState.INTERNAL_ERROR, "COPY failed"));
            error(e);
            if (copy.simple()) syncAndReady();
            else ignoreTillSync = true;
        }
    }

    // ---- extended query ----

    private void parse(FrontendMessage.Parse m) {
        if (!m.statementName().isEmpty() && statements.containsKey(m.statementName())) {
            throw new SqlException(SqlState.DUPLICATE_PREPARED_STATEMENT,
                    "prepared statement \"" + m.statementName() + "\" already exists");
        }
        PreparedStatement stmt = session.prepare(m.sql(), paramHints(m));
        statements.put(m.statementName(), stmt);
        out.send(new BackendMessage.ParseComplete());
    }

    /** The parameter types a Parse declares, as planner hints. */
    private static List<SqlType> paramHints(FrontendMessage.Parse m) {
        List<SqlType> hints = new ArrayList<>(m.paramTypeOids().size());
        for (int oid : m.paramTypeOids()) hints.add(PgTypes.hintForOid(oid));
        return Collections.unmodifiableList(hints);
    }

    private void bind(FrontendMessage.Bind m) {
        PreparedStatement stmt = statement(m.statementName());
        if (!m.portalName().isEmpty() && portals.containsKey(m.portalName())) {
            throw new SqlException(SqlState.DUPLICATE_CURSOR, "portal \"" + m.portalName() + "\" already exists");
        }
        int expected = stmt.paramTypes().size();
        if (m.paramValues().size() != expected) {
            throw new SqlException(SqlState.PROTOCOL_VIOLATION, "bind message supplies " + m.paramValues().size()
                    + " parameters, but prepared statement \"" + m.statementName() + "\" requires " + expected);
        }
        int columns = stmt.columns().size();
        if (m.resultFormats().size() > 1 && m.resultFormats().size() != columns) {
            throw new SqlException(SqlState.PROTOCOL_VIOLATION, "bind message has " + m.resultFormats().size()
                    + " result formats but query has " + columns + " columns");
        }
        List<Object> params = new ArrayList<>(expected);
        for (int i = 0; i < expected; i++) {
            byte[] raw = m.paramValues().get(i);
            if (raw == null) {
                params.add(null);
                continue;
            }
            FormatCode format = FormatCode.of(m.paramFormats(), i);
            try {
                params.add(PgTypes.decode(stmt.paramTypes().get(i), raw, format));
            } catch (SqlException e) {
                throw new SqlException(e.state(), e.getMessage(),
                        e.detail() != null ? e.detail() : "in " + format.name().toLowerCase() + " bind parameter $" + (i + 1),
                        e.hint(), e);
            }
        }
        // Binding the unnamed portal replaces it, as in PostgreSQL; its stream is closed first.
        dropPortal(m.portalName());
        portals.put(m.portalName(), new Portal(stmt, m.statementName(),
                Collections.unmodifiableList(params), m.resultFormats()));
        out.send(new BackendMessage.BindComplete());
    }

    private void describe(FrontendMessage.Describe m) {
        switch (m.target()) {
            case STATEMENT -> {
                PreparedStatement stmt = statement(m.name());
                out.send(new BackendMessage.ParameterDescription(
                        stmt.paramTypes().stream().map(t -> PgTypes.wireType(t).oid()).toList()));
                out.send(stmt.returnsRows() ? rowDescription(stmt.columns(), List.of()) : new BackendMessage.NoData());
            }
            case PORTAL -> {
                Portal portal = portal(m.name());
                out.send(portal.statement.returnsRows()
                        ? rowDescription(portal.statement.columns(), portal.resultFormats)
                        : new BackendMessage.NoData());
            }
        }
    }

    private void execute(FrontendMessage.Execute m) {
        Portal portal = portal(m.portalName());
        if (portal.statement.isEmpty()) {
            out.send(new BackendMessage.EmptyQueryResponse());
            return;
        }
        cancelRequested = false;
        if (portal.result == null) portal.result = session.execute(portal.statement, portal.params);
        switch (portal.result) {
            case ExecutionResult.Rows rows -> {
                if (portal.exhausted) {
                    out.send(new BackendMessage.CommandComplete(rows.commandVerb() + " 0"));
                    return;
                }
                Sent sent;
                try {
                    sent = sendRows(rows.stream(), rows.columns(), portal.resultFormats,
                            m.maxRows() > 0 ? m.maxRows() : Long.MAX_VALUE);
                } catch (Throwable e) {
                    dropPortal(m.portalName()); // a failed stream is finished; the portal cannot resume
                    throw e;
                }
                if (sent.exhausted()) {
                    portal.exhausted = true;
                    portal.close();
                    // A portal drained over several Executes reports the rows of this one, as PostgreSQL does.
                    out.send(new BackendMessage.CommandComplete(rows.commandVerb() + " " + sent.rows()));
                } else {
                    // The row limit was reached; as in PostgreSQL, even if no row is left.
                    out.send(new BackendMessage.PortalSuspended());
                }
            }
            case ExecutionResult.Command command -> {
                if (portal.reported) {
                    out.send(new BackendMessage.CommandComplete(command.tag()));
                } else {
                    portal.reported = true;
                    sendCommand(command);
                }
            }
            case ExecutionResult.Empty empty -> out.send(new BackendMessage.EmptyQueryResponse());
            case ExecutionResult.CopyOut copy -> {
                if (portal.exhausted) {
                    out.send(new BackendMessage.CommandComplete("COPY 0"));
                    return;
                }
                portal.exhausted = true; // all its lines go now, whatever the row limit
                sendCopyOut(copy);
            }
            case ExecutionResult.CopyIn copy -> {
                if (portal.exhausted) throw new SqlException(SqlState.INVALID_CURSOR_NAME,
                        "portal \"" + m.portalName() + "\" cannot be run again");
                portal.exhausted = true;
                startCopyIn(copy, null);
            }
        }
    }

    private void closeTarget(FrontendMessage.Close m) {
        switch (m.target()) {
            case STATEMENT -> {
                if (statements.remove(m.name()) != null) {
                    // Closing a statement closes the portals built from it.
                    dropPortals(p -> p.statementName.equals(m.name()));
                }
            }
            case PORTAL -> dropPortal(m.name());
        }
        out.send(new BackendMessage.CloseComplete());
    }

    private void sync() {
        ignoreTillSync = false;
        if (session == null) {
            fatal(SqlState.PROTOCOL_VIOLATION, "unexpected Sync before startup completed");
            return;
        }
        syncAndReady();
    }

    // ---- helpers ----

    private PreparedStatement statement(String name) {
        PreparedStatement stmt = statements.get(name);
        if (stmt == null) {
            throw new SqlException(SqlState.INVALID_SQL_STATEMENT_NAME,
                    "prepared statement \"" + name + "\" does not exist");
        }
        return stmt;
    }

    private Portal portal(String name) {
        Portal portal = portals.get(name);
        if (portal == null) throw new SqlException(SqlState.INVALID_CURSOR_NAME, "portal \"" + name + "\" does not exist");
        return portal;
    }

    /**
     * The RowDescription of a result shape; the last one is kept, since a prepared
     * statement's portal is described at each execution (libpq does) with the same shape.
     */
    private BackendMessage.RowDescription rowDescription(List<ResultColumn> columns, List<FormatCode> formats) {
        if (lastDescription != null && columns.equals(lastDescriptionColumns) && formats.equals(lastDescriptionFormats)) {
            return lastDescription;
        }
        lastDescription = describeRows(columns, formats);
        lastDescriptionColumns = columns;
        lastDescriptionFormats = formats;
        return lastDescription;
    }

    private static BackendMessage.RowDescription describeRows(List<ResultColumn> columns, List<FormatCode> formats) {
        List<BackendMessage.Field> fields = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ResultColumn c = columns.get(i);
            SqlType wire = PgTypes.wireType(c.type());
            fields.add(new BackendMessage.Field(c.name(), 0, (short) 0, wire.oid(),
                    (short) wire.kind().typeLength(), wire.typmod(), FormatCode.of(formats, i)));
        }
        return new BackendMessage.RowDescription(fields);
    }

    /** How many rows one Execute (or simple-query statement) sent, and whether its stream ended. */
    private record Sent(long rows, boolean exhausted) {}

    /**
     * Sends up to {@code limit} rows of {@code stream}, pulling {@link #BATCH_ROWS} at a
     * time, each row encoded straight into the outbound buffer ({@link DataRowEncoder}).
     * Each batch is flushed, so the rows of a long result reach the client as they are
     * produced, except the last of an {@linkplain RowStream#exhausted exhausted} stream:
     * the CommandComplete and ReadyForQuery that follow go out with it in one flush (as
     * PostgreSQL sends a small result in one packet). Stops with 57014 on a cancel and with 08000 when the
     * client has gone; the caller closes the stream.
     */
    private Sent sendRows(RowStream stream, List<ResultColumn> columns, List<FormatCode> formats, long limit) {
        DataRowEncoder encoder = encoderFor(columns, formats);
        long sent = 0;
        while (sent < limit) {
            stopIfInterrupted();
            List<Row> batch = stream.next((int) Math.min(BATCH_ROWS, limit - sent));
            if (batch.isEmpty()) return new Sent(sent, true);
            for (Row row : batch) {
                out.sendDataRow(encoder, row, () -> cancelRequested);
                stopIfInterrupted();
            }
            sent += batch.size();
            if (!stream.exhausted()) out.flush();
        }
        return new Sent(sent, false);
    }

    /**
     * The row encoder of a result shape: the last one is kept, since a connection mostly
     * re-executes one statement with the same formats (a prepared point lookup).
     */
    private DataRowEncoder encoderFor(List<ResultColumn> columns, List<FormatCode> formats) {
        if (lastEncoder != null && columns.equals(lastEncoderColumns) && formats.equals(lastEncoderFormats)) {
            return lastEncoder;
        }
        List<SqlType> types = new ArrayList<>(columns.size());
        for (ResultColumn c : columns) types.add(c.type());
        lastEncoder = new DataRowEncoder(types, formats);
        lastEncoderColumns = columns;
        lastEncoderFormats = formats;
        return lastEncoder;
    }

    private void stopIfInterrupted() {
        if (!out.isOpen()) {
            throw new SqlException(SqlState.CONNECTION_EXCEPTION, "the client closed the connection while rows were being sent");
        }
        if (cancelRequested) throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
    }

    /** Closes and forgets the portal named {@code name}, if there is one. */
    private void dropPortal(String name) {
        Portal p = portals.remove(name);
        if (p != null) closeQuietly(p);
    }

    /** Closes and forgets every portal {@code which} accepts. */
    private void dropPortals(Predicate<Portal> which) {
        for (Iterator<Portal> it = portals.values().iterator(); it.hasNext(); ) {
            Portal p = it.next();
            if (which.test(p)) {
                it.remove();
                closeQuietly(p);
            }
        }
    }

    private static void closeQuietly(Portal p) {
        try {
            p.close();
        } catch (Throwable e) {
            LOG.warn("error closing a portal's result stream", e);
        }
    }

    private void sendCommand(ExecutionResult.Command command) {
        command.parameterChanges().forEach((name, value) -> out.send(new BackendMessage.ParameterStatus(name, value)));
        out.send(new BackendMessage.CommandComplete(command.tag()));
    }

    private void syncAndReady() {
        try {
            session.sync();
        } catch (Throwable e) {
            error(e);
        }
        // Portals live until their transaction ends; outside a transaction that is now.
        if (session.transactionStatus() == TransactionStatus.IDLE) dropPortals(p -> true);
        readyForQuery();
    }

    private void readyForQuery() {
        out.send(new BackendMessage.ReadyForQuery(session.transactionStatus().indicator()));
        out.flush();
    }

    private void error(Throwable e) {
        out.send(new BackendMessage.ErrorResponse(ClientErrors.diagnose(e, Severity.ERROR)));
    }

    /** Sends a FATAL error and closes the connection. */
    private void fatal(SqlState state, String message) {
        fatal(new Diagnostic(Severity.FATAL, state.code(), message, null, null));
    }

    private void fatal(Diagnostic diagnostic) {
        out.send(new BackendMessage.ErrorResponse(diagnostic));
        out.flush();
        close();
    }

    /** Ends the connection: closes its portals' streams, releases the session (once) and closes the channel. */
    void close() {
        if (closed) return;
        closed = true;
        if (copyIn != null) {
            // The client left mid-COPY: nothing of it is written.
            copyIn.target().fail(new SqlException(SqlState.CONNECTION_EXCEPTION, "the client closed the connection during COPY"));
            copyIn = null;
        }
        dropPortals(p -> true);
        if (key != null) registry.unregister(key);
        Session s = session;
        if (s != null) {
            try {
                s.close();
            } catch (Throwable e) {
                LOG.warn("error closing session", e);
            }
        }
        out.close();
    }
}
