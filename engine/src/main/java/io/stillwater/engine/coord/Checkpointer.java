package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.MaterializedViewDef;
import io.stillwater.engine.compute.CollectionReader;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.dataflow.Cancellation;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.params.Params;
import io.stillwater.engine.params.SystemParameters;
import io.stillwater.engine.storage.CheckpointFile;
import io.stillwater.engine.storage.CheckpointWriter;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.WriteAheadLog;
import io.stillwater.engine.arrange.ReadHold;
import io.stillwater.engine.table.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes checkpoints: the catalog and every table's consolidated contents at a timestamp
 * T ({@link CheckpointFile}), after which the log segments before the checkpoint are
 * deleted, so disk use and restart time follow the data, not the write history.
 *
 * <p><b>How one checkpoint runs.</b> (1) Holding the pipeline's write lock once every
 * appended record is applied (so nothing is pending and nothing new is appended): take
 * T = the read timestamp, the catalog as records ({@link CatalogRecords}), a read hold
 * at T on every table and on every materialized view's arrangement (on a replica that
 * maintains it; no waiting), then start log segment N ({@link WriteAheadLog#startNewSegment}):
 * every record at or before T is in a segment before N, every later one in N or after.
 * That is one fsync under the lock; the lock is released at once. (2) On the checkpoint
 * thread, without any lock: read each table at T (the holds keep T readable while
 * writes go on), then each materialized view at T once its dataflow got there (at most
 * {@link #VIEW_WAIT_MS} ms of waiting for all of them; a view not there in time, or
 * holding an evaluation error, is left out and recomputed at restart), write the file
 * as a temporary, fsync, rename, fsync the directory.
 * (3) Only then delete older checkpoint files and the segments before N, oldest first.
 * A crash before the rename leaves the previous checkpoint and every segment after it;
 * a crash after it leaves extra segments, which restart deletes ({@link
 * WriteAheadLog#open(Path, boolean, long, long)}). Nothing is lost at any point.
 *
 * <p><b>When.</b> Every {@link #CHECK_MS} ms the checkpoint thread looks whether the log grew by
 * {@code checkpoint_wal_size} since the last checkpoint, or {@code checkpoint_interval}
 * passed with something written; at clean shutdown ({@link #close}); and on the SQL
 * statement {@code CHECKPOINT} ({@link #checkpointNow}).
 *
 * <p><b>Threads.</b> Checkpoints run one at a time on the {@code stillwater-checkpoint}
 * thread, which owns {@code bytesAtLast} and {@code lastNanos}; other threads submit to
 * it and wait.
 */
public final class Checkpointer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);
    /** Rows per TableWrite frame in a checkpoint file: frames stay small whatever the table's size. */
    static final int ROWS_PER_FRAME = 4096;
    /**
     * How long, in all, a checkpoint waits for materialized views' dataflows to reach its
     * time T. A view not there by then is left out of this checkpoint (restart recomputes
     * it before answering): a lagging dataflow must never hold up checkpoints.
     */
    static final long VIEW_WAIT_MS = 2000;
    /** How often the checkpoint thread looks whether a trigger is due, in ms. */
    static final long CHECK_MS = 100;

    /** Points of a checkpoint a crash test stops at (see {@link #onStage}). */
    enum Stage {
        /** The temporary file is complete and fsynced; not renamed yet. */
        TEMP_WRITTEN,
        /** Renamed and the directory synced; older segments not deleted yet. */
        PUBLISHED,
        /** Older checkpoints and segments deleted. */
        DONE
    }

    /** What one checkpoint wrote. */
    public record Result(Path file, long time, long firstSegment, long bytes, int segmentsDeleted, long millis,
                         int viewsStored, int viewsSkipped) {}

    /** What step (1) captured under the write lock. */
    private record Capture(long time, long firstSegment, long logBytes, List<LogRecord> catalog, List<HeldTable> tables,
                           List<HeldView> views) {
        void release() {
            for (HeldTable t : tables) t.hold().close();
            for (HeldView v : views) v.hold().ifPresent(CollectionReader.Hold::close);
        }
    }

    private record HeldTable(long id, Table table, ReadHold hold) {}

    /** A materialized view's reader, held at T when it can be (stored contents from the checkpoint need no hold). */
    private record HeldView(MaterializedViewDef def, CollectionReader reader, Optional<CollectionReader.Hold> hold) {}

    private final WritePipeline pipeline;
    private final AppliedState state;
    private final WriteAheadLog log;
    private final boolean fsync;
    private final SystemParameters parameters;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stillwater-checkpoint");
        t.setDaemon(true);
        return t;
    });
    // Owned by the checkpoint thread.
    private long bytesAtLast;
    private long lastNanos = System.nanoTime();
    private volatile Result last;
    /** Test hook: told at each stage of every checkpoint, on the checkpoint thread. */
    private volatile Consumer<Stage> stageHook = s -> {};
    private volatile boolean closed;

    /** A materialized view's reader by view id, on any replica that maintains it (or its stored contents). */
    private final LongFunction<Optional<CollectionReader>> views;

    Checkpointer(WritePipeline pipeline, AppliedState state, WriteAheadLog log, boolean fsync, SystemParameters parameters,
                 LongFunction<Optional<CollectionReader>> views) {
        this.views = views;
        this.pipeline = pipeline;
        this.state = state;
        this.log = log;
        this.fsync = fsync;
        this.parameters = parameters;
    }

    /**
     * After recovery from the checkpoint that replaces the segments before {@code
     * firstSegment} (1: none): deletes temporary files of interrupted checkpoints and
     * checkpoints older than the one used (a crash before their deletion), and starts the
     * triggers. A newer, damaged checkpoint is left for inspection until the next one.
     */
    void start(long firstSegment) {
        deleteOlderCheckpoints(firstSegment);
        try {
            for (Path temp : CheckpointFile.leftoverTemps(log.directory())) {
                LOG.info("deleting {}, left by a checkpoint that did not finish", temp);
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            LOG.warn("could not delete leftover checkpoint files in {}", log.directory(), e);
        }
        thread.scheduleWithFixedDelay(this::checkpointIfDue, CHECK_MS, CHECK_MS, TimeUnit.MILLISECONDS);
    }

    /** The last checkpoint this process wrote, or null. */
    public Result last() { return last; }

    /** Tells {@code hook} at each stage of every checkpoint (tests: a copy of the data directory there is a crash there). */
    void onStage(Consumer<Stage> hook) { stageHook = hook; }

    /**
     * Writes a checkpoint now and returns once it is durable and the log before it deleted.
     *
     * @throws SqlException 58030 on an I/O error (the previous checkpoint and the log stay), 57P01 when shutting down
     */
    public Result checkpointNow() {
        if (closed) throw new SqlException(SqlState.ADMIN_SHUTDOWN, "the server is shutting down");
        Future<Result> f;
        try {
            f = thread.submit(this::checkpoint);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new SqlException(SqlState.ADMIN_SHUTDOWN, "the server is shutting down");
        }
        return await(f);
    }

    private static Result await(Future<Result> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the checkpoint goes on; its outcome is awaited
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) throw r;
                    if (e.getCause() instanceof Error err) throw err;
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Checkpoint thread: a checkpoint if a trigger is due; failures are logged and tried again later. */
    private void checkpointIfDue() {
        try {
            long grown = log.bytesWritten() - bytesAtLast;
            if (grown <= 0 || closed || pipeline.isStopped()) return;
            long walSize = parameters.get(Params.CHECKPOINT_WAL_SIZE);
            long intervalNanos = parameters.get(Params.CHECKPOINT_INTERVAL).toNanos();
            boolean bySize = walSize > 0 && grown >= walSize;
            boolean byTime = intervalNanos > 0 && System.nanoTime() - lastNanos >= intervalNanos;
            if (bySize || byTime) checkpoint();
        } catch (Throwable t) { // never let it escape: the scheduler would stop for good
            LOG.error("checkpoint failed; the previous checkpoint and the log after it remain", t);
        }
    }

    /** One checkpoint (see the class comment). Checkpoint thread. */
    private Result checkpoint() {
        long started = System.nanoTime();
        Capture c = capture();
        Result result;
        int viewsStored = 0;
        try (CheckpointWriter writer = CheckpointWriter.begin(log.directory(), c.firstSegment(), c.time(), fsync)) {
            for (LogRecord r : c.catalog()) writer.add(r);
            for (HeldTable t : c.tables()) {
                writeContents(writer, t.id(), c.time(), t.table().read(c.time()));
                t.hold().close(); // the table may compact past T again
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(VIEW_WAIT_MS);
            for (HeldView v : c.views()) {
                if (writeViewContents(writer, v, c.time(), deadline)) viewsStored++;
                v.hold().ifPresent(CollectionReader.Hold::close);
            }
            writer.finishTemp();
            stageHook.accept(Stage.TEMP_WRITTEN);
            Path file = writer.publish();
            stageHook.accept(Stage.PUBLISHED);
            deleteOlderCheckpoints(c.firstSegment());
            int deleted = log.deleteSegmentsBefore(c.firstSegment());
            result = new Result(file, c.time(), c.firstSegment(), writer.bytes(), deleted,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), viewsStored, c.views().size() - viewsStored);
        } finally {
            c.release(); // idempotent
        }
        bytesAtLast = c.logBytes();
        lastNanos = started;
        last = result;
        stageHook.accept(Stage.DONE);
        LOG.info("checkpoint at {} written to {} ({} bytes, {} ms, {} materialized views' contents, {} left out);"
                + " deleted {} log segment(s)", result.time(), result.file().getFileName(), result.bytes(), result.millis(),
                result.viewsStored(), result.viewsSkipped(), result.segmentsDeleted());
        return result;
    }

    /** Step (1): what the checkpoint holds, taken under the write lock with nothing pending. */
    private Capture capture() {
        return pipeline.sequenced(() -> {
            long time;
            long logBytes;
            List<LogRecord> catalog;
            List<HeldTable> tables = new ArrayList<>();
            List<HeldView> held = new ArrayList<>();
            synchronized (pipeline.applyLock()) {
                time = pipeline.oracle().readTimestamp();
                logBytes = log.bytesWritten();
                catalog = state.catalogRecords();
                for (Table t : state.tables()) tables.add(new HeldTable(t.def().id(), t, t.hold(time)));
                // Only holds here (cheap); waiting for and reading the views happen on this thread later.
                for (MaterializedViewDef m : state.catalog().materializedViews()) {
                    views.apply(m.id()).ifPresent(r -> held.add(new HeldView(m, r, r.tryHold(time))));
                }
            }
            try {
                long first = log.startNewSegment();
                return new Capture(time, first, logBytes, catalog, tables, held);
            } catch (RuntimeException e) {
                new Capture(time, 0, logBytes, catalog, tables, held).release();
                throw e;
            }
        });
    }

    /** A table's contents at {@code time} as TableWrites of at most {@link #ROWS_PER_FRAME} rows. */
    private static void writeContents(CheckpointWriter writer, long id, long time, Changes contents) {
        List<LogRecord.TableChange> chunk = new ArrayList<>(Math.min(ROWS_PER_FRAME, contents.size()));
        for (int i = 0; i < contents.size(); i++) {
            chunk.add(new LogRecord.TableChange(id, contents.row(i), contents.diff(i)));
            if (chunk.size() == ROWS_PER_FRAME) {
                writer.add(new LogRecord.TableWrite(time, chunk));
                chunk.clear();
            }
        }
        if (!chunk.isEmpty()) writer.add(new LogRecord.TableWrite(time, chunk));
    }

    /**
     * Writes view {@code v}'s contents at {@code time} if its reader gets there before
     * {@code deadline} (System.nanoTime) without an evaluation error; false when it is left
     * out of this checkpoint. Checkpoint thread.
     */
    private static boolean writeViewContents(CheckpointWriter writer, HeldView v, long time, long deadline) {
        String why;
        try {
            v.reader().readableAt(time).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            try (CollectionReader.Snapshot s = v.reader().snapshot(time)) {
                if (s.firstError().isEmpty()) {
                    Changes contents = new Changes();
                    s.walk(contents::add, Cancellation.NONE);
                    List<LogRecord.TableChange> chunk = new ArrayList<>(Math.min(ROWS_PER_FRAME, contents.size()));
                    for (int i = 0; i < contents.size(); i++) {
                        chunk.add(new LogRecord.TableChange(v.def().id(), contents.row(i), contents.diff(i)));
                        if (chunk.size() == ROWS_PER_FRAME) {
                            writer.addViewContents(v.def().id(), new LogRecord.TableWrite(time, chunk));
                            chunk.clear();
                        }
                    }
                    if (!chunk.isEmpty() || contents.size() == 0) {
                        writer.addViewContents(v.def().id(), new LogRecord.TableWrite(time, chunk));
                    }
                    return true;
                }
                why = "it holds an evaluation error";
            }
        } catch (TimeoutException e) {
            why = "its dataflow did not reach the checkpoint's time within " + VIEW_WAIT_MS + " ms";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        } catch (ExecutionException | RuntimeException e) {
            why = "it could not be read at the checkpoint's time: " + e.getMessage();
        }
        LOG.info("materialized view {} left out of the checkpoint at {} ({}); restart recomputes it before answering",
                v.def().name(), time, why);
        return false;
    }

    private void deleteOlderCheckpoints(long current) {
        try {
            for (Path p : CheckpointFile.list(log.directory())) {
                if (CheckpointFile.firstSegmentOf(p) < current) Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Harmless: restart uses the newest; the next checkpoint tries again.
            LOG.warn("could not delete older checkpoint files in {}", log.directory(), e);
        }
    }

    /**
     * Stops the triggers; with {@code checkpointFirst}, first writes a checkpoint if
     * anything was logged since the last one and checkpoints are on (clean shutdown: the
     * next start reads no log). A failure there is logged; the log keeps everything anyway.
     */
    void close(boolean checkpointFirst) {
        if (checkpointFirst && enabled() && !closed && !pipeline.isStopped()) {
            try {
                await(thread.submit(() -> log.bytesWritten() > bytesAtLast ? checkpoint() : last));
            } catch (RuntimeException e) {
                LOG.error("shutdown checkpoint failed; the log after the previous checkpoint remains", e);
            }
        }
        closed = true;
        thread.shutdownNow();
        try {
            if (!thread.awaitTermination(60, TimeUnit.SECONDS)) LOG.warn("checkpoint thread did not stop within 60 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether checkpoints run by themselves: some trigger is on (both 0 turns them off, the shutdown one too). */
    private boolean enabled() {
        return parameters.get(Params.CHECKPOINT_WAL_SIZE) > 0 || !parameters.get(Params.CHECKPOINT_INTERVAL).isZero();
    }

    @Override
    public void close() { close(false); }
}
