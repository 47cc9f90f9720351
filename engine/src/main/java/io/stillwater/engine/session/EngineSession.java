package io.stillwater.engine.session;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReads;
import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.coord.AdmissionLimit;
import io.stillwater.engine.coord.Checkpointer;
import io.stillwater.engine.coord.Coordinator;
import io.stillwater.engine.coord.ReadTimestamps;
import io.stillwater.engine.coord.ServingReplicas;
import io.stillwater.engine.coord.TableWriter;
import io.stillwater.engine.copy.CopyEncoder;
import io.stillwater.engine.copy.CopyLoader;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.dataflow.ChunkSource;
import io.stillwater.engine.dataflow.FinishedRows;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.expr.EvalContext;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.params.Param;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.Roles;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.peek.Isolation;
import io.stillwater.engine.peek.NotImmediate;
import io.stillwater.engine.peek.ObjectNames;
import io.stillwater.engine.peek.PeekExecutor;
import io.stillwater.engine.peek.PeekExplainer;
import io.stillwater.engine.peek.PeekInputs;
import io.stillwater.engine.peek.PeekPlan;
import io.stillwater.engine.peek.PeekPlanner;
import io.stillwater.engine.peek.ReadLimits;
import io.stillwater.engine.plan.PlanInputs;
import io.stillwater.engine.plan.Plans;
import io.stillwater.engine.plan.QueryPlan;
import io.stillwater.engine.sql.Statement;
import io.stillwater.engine.sql.planner.CachedPlanning;
import io.stillwater.engine.sql.planner.PlannedStatement;
import io.stillwater.engine.sql.planner.PlanCache;
import io.stillwater.engine.sql.planner.StatementPlanner;
import io.stillwater.engine.sql.parse.SqlSplitter;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.types.SqlType;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * The engine's {@link Session}: plans statements against the current catalog and runs
 * them with the coordinator's parts it takes at construction (never the {@link
 * Coordinator} itself): reads through {@link ReadTimestamps} and the serving replica,
 * writes through {@link TableWriter}, DDL through {@link SchemaStatements}, SHOW through
 * {@link ShowStatements}; a SELECT's rows come back as a {@link StatementStream}.
 *
 * <p>Threading: used by one connection thread at a time (which also pulls the result
 * streams); only {@link #cancel} is called from other threads (it flips {@code
 * cancelRequested}, which the running statement's {@link Cancellation} polls). A
 * statement runs from {@code execute} until its result stream is closed.
 *
 * <p>Reads: a SELECT body is classified by {@link PeekPlanner} (constant, fast-path lookup
 * or walk over an index or materialized view, or a peek dataflow), its inputs are pinned
 * at a read time chosen by the session's {@code transaction_isolation}
 * ({@link PeekInputs}), and {@link PeekExecutor} runs it. The result is a {@link
 * RowStream} with the finishing applied as rows arrive ({@link FinishedRows}); the read's
 * snapshots, holds and memory ({@link QueryMemory}, budget {@code max_query_memory}) are
 * released when it is closed or read to its end. Writes that read (UPDATE,
 * DELETE, INSERT ... SELECT) read tables from their own snapshots at the newest time,
 * never through an index, so an index's evaluation error cannot block the DELETE that
 * removes the offending row; {@link TableWriter} turns the rows into table changes.
 *
 * <p>Transactions: outside BEGIN every statement commits on its own. Inside an explicit
 * transaction block ({@link Transaction}), reads all happen at one timestamp chosen by
 * the first read (holds on every table and snapshots of the exports read keep it
 * readable) plus the block's own writes; INSERT, UPDATE and DELETE are buffered until
 * COMMIT, which validates that nothing the block read changed since (else 40001) and
 * applies them atomically at one timestamp: serializable by optimistic validation.
 * Cursors (DECLARE / FETCH / MOVE / CLOSE, {@link Cursors}) live inside a block (WITH HOLD
 * ones beyond its COMMIT).
 */
public final class EngineSession implements Session {
    /** The coordinator's parts this session uses (see {@link Coordinator}); all thread-safe. */
    private final TableWriter writer;
    private final ReadTimestamps reads;
    private final ServingReplicas serving;
    private final Supplier<Catalog> catalog;
    /** This session's privilege checks against the current catalogs. */
    private final Supplier<PrivilegeChecks> privileges;
    private final SystemParameters parameters;
    private final StatementPlanner planner;
    /** The engine's shared plan cache (thread-safe), through which {@link #prepare} plans. */
    private final CachedPlanning plans;
    /** This session's DDL and SHOW statements. */
    private final SchemaStatements schema;
    private final ShowStatements shows;
    private final SessionVariables vars;
    private final String user;
    private final String database;
    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    /** A statement is executing (session thread sets it; cancel reads it from any thread). */
    private volatile boolean running;
    /**
     * A statement is being planned (session thread sets it; cancel reads it). A driver
     * cancels once per statement, as soon as it has sent it (pgjdbc's Statement.cancel),
     * so a cancel that lands while the statement is still planned must stay set for its
     * execution, as in PostgreSQL, where only a cancel of an idle backend is ignored.
     */
    private volatile boolean planning;
    /**
     * Result streams handed out and not yet closed: their statements still count as running,
     * so a cancel or statement_timeout stops the next pull. Session thread changes it.
     */
    private final Set<StatementStream> openStreams = ConcurrentHashMap.newKeySet();
    /** How this session's result streams report to it (on the session thread). */
    private final StatementStream.Owner streams = new StatementStream.Owner() {
        @Override
        public void opened(StatementStream stream) { openStreams.add(stream); }

        @Override
        public void released(StatementStream stream) {
            openStreams.remove(stream);
            if (openStreams.isEmpty() && !running) cancelRequested.set(false);
        }

        @Override
        public RuntimeException failed(Throwable failure) { return statementFailed(failure, "producing the rows of"); }
    };

