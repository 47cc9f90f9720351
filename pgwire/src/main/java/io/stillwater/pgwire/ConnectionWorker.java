package io.stillwater.pgwire;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.session.ExecutionResult;
import io.stillwater.engine.session.PreparedStatement;
import io.stillwater.engine.session.ResultColumn;
import io.stillwater.engine.session.Session;
import io.stillwater.engine.session.TransactionStatus;
import io.stillwater.engine.types.SqlType;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;
import io.stillwater.pgwire.protocol.FormatCode;
import io.stillwater.pgwire.protocol.FrontendMessage;
import io.stillwater.pgwire.types.PgTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one connection's frontend messages against its {@link Session}: startup, the
 * simple query protocol, and the extended protocol's statements and portals.
 *
 * <p>Threading: every method except {@link #cancelRunning} runs on the connection's
 * single worker thread, in message order; that thread owns all fields. The engine is
 * synchronous, so a slow statement blocks only this thread, never the event loop.
 */
final class ConnectionWorker {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionWorker.class);
    static final String DEFAULT_DATABASE = "materialize";

    private final SessionFactory sessions;
    private final CancelRegistry registry;
    private final Outbound out;

    /** Set once startup succeeds; volatile so the event loop can cancel through it. */
    private volatile Session session;
    private BackendKey key;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    /** After an error in the extended protocol, everything up to the next Sync is skipped. */
    private boolean ignoreTillSync;
    private boolean closed;

    ConnectionWorker(SessionFactory sessions, CancelRegistry registry, Outbound out) {
        this.sessions = sessions;
        this.registry = registry;
        this.out = out;
    }

    /** Any thread: cancels the statement this connection is running, if any. */
    void cancelRunning() {
        Session s = session;
        if (s != null) s.cancel();
    }

    void handle(FrontendMessage message) {
        if (closed) return;
        if (!out.isOpen() && !(message instanceof FrontendMessage.Terminate)) return;
        switch (message) {
            case FrontendMessage.Startup m -> startup(m);
            case FrontendMessage.Terminate m -> close();
            case FrontendMessage.Sync m -> sync();
            case FrontendMessage.Flush m -> out.flush();
            default -> {
                if (session == null) {
                    fatal(SqlState.PROTOCOL_VIOLATION, "unexpected message before startup completed");
                    return;
                }
                if (ignoreTillSync) return;
                try {
                    dispatch(message);
                } catch (RuntimeException e) {
                    error(e);
                    if (!(message instanceof FrontendMessage.Query)) ignoreTillSync = true;
                }
            }
        }
    }

    private void dispatch(FrontendMessage message) {
        switch (message) {
            case FrontendMessage.Query m -> simpleQuery(m.sql());
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
            case FrontendMessage.Startup m -> throw new AssertionError("handled by handle()");
            case FrontendMessage.Sync m -> throw new AssertionError("handled by handle()");
            case FrontendMessage.Flush m -> throw new AssertionError("handled by handle()");
            case FrontendMessage.Terminate m -> throw new AssertionError("handled by handle()");
        }
    }

    // ---- startup ----

    private void startup(FrontendMessage.Startup m) {
        Map<String, String> params = m.parameters();
        String user = params.get("user");
        if (user == null || user.isEmpty()) {
            fatal(SqlState.INVALID_AUTHORIZATION_SPECIFICATION, "no PostgreSQL user name specified in startup packet");
            return;
        }
        String database = params.getOrDefault("database", "");
        if (database.isEmpty()) database = DEFAULT_DATABASE;
        Map<String, String> options = new java.util.LinkedHashMap<>();
        params.forEach((k, v) -> { if (!k.startsWith("_pq_.")) options.put(k, v); });
        Session s;
        try {
            s = sessions.connect(user, database, options);
        } catch (SqlException e) {
            fatal(e.state(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            LOG.error("could not open a session for user {} on database {}", user, database, e);
            fatal(SqlState.INTERNAL_ERROR, "could not open a session: " + e.getMessage());
            return;
        }
        key = registry.register(s);
        session = s;
        List<String> unrecognized = params.keySet().stream().filter(k -> k.startsWith("_pq_.")).toList();
        if (m.minorVersion() > 0 || !unrecognized.isEmpty()) {
            out.send(new BackendMessage.NegotiateProtocolVersion(0, unrecognized));
        }
        out.send(new BackendMessage.AuthenticationOk());
        ServerParameters.forStartup(user, s.startupParameters(), params)
                .forEach((name, value) -> out.send(new BackendMessage.ParameterStatus(name, value)));
        out.send(new BackendMessage.BackendKeyData(key.processId(), key.secretKey()));
        readyForQuery();
    }

    // ---- simple query ----

    private void simpleQuery(String sql) {
        // A simple query ends the unnamed statement and portal, as in PostgreSQL.
        statements.remove("");
        portals.remove("");
        try {
            List<String> parts = session.splitStatements(sql);
            if (parts.isEmpty()) out.send(new BackendMessage.EmptyQueryResponse());
            for (String part : parts) {
                ExecutionResult result = session.execute(part);
                switch (result) {
                    case ExecutionResult.Rows rows -> {
                        out.send(rowDescription(rows.columns(), List.of()));
                        sendRows(rows.columns(), rows.rows(), 0, rows.rows().size(), List.of());
                        out.send(new BackendMessage.CommandComplete(rows.tag()));
                    }
                    case ExecutionResult.Command command -> sendCommand(command);
                    case ExecutionResult.Empty empty -> out.send(new BackendMessage.EmptyQueryResponse());
                }
            }
        } catch (RuntimeException e) {
            error(e);
        }
        syncAndReady();
    }

    // ---- extended query ----

    private void parse(FrontendMessage.Parse m) {
        if (!m.statementName().isEmpty() && statements.containsKey(m.statementName())) {
            throw new SqlException(SqlState.DUPLICATE_PREPARED_STATEMENT,
                    "prepared statement \"" + m.statementName() + "\" already exists");
        }
        List<SqlType> hints = new ArrayList<>(m.paramTypeOids().size());
        for (int oid : m.paramTypeOids()) hints.add(PgTypes.hintForOid(oid));
        PreparedStatement stmt = session.prepare(m.sql(), Collections.unmodifiableList(hints));
        statements.put(m.statementName(), stmt);
        out.send(new BackendMessage.ParseComplete());
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
        if (portal.result == null) portal.result = session.execute(portal.statement, portal.params);
        switch (portal.result) {
            case ExecutionResult.Rows rows -> {
                int size = rows.rows().size();
                int start = portal.position;
                int end = m.maxRows() > 0 ? (int) Math.min((long) start + m.maxRows(), size) : size;
                sendRows(rows.columns(), rows.rows(), start, end, portal.resultFormats);
                portal.position = end;
                if (end < size) {
                    out.send(new BackendMessage.PortalSuspended());
                } else {
                    // A portal drained over several Executes reports the rows of this one, as PostgreSQL does.
                    out.send(new BackendMessage.CommandComplete(rows.commandVerb() + " " + (end - start)));
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
        }
    }

    private void closeTarget(FrontendMessage.Close m) {
        switch (m.target()) {
            case STATEMENT -> {
                if (statements.remove(m.name()) != null) {
                    // Closing a statement closes the portals built from it.
                    portals.values().removeIf(p -> p.statementName.equals(m.name()));
                }
            }
            case PORTAL -> portals.remove(m.name());
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

    private static BackendMessage.RowDescription rowDescription(List<ResultColumn> columns, List<FormatCode> formats) {
        List<BackendMessage.Field> fields = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ResultColumn c = columns.get(i);
            SqlType wire = PgTypes.wireType(c.type());
            fields.add(new BackendMessage.Field(c.name(), 0, (short) 0, wire.oid(),
                    (short) wire.kind().typeLength(), wire.typmod(), FormatCode.of(formats, i)));
        }
        return new BackendMessage.RowDescription(fields);
    }

    private void sendRows(List<ResultColumn> columns, List<io.stillwater.engine.data.Row> rows, int from, int to,
                          List<FormatCode> formats) {
        int arity = columns.size();
        for (int r = from; r < to && out.isOpen(); r++) {
            io.stillwater.engine.data.Row row = rows.get(r);
            List<byte[]> values = new ArrayList<>(arity);
            for (int i = 0; i < arity; i++) {
                Object v = row.get(i);
                values.add(v == null ? null : PgTypes.encode(columns.get(i).type(), v, FormatCode.of(formats, i)));
            }
            out.sendRow(new BackendMessage.DataRow(values));
        }
    }

    private void sendCommand(ExecutionResult.Command command) {
        command.parameterChanges().forEach((name, value) -> out.send(new BackendMessage.ParameterStatus(name, value)));
        out.send(new BackendMessage.CommandComplete(command.tag()));
    }

    private void syncAndReady() {
        try {
            session.sync();
        } catch (RuntimeException e) {
            error(e);
        }
        // Portals live until their transaction ends; outside a transaction that is now.
        if (session.transactionStatus() == TransactionStatus.IDLE) portals.clear();
        readyForQuery();
    }

    private void readyForQuery() {
        out.send(new BackendMessage.ReadyForQuery(session.transactionStatus().indicator()));
        out.flush();
    }

    private void error(RuntimeException e) {
        if (e instanceof SqlException s) {
            out.send(new BackendMessage.ErrorResponse(new Diagnostic(Severity.ERROR, s.state().code(),
                    messageOf(s), s.detail(), s.hint())));
        } else {
            LOG.error("internal error while serving a connection", e);
            out.send(new BackendMessage.ErrorResponse(new Diagnostic(Severity.ERROR, SqlState.INTERNAL_ERROR.code(),
                    "internal error: " + e, null, null)));
        }
    }

    private static String messageOf(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** Sends a FATAL error and closes the connection. */
    private void fatal(SqlState state, String message) {
        out.send(new BackendMessage.ErrorResponse(new Diagnostic(Severity.FATAL, state.code(), message, null, null)));
        out.flush();
        close();
    }

    /** Ends the connection: releases the session (once) and closes the channel. */
    void close() {
        if (closed) return;
        closed = true;
        if (key != null) registry.unregister(key);
        Session s = session;
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.warn("error closing session", e);
            }
        }
        out.close();
    }
}
