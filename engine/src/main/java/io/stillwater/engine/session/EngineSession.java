package io.stillwater.engine.session;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.SystemRelations;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.compute.ComputeReads;
import io.stillwater.engine.compute.ComputeRuntime;
import io.stillwater.engine.coord.AdmissionLimit;
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
 * transaction, reads all happen at one timestamp chosen by the first read (holds on
 * every table and snapshots of the exports read keep it readable), and writes are
 * INSERTs buffered until COMMIT, which applies them atomically at one timestamp. As in
 * Materialize, a transaction either reads or writes: mixing is 25000.
 */
public final class EngineSession implements Session {
    /** The coordinator's parts this session uses (see {@link Coordinator}); all thread-safe. */
    private final TableWriter writer;
    private final ReadTimestamps reads;
    private final ServingReplicas serving;
    private final Supplier<Catalog> catalog;
    private final SystemParameters parameters;
    private final StatementPlanner planner;
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

    private TransactionStatus status = TransactionStatus.IDLE;
    private PeekInputs txnRead;                       // explicit txn: reads at one time
    private String txnIsolation;                      // BEGIN ISOLATION LEVEL, or null
    private final List<TableChange> txnWrites = new ArrayList<>();
    /** TRUNCATEs of the explicit transaction: done at COMMIT, before {@code txnWrites} made after them. */
    private final List<Statement.Delete> txnTruncates = new ArrayList<>();
    private boolean txnHasWrites;
    private Instant txnStart;

    public EngineSession(Coordinator coord, StatementPlanner planner, String user, String database,
                         Map<String, String> options) {
        this.writer = coord.writer();
        this.reads = coord.reads();
        this.serving = coord.serving();
        this.catalog = coord::catalog;
        this.parameters = coord.systemParameters();
        this.planner = planner;
        this.schema = new SchemaStatements(coord.ddl(), coord.clusterControl(), planner, user);
        this.shows = new ShowStatements(coord::catalog, coord.clusterControl());
        this.user = user;
        this.database = database;
        this.vars = new SessionVariables(options, parameters, Roles.isSuperuser(user));
        this.peekExecutor = new PeekExecutor(coord.builtins(), parameters);
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
        if (running || !openStreams.isEmpty()) cancelRequested.set(true);
    }

    @Override
    public void statementRejected() { failTransaction(); }

    @Override
    public void sync() {
        // Every statement outside BEGIN commits on its own, so an implicit transaction
        // has nothing left to do here; an explicit one stays open until COMMIT/ROLLBACK.
    }

    // ------------------------------------------------------------------ prepare

    @Override
    public PreparedStatement prepare(String sql, List<SqlType> paramTypeHints) {
        try {
            // Only the session cluster's indexes are usable (a view indexed elsewhere is expanded).
            Statement stmt = planner.plan(sql, paramTypeHints == null ? List.of() : paramTypeHints,
                    catalog.get().withIndexesOn(vars.get("cluster")));
            return new PreparedStatement(sql, stmt.commandVerb(), stmt.paramTypes(), ShowStatements.columnsOf(stmt), stmt);
        } catch (Throwable e) {
            throw statementFailed(e, "planning");
        }
    }

    // ------------------------------------------------------------------ execute

