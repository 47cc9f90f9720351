package io.stillwater.engine.session;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.memory.HeapEstimate;
import io.stillwater.engine.memory.QueryMemory;
import io.stillwater.engine.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The SQL cursors (DECLARE ... CURSOR) of a session, by name. A cursor is a forward-only
 * {@link RowStream} over its query, opened at DECLARE and pulled by FETCH / MOVE a batch
 * at a time, so a cursor over a big result holds only the rows in flight, never the
 * whole result. When its block ends a cursor closes, except a WITH HOLD cursor whose block
 * commits: its remaining rows are then read into memory ({@link #holdAtCommit}, within
 * {@code max_query_memory}), as PostgreSQL materializes them, and it stays open until
 * CLOSE or the end of the session.
 *
 * <p>Invariant: {@code committed} cursors are WITH HOLD cursors whose rows are all in
 * memory; every other cursor belongs to the open transaction block.
 *
 * <p>Owned by the session thread.
 */
final class Cursors {
    /** Rows pulled from a cursor per step of a MOVE. */
    private static final int MOVE_BATCH = 4096;

    /** One open cursor: its result columns, the stream of rows not yet fetched, and its holdability. */
    record Cursor(String name, List<ResultColumn> columns, RowStream rows, boolean hold, boolean committed) {}

    private final Map<String, Cursor> open = new LinkedHashMap<>();
    /** The session's cancel flag (set from any thread), which cursor reads poll. */
    private final AtomicBoolean cancelRequested;
    /** The session's statement_timeout in ms (0: none), read when a cursor statement starts. */
    private final LongSupplier timeoutMillis;
    /** A new budget of {@code max_query_memory}, for a WITH HOLD cursor's rows after its block. */
    private final Supplier<QueryMemory> holdBudget;
    /**
     * System.nanoTime() by which the cursor statement (DECLARE, FETCH, MOVE, COMMIT)
     * running now times out (0: none): a cursor's read, opened by an earlier statement,
     * checks the current one's. Session thread.
     */
    private long deadline;

    Cursors(AtomicBoolean cancelRequested, LongSupplier timeoutMillis, Supplier<QueryMemory> holdBudget) {
        this.cancelRequested = cancelRequested;
        this.timeoutMillis = timeoutMillis;
        this.holdBudget = holdBudget;
    }

    /**
     * DECLARE: opens the cursor's read through {@code open} (given the cancellation it
     * must poll). Outside a block ({@code inBlock} false) only a WITH HOLD cursor may be
     * declared (else 25P01), and it is read into memory at once, as if its block committed.
     */
    ExecutionResult declare(Statement.DeclareCursor d, List<ResultColumn> columns, boolean inBlock,
                            Function<Cancellation, RowStream> open) {
        if (!inBlock && !d.hold()) {
            throw new SqlException(SqlState.NO_ACTIVE_SQL_TRANSACTION,
                    "DECLARE CURSOR can only be used in transaction blocks");
        }
        if (this.open.containsKey(d.name())) {
            throw new SqlException(SqlState.DUPLICATE_CURSOR, "cursor \"" + d.name() + "\" already exists");
        }
        startStatement();
        declare(d.name(), columns, open.apply(this::checkCancel), d.hold());
        if (!inBlock) {
            try {
                holdAtCommit();
            } catch (Throwable e) {
                endBlock();
                throw e;
            }
        }
        return new ExecutionResult.Command("DECLARE CURSOR");
    }

    /** FETCH (rows) or MOVE (a count) on the cursor the statement names. */
    ExecutionResult fetch(Statement.FetchCursor f) {
        startStatement();
        return f.move() ? new ExecutionResult.Command("MOVE " + move(f.name(), f.count())) : fetch(f.name(), f.count());
    }

    /** CLOSE name | ALL. */
    ExecutionResult close(Statement.CloseCursor c) {
        if (c.name() == null) closeAll();
        else close(c.name());
        return new ExecutionResult.Command(c.commandVerb());
    }

    /** A cursor statement starts: its statement_timeout counts from now for the cursor's read. */
    private void startStatement() {
        long ms = timeoutMillis.getAsLong();
        deadline = ms > 0 ? System.nanoTime() + ms * 1_000_000 : 0;
    }

    /** A cursor's read polls this: the session's cancel flag and the timeout of the cursor statement running now. */
    private void checkCancel() {
        if (cancelRequested.get()) {
            throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        }
        long d = deadline;
        if (d != 0 && System.nanoTime() - d > 0) {
            throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to statement timeout");
        }
    }

    /** Adds a cursor the caller opened; 42P03 (and the stream closed) when the name is taken. */
    private void declare(String name, List<ResultColumn> columns, RowStream rows, boolean hold) {
        if (open.containsKey(name)) {
            rows.close();
            throw new SqlException(SqlState.DUPLICATE_CURSOR, "cursor \"" + name + "\" already exists");
        }
        open.put(name, new Cursor(name, columns, rows, hold, false));
    }

    /**
     * The block commits: each of its WITH HOLD cursors reads its remaining rows into
     * memory now (while the block's inputs are still pinned), reserved from a budget of
     * its own ({@code budget}), released when it closes. Returns their names, for the
     * caller to close them should the commit itself fail.
     *
     * @throws SqlException 53200 past the budget, or the read's own errors (the cursors
     *                      of the block are then all closed by the caller's rollback)
     */
    List<String> holdAtCommit() {
        startStatement();
        Supplier<QueryMemory> budget = holdBudget;
        List<String> held = new ArrayList<>();
        for (Cursor c : List.copyOf(open.values())) {
            if (!c.hold() || c.committed()) continue;
            open.put(c.name(), new Cursor(c.name(), c.columns(), inMemory(c.rows(), budget.get()), true, true));
            held.add(c.name());
        }
        return held;
    }

    /** The block ended: its cursors close (committed WITH HOLD cursors stay). */
    void endBlock() {
        RuntimeException first = null;
        for (Cursor c : List.copyOf(open.values())) {
            if (c.committed()) continue;
            open.remove(c.name());
            try {
                c.rows().close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }

    /** The rest of {@code source}, read into memory reserved from {@code memory} and closed. */
    private static RowStream inMemory(RowStream source, QueryMemory memory) {
        List<Row> rows = new ArrayList<>();
        try (source) {
            for (List<Row> b = source.next(MOVE_BATCH); !b.isEmpty(); b = source.next(MOVE_BATCH)) {
                long bytes = 0;
                for (Row r : b) bytes += HeapEstimate.ENTRY + HeapEstimate.row(r);
                memory.reserve(bytes);
                rows.addAll(b);
            }
        } catch (Throwable e) {
            memory.close();
            throw e;
        }
        RowStream held = RowStream.of(rows);
        return new RowStream() {
            @Override
            public List<Row> next(int max) { return held.next(max); }

            @Override
            public void close() {
                held.close();
                memory.close();
            }
        };
    }

    /** The open cursor {@code name}, if there is one (to describe a FETCH before it runs). */
    Optional<Cursor> find(String name) { return Optional.ofNullable(open.get(name)); }

    /**
     * The next {@code count} rows of cursor {@code name} as a stream the caller
     * pulls; closing it leaves the cursor open, positioned after the rows pulled.
     */
    private ExecutionResult.Rows fetch(String name, long count) {
        Cursor c = get(name);
        return new ExecutionResult.Rows(c.columns(), new Window(c.rows(), count), "FETCH");
    }

    /** MOVE: skips up to {@code count} rows of cursor {@code name}; returns how many it skipped. */
    private long move(String name, long count) {
        Cursor c = get(name);
        long moved = 0;
        while (moved < count) {
            List<Row> batch = c.rows().next((int) Math.min(MOVE_BATCH, count - moved));
            if (batch.isEmpty()) break;
            moved += batch.size();
        }
        return moved;
    }

    /** CLOSE name; 34000 when there is no such cursor. */
    void close(String name) {
        get(name);
        open.remove(name).rows().close();
    }

    /** CLOSE ALL, and the end of the transaction block: every cursor's read is released. */
    void closeAll() {
        RuntimeException first = null;
        for (Cursor c : List.copyOf(open.values())) {
            try {
                c.rows().close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        open.clear();
        if (first != null) throw first;
    }

    private Cursor get(String name) {
        Cursor c = open.get(name);
        if (c == null) throw new SqlException(SqlState.INVALID_CURSOR_NAME, "cursor \"" + name + "\" does not exist");
        return c;
    }

    /** At most {@code limit} rows of a cursor's stream; closing it leaves the cursor open. */
    private static final class Window implements RowStream {
        private final RowStream rows;
        private long remaining;

        Window(RowStream rows, long limit) {
            this.rows = rows;
            this.remaining = limit;
        }

        @Override
        public List<Row> next(int max) {
            if (remaining <= 0) return List.of();
            List<Row> batch = rows.next((int) Math.min(max, remaining));
            remaining -= batch.size();
            if (batch.isEmpty()) remaining = 0;
            return batch;
        }

        @Override
        public void close() { remaining = 0; }
    }
}