    private final PeekExecutor peekExecutor;

    /** The text of the statement executing now, for the replica's peek history. Session thread. */
    private String currentSql;

    /** IDLE exactly when {@code txn} is null. Session thread. */
    private TransactionStatus status = TransactionStatus.IDLE;
    /** The open transaction block, or null outside one. Session thread. */
    private Transaction txn;
    /** The session's cursors: the block's, and WITH HOLD ones of committed blocks. Session thread. */
    private final Cursors cursors;

    /** CHECKPOINT's target (the coordinator's, set once it opened). */
    private final Supplier<Checkpointer> checkpoints;

    /** A session planning every statement afresh (no shared plan cache): for tests of one session. */
    public EngineSession(Coordinator coord, StatementPlanner planner, String user, String database,
                         Map<String, String> options) {
        this(coord, planner, new CachedPlanning(new PlanCache(() -> 0)), user, database, options);
    }

    public EngineSession(Coordinator coord, StatementPlanner planner, CachedPlanning plans, String user,
                         String database, Map<String, String> options) {
        this.plans = plans;
        this.writer = coord.writer();
        this.checkpoints = coord::checkpointer;
        this.reads = coord.reads();
        this.serving = coord.serving();
        this.catalog = coord::catalog;
        this.parameters = coord.systemParameters();
        this.planner = planner;
        this.schema = new SchemaStatements(coord.ddl(), coord.clusterControl(), planner, user, coord.roles(),
                () -> new PrivilegeChecks(coord.roles().security(), coord.catalog(), coord.clusters(), user));
        this.privileges = () -> new PrivilegeChecks(coord.roles().security(), coord.catalog(), coord.clusters(), user);
        this.shows = new ShowStatements(coord::catalog, coord.clusterControl());
        this.user = user;
        this.database = database;
        this.vars = new SessionVariables(options, parameters, Roles.isSuperuser(user));
        this.peekExecutor = new PeekExecutor(coord.builtins(), parameters);
        this.cursors = new Cursors(cancelRequested, () -> StatementTimeout.parseMillis(vars.get("statement_timeout")),
                () -> QueryMemory.forQuery(parameters.get(Params.MAX_QUERY_MEMORY)));
    }

    @Override
    public String user() { return user; }

    @Override
    public Map<String, String> startupParameters() { return vars.reported(); }

    @Override
    public TransactionStatus transactionStatus() { return status; }

    @Override
    public List<String> splitStatements(String sql) { return SqlSplitter.split(sql); }

    /** Cancels the running statement, or the one whose rows are still being pulled. */
    @Override
    public void cancel() {
        if (running || planning || !openStreams.isEmpty()) cancelRequested.set(true);
    }

    @Override
    public void statementRejected() { failTransaction(); }

    @Override
    public void sync() {
        // A cancel that landed while a statement was planned and never executed is stale now.
        if (!running && !planning && openStreams.isEmpty()) cancelRequested.set(false);
        // Every statement outside BEGIN commits on its own, so an implicit transaction
        // has nothing left to do here; an explicit one stays open until COMMIT/ROLLBACK.
    }

    // ------------------------------------------------------------------ prepare

    @Override
    public PreparedStatement prepare(String sql, List<SqlType> paramTypeHints) { return prepare(sql, paramTypeHints, false); }

    @Override
    public PreparedStatement prepareImmediate(String sql, List<SqlType> paramTypeHints) {
        return prepare(sql, paramTypeHints, true);
    }

    /** With {@code cachedOnly}, null unless the plan cache has the statement (nothing is planned). */
    private PreparedStatement prepare(String sql, List<SqlType> paramTypeHints, boolean cachedOnly) {
        // A new statement: a cancel left over from an earlier one no longer applies.
        if (!running && openStreams.isEmpty()) cancelRequested.set(false);
        planning = true;
        try {
            // Only the session cluster's indexes are usable (a view indexed elsewhere is expanded).
            // The relations the statement names are recorded for the privilege checks at execute
            // (and kept with a cached plan).
            List<SqlType> hints = paramTypeHints == null ? List.of() : paramTypeHints;
            PlannedStatement planned = cachedOnly
                    ? plans.planCached(sql, hints, catalog.get(), vars.get("cluster")).orElse(null)
                    : plans.plan(planner, sql, hints, catalog.get(), vars.get("cluster"));
            if (planned == null) return null;
            Statement stmt = planned.statement();
            List<ResultColumn> columns = stmt instanceof Statement.FetchCursor f && !f.move()
                    ? cursors.find(f.name()).map(Cursors.Cursor::columns).orElse(List.of()) // the cursor's, when open
                    : ShowStatements.columnsOf(stmt);
            return new PreparedStatement(sql, stmt.commandVerb(), stmt.paramTypes(), columns, stmt, planned.references());
        } catch (Throwable e) {
            throw statementFailed(e, "planning");
        } finally {
            planning = false;
        }
    }