    @Override
    public ExecutionResult execute(PreparedStatement prepared, List<Object> params) {
        Statement stmt = prepared.plan();
        if (status == TransactionStatus.FAILED
                && !(stmt instanceof Statement.Rollback) && !(stmt instanceof Statement.Commit)) {
            throw new SqlException(SqlState.IN_FAILED_SQL_TRANSACTION,
                    "current transaction is aborted, commands ignored until end of transaction block");
        }
        cancelRequested.set(false);
        running = true;
        currentSql = prepared.sql();
        try {
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
            case Statement.SetVariable s -> {
                if (s.name().equals("transaction_isolation") && status != TransactionStatus.IDLE && txnRead != null) {
                    throw new SqlException(SqlState.ACTIVE_SQL_TRANSACTION,
                            "SET TRANSACTION ISOLATION LEVEL must be called before any query");
                }
                yield new ExecutionResult.Command("SET", vars.set(s.name(), s.value()));
            }
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
            case Statement.ShowClusters sc -> new ExecutionResult.Rows(ShowStatements.columnsOf(sc), shows.showClusters(sc), "SHOW");
            case Statement.CopyFrom cf -> copyFrom(cf);
            case Statement.Truncate t -> truncate(t);
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
        if (s.name().equals("all")) {
            List<Row> rows = new ArrayList<>();
            // Session variables shadow system parameters of the same name (their value
            // is the session's); the description comes from the system registry.
            vars.all().forEach((k, v) -> rows.add(Row.of(k, v,
                    Params.find(k).map(Param::description).orElse(""))));
            return new ExecutionResult.Rows(cols, rows, "SHOW");
        }
        String value = s.name().equals("transaction_isolation") && txnIsolation != null ? txnIsolation : vars.get(s.name());
        return new ExecutionResult.Rows(cols, List.of(Row.of(value)), "SHOW");
    }

    // ------------------------------------------------------------------ reads

    /**
     * A SELECT: the read is opened and its first rows computed here (errors found by then
     * fail the statement); the rest is produced as the consumer pulls the stream. The
     * stream holds the read's snapshots, holds and memory until it is closed.
     */
    private ExecutionResult query(Statement.Query q, List<Object> params) {
        QueryPlan plan = Plans.bindParams(q.plan(), params);
        QueryMemory memory = QueryMemory.forQuery(parameters.get(Params.MAX_QUERY_MEMORY));
        StatementStream stream;
        try {
            Cancellation cancel = cancellation();
            FinishedRows rows = openRead(plan, false, memory, parameters.get(Params.MAX_RESULT_SIZE),
                    true, cancel);
            stream = new StatementStream(rows, memory, cancel, status == TransactionStatus.IN_TRANSACTION, streams);
        } catch (Throwable e) {
            memory.close();
            throw e;
        }
        stream.prime();
        return new ExecutionResult.Rows(ShowStatements.columnsOf(q), stream, "SELECT");
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
        PeekPlan peek = peekPlanner(plan, false).plan(plan.body(), evalContext());
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
        try (FinishedRows rows = openRead(plan, true, memory, Long.MAX_VALUE, false, cancellation())) {
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
     * @param maxResultBytes {@code max_result_size}, counted as rows are produced ({@code Long.MAX_VALUE}: none)
     * @param stream         produce rows as they are pulled where the read runs on this thread
     */
    private FinishedRows openRead(QueryPlan plan, boolean forWrite, QueryMemory memory, long maxResultBytes,
                                  boolean stream, Cancellation cancel) {
        EvalContext ctx = evalContext();
        PeekPlan peek = peekPlanner(plan, forWrite).plan(plan.body(), ctx);
        // A materialized read's rows all go to the client only without LIMIT and OFFSET.
        long whileMaterializing = plan.limit() < 0 && plan.offset() <= 0 ? maxResultBytes : Long.MAX_VALUE;
        ReadLimits limits = new ReadLimits(memory, whileMaterializing, stream);
        ChunkSource rows;
        if (peek instanceof PeekPlan.Constant) {
            // Constants and table functions: no snapshot, no timestamp, no transaction read.
            rows = peekExecutor.open(ComputeReads.NONE, null, peek, null, ctx, cancel, limits, true);
        } else if (status == TransactionStatus.IN_TRANSACTION && !forWrite) {
            if (txnHasWrites) {
                throw new SqlException(SqlState.INVALID_TRANSACTION_STATE,
                        "transaction in write-only mode", null,
                        "A transaction that has written may not read; COMMIT first.");
            }
            if (txnRead == null) {
                Set<Long> all = new HashSet<>();
                catalog.get().tables().forEach(t -> all.add(t.id()));
                txnRead = PeekInputs.acquireForTransaction(reads, peek, isolation(), all, cancel);
                // Pin every other export readable at the transaction's time, so later
                // statements can read them at it (one timestamp for the whole transaction).
                List<CollectionReader> others = new ArrayList<>();
                ComputeReads compute = sessionCompute(plan);
                for (long id : all) others.addAll(compute.readers(id));
                catalog.get().views().forEach(v -> others.addAll(compute.readers(v.id())));
                txnRead.openReadableNow(others);
            } else {
                txnRead.extendFor(peek, cancel);
            }
            // The transaction owns its inputs: the stream must not release them.
            rows = peekExecutor.open(sessionCompute(plan), currentSql, peek, txnRead, ctx, cancel, limits, false);
        } else {
            // Writes read the newest state (they hold the write lock): always strict serializable.
            Isolation isolation = forWrite ? Isolation.STRICT_SERIALIZABLE : isolation();
            PeekInputs in = PeekInputs.acquire(reads, peek, isolation, cancel);
            try {
                // The reads of writes run here (table snapshots, under the write lock); a
                // SELECT is served by the session's replica, which places it on a runtime.
                ChunkSource read = peekExecutor.open(sessionCompute(plan), forWrite ? null : currentSql, peek, in, ctx,
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
     * The read planner of one statement, over the compute of the session's cluster (and
     * {@code cluster_replica}, when set): Materialize's rule that a SELECT runs on the
     * session's cluster and uses only that cluster's indexes. A {@code forWrite} planner
     * reads tables from their own snapshots.
     */
    private PeekPlanner peekPlanner(QueryPlan plan, boolean forWrite) {
        ComputeReads compute = sessionCompute(plan);
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
        return Isolation.of(txnIsolation != null ? txnIsolation : vars.get("transaction_isolation"));
    }

    private EvalContext evalContext() {
        Instant now = status == TransactionStatus.IN_TRANSACTION && txnStart != null ? txnStart : Instant.now();
        ZoneId zone;
        try {
            String tz = vars.get("timezone");
            zone = ZoneId.of(tz.equalsIgnoreCase("utc") ? "UTC" : tz);
        } catch (RuntimeException e) {
            zone = ZoneId.of("UTC");
        }
        return new EvalContext(now, zone, user, database);
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
        QueryPlan source = Plans.bindParams(ins.source(), params);
        boolean readsTables = !PlanInputs.objectIds(source.body()).isEmpty();
        try (QueryMemory memory = writeMemory()) {
            if (status == TransactionStatus.IN_TRANSACTION) {
                if (readsTables) throw readModifyWriteInTransaction("INSERT ... SELECT");
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
        QueryMemory memory = writeMemory();
        CopyLoader loader = new CopyLoader(cf, evalContext().timeZone(), memory::reserve);
        return new ExecutionResult.CopyIn(cf.columns().length, new CopyFromStdin(loader, memory, changes -> {
            if (status == TransactionStatus.IN_TRANSACTION) bufferWrites(changes);
            else writer.commit(changes, writeAdmission());
            return changes.size();
        }, e -> statementFailed(e, "executing")));
    }

    /**
     * TRUNCATE: deletes every row of the tables in one write. Inside BEGIN it is deferred to
     * COMMIT (which reads the tables then, under the write lock), and the transaction's
     * earlier writes to those tables are dropped, as they would be truncated away.
     */
    private ExecutionResult truncate(Statement.Truncate t) {
        if (status == TransactionStatus.IN_TRANSACTION) {
            bufferWrites(List.of());
            for (Statement.Delete d : t.deletes()) {
                txnWrites.removeIf(ch -> ch.tableId() == d.table().id());
                txnTruncates.add(d);
            }
            return new ExecutionResult.Command("TRUNCATE TABLE");
        }
        commitWithTruncates(t.deletes(), List.of());
        return new ExecutionResult.Command("TRUNCATE TABLE");
    }

    /** Deletes every row of {@code truncated}'s tables and writes {@code writes}, as one write. */
    private void commitWithTruncates(List<Statement.Delete> truncated, List<TableChange> writes) {
        AdmissionLimit limit = writeAdmission();
        try (QueryMemory memory = writeMemory()) {
            writer.serialized(limit, () -> {
                List<TableChange> all = new ArrayList<>();
                for (Statement.Delete d : truncated) {
                    all.addAll(TableWriter.deletions(d.table(), readForWrite(d.rows(), memory)));
                }
                all.addAll(writes);
                return commitCount(all, limit);
            });
        }
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
        if (status == TransactionStatus.IN_TRANSACTION) throw readModifyWriteInTransaction("UPDATE");
        QueryPlan rows = Plans.bindParams(upd.rows(), params);
        int n = readModifyWrite(rows, matches -> TableWriter.updates(upd, rows.columnTypes(), matches));
        return new ExecutionResult.Command("UPDATE " + n);
    }

    private ExecutionResult delete(Statement.Delete del, List<Object> params) {
        if (status == TransactionStatus.IN_TRANSACTION) throw readModifyWriteInTransaction("DELETE");
        QueryPlan rows = Plans.bindParams(del.rows(), params);
        int n = readModifyWrite(rows, matches -> TableWriter.deletions(del.table(), matches));
        return new ExecutionResult.Command("DELETE " + n);
    }

    /**
     * Reads {@code rows} at the newest time and commits {@code changesOf} them, with no
     * other write in between (the coordinator's write lock is held throughout). Returns
     * the number of rows read: the UPDATE/DELETE count.
     */
    private int readModifyWrite(QueryPlan rows, Function<List<Row>, List<TableChange>> changesOf) {
        AdmissionLimit limit = writeAdmission();
        try (QueryMemory memory = writeMemory()) {
            return writer.serialized(limit, () -> {
                List<Row> matches = readForWrite(rows, memory);
                writer.commit(changesOf.apply(matches), limit);
                return matches.size();
            });
        }
    }

    /** The memory budget of a write's read: the same {@code max_query_memory} as a SELECT's. */
    private QueryMemory writeMemory() {
        return QueryMemory.forQuery(parameters.get(Params.MAX_QUERY_MEMORY));
    }

    private static SqlException readModifyWriteInTransaction(String what) {
        return new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                what + " inside a transaction block is not supported", null,
                "Run it outside BEGIN ... COMMIT; transactions may contain only SELECTs or only INSERT ... VALUES.");
    }

    private void bufferWrites(List<TableChange> changes) {
        if (txnRead != null) {
            throw new SqlException(SqlState.INVALID_TRANSACTION_STATE, "transaction in read-only mode", null,
                    "A transaction that has read may not write; COMMIT first.");
        }
        txnHasWrites = true;
        txnWrites.addAll(changes);
    }

    // ------------------------------------------------------------------ DDL and transactions

    private ExecutionResult begin(Statement.Begin b) {
        if (status == TransactionStatus.IDLE) {
            status = TransactionStatus.IN_TRANSACTION;
            txnStart = Instant.now();
            txnIsolation = b.isolationLevel();
        }
        // BEGIN inside a transaction is a warning in PostgreSQL, not an error.
        return new ExecutionResult.Command("BEGIN");
    }

    private ExecutionResult commit() {
        boolean failed = status == TransactionStatus.FAILED;
        List<TableChange> writes = new ArrayList<>(txnWrites);
        List<Statement.Delete> truncates = new ArrayList<>(txnTruncates);
        endTransaction();
        if (failed) return new ExecutionResult.Command("ROLLBACK");
        if (!truncates.isEmpty()) commitWithTruncates(truncates, writes);
        else if (!writes.isEmpty()) writer.commit(writes, writeAdmission());
        return new ExecutionResult.Command("COMMIT");
    }

    private void endTransaction() {
        // As PostgreSQL closes a transaction's cursors at its end: their inputs go now.
        for (StatementStream open : List.copyOf(openStreams)) {
            if (open.inTransaction()) open.close();
        }
        PeekInputs read = txnRead;
        txnRead = null;
        txnIsolation = null;
        txnWrites.clear();
        txnTruncates.clear();
        txnHasWrites = false;
        txnStart = null;
        status = TransactionStatus.IDLE;
        if (read != null) read.close();
    }

    /** Ends the session: streams still open are closed (their reads released), then the transaction. */
    @Override
    public void close() {
        for (StatementStream open : List.copyOf(openStreams)) open.close();
        endTransaction();
    }

    /** For tests: the session's variables. */
    Map<String, String> variables() { return new LinkedHashMap<>(vars.all()); }
}