    // ------------------------------------------------------------------ execute

    private boolean immediate; // set while executeImmediate runs a statement: its read must not wait (NotImmediate)
    @Override
    public ExecutionResult executeImmediate(PreparedStatement prepared, List<Object> params) {
        if (!(prepared.plan() instanceof Statement.Query) || txn != null || status != TransactionStatus.IDLE) return null;
        immediate = true;
        try {
            return execute(prepared, params);
        } catch (NotImmediate e) {
            return null; // its inputs and memory were released on the way out
        } finally {
            immediate = false;
        }
    }

    @Override
    public ExecutionResult execute(PreparedStatement prepared, List<Object> params) {
        Statement stmt = prepared.plan();
        if (status == TransactionStatus.FAILED && !(stmt instanceof Statement.Rollback)
                && !(stmt instanceof Statement.Commit)
                && !(stmt instanceof Statement.Savepoint sp && sp.action() == Statement.SavepointAction.ROLLBACK_TO)) {
            throw new SqlException(SqlState.IN_FAILED_SQL_TRANSACTION,
                    "current transaction is aborted, commands ignored until end of transaction block");
        }
        // Not cleared here: a cancel that arrived while this statement was planned applies to it.
        running = true;
        // Role statements may hold a PASSWORD literal: their text is never recorded.
        currentSql = stmt instanceof Statement.AccessControl ac ? ac.commandVerb() : prepared.sql();
        try {
            privileges.get().check(stmt, prepared.references());
            return run(stmt, params == null ? List.of() : params);
        } catch (Throwable e) {
            throw statementFailed(e, "executing");
        } finally {
            running = false;
            // A stream still open keeps its statement cancellable (see StatementStream).
            if (openStreams.isEmpty()) cancelRequested.set(false);
        }
    }

    private void failTransaction() {
        if (status == TransactionStatus.IN_TRANSACTION) status = TransactionStatus.FAILED;
    }

    /**
     * The statement boundary: whatever a statement throws (a {@link SqlException}, a bug's
     * RuntimeException, an {@link Error} such as OutOfMemoryError or AssertionError), an
     * explicit transaction is then FAILED, exactly as for a SQL error, and an implicit one
     * has nothing left open (each statement commits or releases its own reads, streams and
     * memory on the way out: see {@link #query}, {@link StatementStream}, the writes'
     * try-with-resources). Returns what to throw: SqlExceptions and Errors as they are
     * (the wire layer answers an OutOfMemoryError with 53200 and any other Error with
     * XX000 and an error id, and logs it); any other exception as XX000 with a message a
     * person can act on, the exception kept as the cause for the server log.
     *
     * @param phase what the statement was doing, for the message: "planning" or "executing"
     */
    private RuntimeException statementFailed(Throwable failure, String phase) {
        failTransaction();
        return switch (failure) {
            case SqlException e -> e;
            case NotImmediate e -> e; // not a failure: executeImmediate declines
            case Error e -> throw e;
            case RuntimeException e -> internalError(phase, e);
            // Only checked exceptions remain (rethrown sneakily from below): a bug like any other.
            default -> internalError(phase, failure);
        };
    }

    /**
     * XX000 for an unexpected exception: its text stays in the cause (the wire layer logs
     * it under an error id it sends the client), out of the message, detail and hint.
     */
    private static SqlException internalError(String phase, Throwable cause) {
        return new SqlException(SqlState.INTERNAL_ERROR, "internal error",
                "An unexpected failure while " + phase + " the statement; the statement was not completed"
                        + " (an open transaction block is aborted).",
                "Retry the statement; if it keeps failing, report it with the server log.", cause);
    }

    private ExecutionResult run(Statement stmt, List<Object> params) {
        return switch (stmt) {
            case Statement.Empty e -> new ExecutionResult.Empty();
            case Statement.Query q -> query(q, params);
            case Statement.Insert ins -> insert(ins, params);
            case Statement.Update upd -> update(upd, params);
            case Statement.Delete del -> delete(del, params);
            case Statement.CreateTable ct -> schema(ct);
            case Statement.DropTable dt -> schema(dt);
            case Statement.CreateView cv -> schema(cv);
            case Statement.DropView dv -> schema(dv);
            case Statement.ShowObjects so -> new ExecutionResult.Rows(ShowStatements.columnsOf(so), shows.showObjects(so), "SHOW");
            case Statement.Begin b -> begin(b);
            case Statement.Commit c -> commit();
            case Statement.Rollback r -> {
                endTransaction();
                yield new ExecutionResult.Command("ROLLBACK");
            }
            case Statement.Savepoint sp -> savepoint(sp);
            case Statement.DeclareCursor d -> declareCursor(d, params);
            case Statement.FetchCursor f -> cursors.fetch(f);
            case Statement.CloseCursor cc -> cursors.close(cc);
            case Statement.SetVariable s -> setVariable(s);
            case Statement.ResetVariable r -> new ExecutionResult.Command("RESET", vars.reset(r.name()));
            case Statement.ShowVariable s -> show(s);
            case Statement.CreateIndex ci -> schema(ci);
            case Statement.CreateMaterializedView cmv -> schema(cmv);
            case Statement.DropObjects d -> schema(d);
            case Statement.AlterSystemSet a -> schema(a);
            case Statement.AlterSystemReset a -> schema(a);
            case Statement.Explain x -> explain(x, params);
            case Statement.CreateCluster cc -> schema(cc);
            case Statement.AlterCluster ac -> schema(ac);
            case Statement.CreateClusterReplica cr -> schema(cr);
            case Statement.DropCluster dc -> schema(dc);
            case Statement.DropClusterReplica dr -> schema(dr);
            case Statement.AccessControl ac -> schema(ac);
            case Statement.ShowClusters sc -> new ExecutionResult.Rows(ShowStatements.columnsOf(sc), shows.showClusters(sc), "SHOW");
            case Statement.CopyFrom cf -> copyFrom(cf);
            case Statement.Truncate t -> truncate(t);
            case Statement.Checkpoint cp -> {
                // As PostgreSQL: superuser only, also inside a transaction block (it changes no data).
                if (!Roles.isSuperuser(user)) {
                    throw new SqlException(SqlState.INSUFFICIENT_PRIVILEGE, "must be superuser to do CHECKPOINT");
                }
                checkpoints.get().checkpointNow();
                yield new ExecutionResult.Command("CHECKPOINT");
            }
            case Statement.Maintenance m -> {
                if (m.verb().equals("VACUUM") && status != TransactionStatus.IDLE) {
                    throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION, "VACUUM cannot run inside a transaction block");
                }
                for (String name : m.tables()) {
                    if (!catalog.get().relationExists(name)) {
                        throw new SqlException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
                    }
                }
                yield new ExecutionResult.Command(m.verb()); // nothing to vacuum or analyze: see Statement.Maintenance
            }
            case Statement.CopyTo ct -> new ExecutionResult.CopyOut(ct.columnNames().size(),
                    ((ExecutionResult.Rows) query(ct.query(), params)).stream(),
                    new CopyEncoder(ct.options(), ct.columnNames(), ct.query().plan().columnTypes(), evalContext().timeZone()));
        };
    }

    /** DDL: refused inside a transaction block; objects go to the session's cluster by default. */
    private ExecutionResult schema(Statement ddl) {
        return schema.execute(ddl, status != TransactionStatus.IDLE, vars.get("cluster"));
    }

    private ExecutionResult show(Statement.ShowVariable s) {
        List<ResultColumn> cols = ShowStatements.columnsOf(s);
        if (s.name().equals(ShowStatements.PLAN_CACHE_STATS)) {
            return new ExecutionResult.Rows(cols, List.of(ShowStatements.planCacheRow(plans.cache().stats())), "SHOW");
        }
        if (s.name().equals("all")) {
            List<Row> rows = new ArrayList<>();
            // Session variables shadow system parameters of the same name (their value
            // is the session's); the description comes from the system registry.
            vars.all().forEach((k, v) -> rows.add(Row.of(k, v,
                    Params.find(k).map(Param::description).orElse(""))));
            return new ExecutionResult.Rows(cols, rows, "SHOW");
        }
        String value = switch (s.name()) {
            case "transaction_isolation" -> txn != null && txn.isolation() != null ? txn.isolation() : vars.get(s.name());
            case "transaction_read_only" -> txn != null ? (txn.readOnly() ? "on" : "off")
                    : Transaction.isOn(vars.get("default_transaction_read_only")) ? "on" : "off";
            default -> vars.get(s.name());
        };
        return new ExecutionResult.Rows(cols, List.of(Row.of(value)), "SHOW");
    }

    // ------------------------------------------------------------------ reads

    /**
     * A SELECT: the read is opened and its first rows computed here (errors found by then
     * fail the statement); the rest is produced as the consumer pulls the stream. The
     * stream holds the read's snapshots, holds and memory until it is closed.
     */
    private ExecutionResult query(Statement.Query q, List<Object> params) {
        StatementStream stream = openStream(Plans.bindParams(q.plan(), params), false, cancellation(),
                parameters.get(Params.MAX_RESULT_SIZE));
        return new ExecutionResult.Rows(ShowStatements.columnsOf(q), stream, "SELECT");
    }

    /** Opens {@code plan}'s read as a primed stream ({@code cursor}: a cursor's, see {@link #openRead}). */
    private StatementStream openStream(QueryPlan plan, boolean cursor, Cancellation cancel, long maxResultBytes) {
        QueryMemory memory = QueryMemory.forQuery(parameters.get(Params.MAX_QUERY_MEMORY));
        StatementStream stream;
        try {
            FinishedRows rows = openRead(plan, false, cursor, memory, maxResultBytes, true, cancel);
            stream = new StatementStream(rows, memory, cancel, txn != null, streams);
        } catch (Throwable e) {
            memory.close();
            throw e;
        }
        stream.prime();
        return stream;
    }

    /**
     * DECLARE: the query's read is opened now (inside a block at its snapshot, with its
     * writes so far), on this thread, producing rows only as FETCH pulls them. No
     * max_result_size: a cursor is how a client reads a big result in pieces.
     */
    private ExecutionResult declareCursor(Statement.DeclareCursor d, List<Object> params) {
        QueryPlan plan = Plans.bindParams(d.query().plan(), params);
        return cursors.declare(d, ShowStatements.columnsOf(d.query()), txn != null,
                cancel -> openStream(plan, true, cancel, Long.MAX_VALUE));
    }


    /**
     * EXPLAIN: the read path the query would take now, as Materialize answers it: one row
     * whose text holds one line per plan line, each ending in a newline (format in
     * {@link PeekExplainer}). Parameters are bound when given (so lookups on {@code $1}
     * show their key); unbound ones print as {@code $n}.
     */
    private ExecutionResult explain(Statement.Explain x, List<Object> params) {
        QueryPlan plan = params.size() >= x.query().paramTypes().size()
                ? Plans.bindParams(x.query().plan(), params) : x.query().plan();
        PeekPlan peek = peekPlanner(sessionCompute(plan), false).plan(plan.body(), evalContext());
        StringBuilder text = new StringBuilder();
        var runtime = peek instanceof PeekPlan.Constant ? Optional.<ComputeRuntime>empty()
                : sessionCompute(plan).placement(PeekExecutor.kind(peek), parameters.snapshot());
        for (String line : new PeekExplainer(ObjectNames.of(catalog.get())).explain(peek, plan, runtime)) {
            text.append(line).append('\n');
        }
        return new ExecutionResult.Rows(ShowStatements.columnsOf(x), List.of(Row.of(text.toString())), "EXPLAIN");
    }

    /**
     * The rows of a write's read (UPDATE, DELETE, INSERT ... SELECT): read at the newest
     * time from the tables' own snapshots, finished, all in memory (the write needs them
     * all), within the statement's {@code memory} budget.
     */
    private List<Row> readForWrite(QueryPlan plan, QueryMemory memory) {
        List<Row> out = new ArrayList<>();
        try (FinishedRows rows = openRead(plan, true, false, memory, Long.MAX_VALUE, false, cancellation())) {
            for (List<Row> b = rows.next(4096); !b.isEmpty(); b = rows.next(4096)) {
                memory.reserve(HeapEstimate.ENTRY * b.size());
                out.addAll(b);
            }
        }
        return out;
    }

    /**
     * Opens the read of a query plan at this statement's read time, with its finishing
     * applied as rows are pulled. Everything the read holds (memory from {@code memory},
     * snapshots and holds) is released when the returned rows are closed or read to their
     * end; a transaction's pinned inputs stay with the transaction. A {@code forWrite}
     * read (the rows an UPDATE/DELETE/INSERT ... SELECT writes) reads tables from their
     * own snapshots, on this thread.
     *
     * <p>Inside a transaction block every read is at the block's snapshot. One that must
     * see the block's own writes (any read once it has written, the reads of its writes)
     * or a {@code cursor}'s read reads tables from their own snapshots, plus the block's
     * buffered changes, on this thread: a cursor then streams whatever the replica's
     * layout, as FETCH pulls it.
     *
     * @param maxResultBytes {@code max_result_size}, counted as rows are produced ({@code Long.MAX_VALUE}: none)
     * @param stream         produce rows as they are pulled where the read runs on this thread
     */
    private FinishedRows openRead(QueryPlan plan, boolean forWrite, boolean cursor, QueryMemory memory,
                                  long maxResultBytes, boolean stream, Cancellation cancel) {
        EvalContext ctx = evalContext();
        boolean here = forWrite || txn != null && (cursor || txn.hasWrites());
        // Resolved once per read: the session's cluster and replica cannot change during it.
        ComputeReads compute = sessionCompute(plan);
        PeekPlan peek = peekPlanner(compute, here).plan(plan.body(), ctx);
        // A materialized read's rows all go to the client only without LIMIT and OFFSET.
        long whileMaterializing = plan.limit() < 0 && plan.offset() <= 0 ? maxResultBytes : Long.MAX_VALUE;
        ReadLimits limits = new ReadLimits(memory, whileMaterializing, stream, immediate && !forWrite);
        ChunkSource rows;
        if (peek instanceof PeekPlan.Constant) {
            // Constants and table functions: no snapshot, no timestamp, no transaction read.
            rows = peekExecutor.open(ComputeReads.NONE, null, peek, null, ctx, cancel, limits, true);
        } else if (txn != null) {
            PeekInputs in = transactionInputs(plan, peek, cancel);
            txn.noteRead(PlanInputs.objectIds(plan.body()), reads::isTable);
            in.readOwnWrites(txn.hasWrites() ? txn.pendingByTable() : Map.of());
            // The transaction owns its inputs: the stream must not release them.
            rows = peekExecutor.open(compute, forWrite ? null : currentSql, peek, in, ctx, cancel, limits,
                    here);
        } else {
            // Writes read the newest state (they hold the write lock): always strict serializable.
            Isolation isolation = forWrite ? Isolation.STRICT_SERIALIZABLE : isolation();
            PeekInputs in = PeekInputs.acquire(reads, peek, isolation, cancel, immediate && !forWrite);
            try {
                // The reads of writes run here (table snapshots, under the write lock); a
                // SELECT is served by the session's replica, which places it on a runtime.
                ChunkSource read = peekExecutor.open(compute, forWrite ? null : currentSql, peek, in, ctx,
                        cancel, limits, forWrite);
                rows = new ChunkSource() {
                    @Override
                    public Changes next() { return read.next(); }

                    @Override
                    public void close() {
                        try {
                            read.close();
                        } finally {
                            in.close(); // the read no longer touches its snapshots
                        }
                    }
                };
            } catch (Throwable e) {
                in.close();
                throw e;
            }
        }
        return new FinishedRows(plan, rows, memory, maxResultBytes, cancel);
    }

    /**
     * The block's pinned inputs, covering {@code peek}: acquired at the block's first read
     * (which fixes its snapshot time), extended by later ones.
     */
    private PeekInputs transactionInputs(QueryPlan plan, PeekPlan peek, Cancellation cancel) {
        txn.started();
        if (txn.reads() != null) {
            txn.reads().extendFor(peek, cancel);
            return txn.reads();
        }
        Set<Long> all = new HashSet<>();
        catalog.get().tables().forEach(t -> all.add(t.id()));
        PeekInputs in = PeekInputs.acquireForTransaction(reads, peek, isolation(), all, cancel);
        txn.reads(in); // released when the block ends, also if what follows fails
        // Pin every other export readable at the transaction's time, so later
        // statements can read them at it (one timestamp for the whole transaction).
        List<CollectionReader> others = new ArrayList<>();
        ComputeReads compute = sessionCompute(plan);
        for (long id : all) others.addAll(compute.readers(id));
        catalog.get().views().forEach(v -> others.addAll(compute.readers(v.id())));
        in.openReadableNow(others);
        return in;
    }

    /**
     * The read planner of one statement, over the compute of the session's cluster (and
     * {@code cluster_replica}, when set): Materialize's rule that a SELECT runs on the
     * session's cluster and uses only that cluster's indexes. A {@code forWrite} planner
     * reads tables from their own snapshots.
     */
    private PeekPlanner peekPlanner(ComputeReads compute, boolean forWrite) {
        LongPredicate isTable = reads::isTable;
        return forWrite ? PeekPlanner.readingTablesDirectly(compute, isTable) : new PeekPlanner(compute, isTable);
    }

    /**
     * The compute serving this session's reads of {@code plan}. Constants need none, and
     * reads of built-in catalog relations only alone do not fail when the session's
     * cluster is unknown or has no replica (so {@code SHOW}-style catalog queries keep
     * working after {@code DROP CLUSTER default}).
     */
    private ComputeReads sessionCompute(QueryPlan plan) {
        Set<Long> ids = PlanInputs.objectIds(plan.body());
        if (ids.isEmpty()) return ComputeReads.NONE;
        try {
            return serving.compute(vars.get("cluster"), vars.get("cluster_replica"));
        } catch (SqlException e) {
            if (ids.stream().allMatch(SystemRelations::isSystem)) return ComputeReads.NONE;
            throw e;
        }
    }

    /** The isolation of this statement's reads: the transaction's level, else the session's. */
    private Isolation isolation() {
        return Isolation.of(txn != null && txn.isolation() != null ? txn.isolation() : vars.get("transaction_isolation"));
    }

    private EvalContext evalContext() {
        Instant now = txn != null ? txn.start() : Instant.now();
        return new EvalContext(now, zone(vars.get("timezone")), user, database);
    }

    /** The last {@code timezone} value resolved and its zone: parsing one costs more than a point read's lookup. */
    private String zoneText;
    private ZoneId zone;

    private ZoneId zone(String tz) {
        if (!tz.equals(zoneText)) {
            ZoneId z;
            try {
                z = ZoneId.of(tz.equalsIgnoreCase("utc") ? "UTC" : tz);
            } catch (RuntimeException e) {
                z = ZoneId.of("UTC");
            }
            zone = z;
            zoneText = tz;
        }
        return zone;
    }

    private Cancellation cancellation() {
        long timeoutMs = StatementTimeout.parseMillis(vars.get("statement_timeout"));
        long deadline = timeoutMs > 0 ? System.nanoTime() + timeoutMs * 1_000_000 : 0;
        return () -> {
            if (cancelRequested.get()) {
                throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
            }
            if (deadline != 0 && System.nanoTime() - deadline > 0) {
                throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to statement timeout");
            }
        };
    }

    // ------------------------------------------------------------------ writes

    private ExecutionResult insert(Statement.Insert ins, List<Object> params) {
        checkWritable("INSERT");
        QueryPlan source = Plans.bindParams(ins.source(), params);
        boolean readsTables = !PlanInputs.objectIds(source.body()).isEmpty();
        try (QueryMemory memory = writeMemory()) {
            if (txn != null) {
                List<TableChange> changes = TableWriter.insertions(ins, readForWrite(source, memory));
                bufferWrites(changes);
                return new ExecutionResult.Command("INSERT 0 " + changes.size());
            }
            AdmissionLimit limit = writeAdmission();
            int n = readsTables
                    ? writer.serialized(limit, () -> commitCount(TableWriter.insertions(ins, readForWrite(source, memory)), limit))
                    : commitCount(TableWriter.insertions(ins, readForWrite(source, memory)), limit);
            return new ExecutionResult.Command("INSERT 0 " + n);
        }
    }

    /**
     * COPY FROM STDIN: the rows arrive after this returns; they are written at the end as
     * one write, like an INSERT of them all (inside BEGIN: buffered until COMMIT).
     */
    private ExecutionResult copyFrom(Statement.CopyFrom cf) {
        checkWritable("COPY FROM");
        QueryMemory memory = writeMemory();
        CopyLoader loader = new CopyLoader(cf, evalContext().timeZone(), memory::reserve);
        return new ExecutionResult.CopyIn(cf.columns().length, new CopyFromStdin(loader, memory, changes -> {
            if (txn != null) bufferWrites(changes);
            else writer.commit(changes, writeAdmission());
            return changes.size();
        }, e -> statementFailed(e, "executing")));
    }

    /**
     * TRUNCATE: deletes every row of the tables in one write. Inside BEGIN it is a DELETE of
     * every row the block sees, buffered and validated at COMMIT like any DELETE of the block.
     */
    private ExecutionResult truncate(Statement.Truncate t) {
        checkWritable("TRUNCATE TABLE");
        if (txn != null) {
            for (Statement.Delete d : t.deletes()) {
                readModifyWrite(d.rows(), matches -> TableWriter.deletions(d.table(), matches));
            }
            return new ExecutionResult.Command("TRUNCATE TABLE");
        }
        AdmissionLimit limit = writeAdmission();
        try (QueryMemory memory = writeMemory()) {
            writer.serialized(limit, () -> {
                List<TableChange> all = new ArrayList<>();
                for (Statement.Delete d : t.deletes()) {
                    all.addAll(TableWriter.deletions(d.table(), readForWrite(d.rows(), memory)));
                }
                return commitCount(all, limit);
            });
        }
        return new ExecutionResult.Command("TRUNCATE TABLE");
    }

    private int commitCount(List<TableChange> changes, AdmissionLimit limit) {
        writer.commit(changes, limit);
        return changes.size();
    }

    /**
     * How long this statement's write may wait for admission under write backpressure
     * (its {@code statement_timeout}, counted from now) and its cancel flag.
     */
    private AdmissionLimit writeAdmission() {
        return AdmissionLimit.of(cancellation(), StatementTimeout.parseMillis(vars.get("statement_timeout")));
    }

    private ExecutionResult update(Statement.Update upd, List<Object> params) {
        checkWritable("UPDATE");
        QueryPlan rows = Plans.bindParams(upd.rows(), params);
        int n = readModifyWrite(rows, matches -> TableWriter.updates(upd, rows.columnTypes(), matches));
        return new ExecutionResult.Command("UPDATE " + n);
    }

    private ExecutionResult delete(Statement.Delete del, List<Object> params) {
        checkWritable("DELETE");
        QueryPlan rows = Plans.bindParams(del.rows(), params);
        int n = readModifyWrite(rows, matches -> TableWriter.deletions(del.table(), matches));
        return new ExecutionResult.Command("DELETE " + n);
    }

    /**
     * Reads {@code rows} and writes {@code changesOf} them. Outside a block: at the newest
     * time, committed with no other write in between (the coordinator's write lock is held
     * throughout). Inside one: at the block's snapshot plus its writes, buffered until
     * COMMIT validates the read. Returns the number of rows read: the UPDATE/DELETE count.
     */
    private int readModifyWrite(QueryPlan rows, Function<List<Row>, List<TableChange>> changesOf) {
        try (QueryMemory memory = writeMemory()) {
            if (txn != null) {
                List<Row> matches = readForWrite(rows, memory);
                bufferWrites(changesOf.apply(matches));
                return matches.size();
            }
            AdmissionLimit limit = writeAdmission();
            return writer.serialized(limit, () -> {
                List<Row> matches = readForWrite(rows, memory);
                writer.commit(changesOf.apply(matches), limit);
                return matches.size();
            });
        }
    }

    /**
     * A write statement of the block succeeded: its changes join the block's, visible to
     * its later reads, written at COMMIT (the caller checked {@link #checkWritable}).
     */
    private void bufferWrites(List<TableChange> changes) {
        txn.started();
        txn.buffer(changes);
    }

    /** The memory budget of a write's read: the same {@code max_query_memory} as a SELECT's. */
    private QueryMemory writeMemory() {
        return QueryMemory.forQuery(parameters.get(Params.MAX_QUERY_MEMORY));
    }

    /** 25006 for a write in a READ ONLY block, or outside one under default_transaction_read_only. */
    private void checkWritable(String verb) {
        if (txn != null) {
            txn.checkWritable(verb);
        } else if (Transaction.isOn(vars.get("default_transaction_read_only"))) {
            throw new SqlException(SqlState.READ_ONLY_SQL_TRANSACTION,
                    "cannot execute " + verb + " in a read-only transaction");
        }
    }

    // ------------------------------------------------------------------ DDL and transactions

    private ExecutionResult begin(Statement.Begin b) {
        if (txn == null) {
            boolean readOnly = b.readOnly() != null ? b.readOnly()
                    : Transaction.isOn(vars.get("default_transaction_read_only"));
            txn = new Transaction(Instant.now(), b.isolationLevel(), readOnly);
            status = TransactionStatus.IN_TRANSACTION;
        }
        // BEGIN inside a transaction is a warning in PostgreSQL, not an error.
        return new ExecutionResult.Command("BEGIN");
    }

    /**
     * COMMIT: a block that wrote and read commits through {@link TableWriter#commitIfUnchanged}
     * (40001 when a table it read changed since its snapshot); one that only wrote
     * blindly (INSERT ... VALUES) just commits. As in PostgreSQL, the block has ended
     * whether or not the commit succeeds; a failed block answers ROLLBACK. The block's
     * WITH HOLD cursors read their remaining rows first (they need its inputs) and close
     * again if the commit fails.
     */
    private ExecutionResult commit() {
        Transaction t = txn;
        boolean failed = status == TransactionStatus.FAILED;
        List<String> held = List.of();
        if (t != null && !failed) {
            try {
                held = cursors.holdAtCommit();
            } catch (Throwable e) {
                endTransaction();
                throw e;
            }
        }
        List<TableChange> writes = t == null ? List.of() : t.writes();
        long snapshot = t != null && t.reads() != null ? t.reads().asOf() : -1;
        Set<Long> validated = Set.of();
        if (t != null && snapshot >= 0 && !writes.isEmpty()) {
            List<Long> all = catalog.get().tables().stream().map(def -> def.id()).toList();
            validated = t.validatedTables(all);
        }
        endTransaction();
        if (failed) return new ExecutionResult.Command("ROLLBACK");
        try {
            if (!writes.isEmpty()) {
                if (validated.isEmpty()) writer.commit(writes, writeAdmission());
                else writer.commitIfUnchanged(writes, validated, snapshot, writeAdmission());
            }
        } catch (Throwable e) {
            for (String name : held) cursors.close(name);
            throw e;
        }
        return new ExecutionResult.Command("COMMIT");
    }

    /** SAVEPOINT, ROLLBACK TO SAVEPOINT (which also clears a failed state), RELEASE SAVEPOINT. */
    private ExecutionResult savepoint(Statement.Savepoint sp) {
        if (txn == null) throw Transaction.outsideBlock(sp);
        txn.apply(sp);
        if (sp.action() == Statement.SavepointAction.ROLLBACK_TO) status = TransactionStatus.IN_TRANSACTION;
        return new ExecutionResult.Command(sp.commandVerb());
    }

    /**
     * SET, with the transaction settings: the isolation level only before the block's
     * first statement, the access mode (SET TRANSACTION READ ONLY) on the block only.
     */
    private ExecutionResult setVariable(Statement.SetVariable s) {
        if (s.name().equals("transaction_isolation") && txn != null && txn.hasStarted()) {
            throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION,
                    "SET TRANSACTION ISOLATION LEVEL must be called before any query");
        }
        if (s.name().equals("transaction_read_only")) {
            String value = s.value() == null ? vars.get("default_transaction_read_only")
                    : SettingValues.validate(s.name(), s.value(), "off");
            // Outside a block PostgreSQL only warns: the setting lasts one transaction.
            if (txn != null) txn.setReadOnly(Transaction.isOn(value));
            return new ExecutionResult.Command("SET");
        }
        if (s.name().equals("default_transaction_isolation") && txn == null) {
            // SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL (pgjdbc's
            // setTransactionIsolation): as in PostgreSQL, the session's next transactions
            // use it, and SHOW transaction_isolation outside a block shows it.
            vars.set("transaction_isolation", s.value());
        }
        return new ExecutionResult.Command("SET", vars.set(s.name(), s.value()));
    }

    private void endTransaction() {
        // As PostgreSQL closes a transaction's cursors at its end: their inputs go now.
        try {
            cursors.endBlock();
        } finally {
            for (StatementStream open : List.copyOf(openStreams)) {
                if (open.inTransaction()) open.close();
            }
            Transaction t = txn;
            txn = null;
            status = TransactionStatus.IDLE;
            if (t != null) t.close();
        }
    }

    /** Ends the session: streams still open are closed (their reads released), then the transaction. */
    @Override
    public void close() {
        for (StatementStream open : List.copyOf(openStreams)) open.close();
        try {
            cursors.closeAll();
        } finally {
            endTransaction();
        }
    }

    /** For tests: the session's variables. */
    Map<String, String> variables() { return new LinkedHashMap<>(vars.all()); }
}
