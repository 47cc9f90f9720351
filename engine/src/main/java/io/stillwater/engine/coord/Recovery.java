package io.stillwater.engine.coord;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.storage.CheckpointReader.Checkpoint;
import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.WriteAheadLog;
import io.stillwater.engine.table.Table;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery at open: loads the newest checkpoint, if any ({@link Checkpointer}), then replays the write-ahead log after it into the {@link AppliedState} (catalog,
 * clusters, tables, system parameters), without compute: replicas are provisioned and
 * their dataflows hydrated afterwards ({@link ClusterControl#startRecordedReplicas},
 * {@link ClusterControl#hydrateAll}). Runs on the opening thread, before any session
 * exists, holding the pipeline's apply lock throughout.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private Recovery() {}

    /**
     * Applies every record of {@code log} to {@code state} in log order, then moves the
     * oracle and every table's upper past the last write's time.
     */
    static void replay(WriteAheadLog log, WritePipeline pipeline, AppliedState state, Optional<Checkpoint> checkpoint,
                       StoredViews views) {
        long[] last = {0};
        synchronized (pipeline.applyLock()) {
            state.replaying(true);
            checkpoint.ifPresent(c -> last[0] = load(c, state, views));
            // DDL records carry no timestamp: they take effect at the time of the
            // last write before them (later writes are at greater times).
            log.replay(record -> {
                long t = record instanceof LogRecord.TableWrite tw ? tw.time() : last[0];
                state.prepare(record, t).publish();
                if (t > last[0]) last[0] = t;
            });
            views.retainIn(state.catalog()); // views the log dropped after the checkpoint
            pipeline.oracle().observe(last[0]);
            pipeline.oracle().applyWrite(last[0]);
            long upper = last[0] + 1;
            for (Table t : state.tables()) t.advanceUpper(upper);
            state.replaying(false);
        }
        var report = log.recoveryReport();
        if (report.clean()) {
            LOG.info("{}; {} tables", report.describe(), state.tables().size());
        } else {
            // A torn tail is expected after a crash; the description says what was cut.
            LOG.warn("{}; {} tables", report.describe(), state.tables().size());
        }
    }

    /**
     * Loads a checkpoint into the empty {@code state}: its catalog records (at time 0, as
     * a log's first DDL), then each table's rows as one batch at the checkpoint's time T.
     * The materialized views' stored contents go to {@code views}, which serves reads of
     * them until their dataflows hydrate (the log replayed next marks the ones whose
     * inputs it writes). Returns T: the log after the checkpoint continues from there.
     * Apply lock, replaying.
     */
    private static long load(Checkpoint c, AppliedState state, StoredViews views) {
        long started = System.nanoTime();
        Map<Long, Changes> contents = new HashMap<>();
        Map<Long, Changes> viewContents = new HashMap<>();
        long[] rows = {0};
        c.read(record -> {
            if (record instanceof LogRecord.TableWrite tw) {
                for (LogRecord.TableChange ch : tw.changes()) {
                    contents.computeIfAbsent(ch.tableId(), k -> new Changes()).add(ch.row(), ch.diff());
                }
                rows[0] += tw.changes().size();
            } else {
                state.prepare(record, 0).publish();
            }
        }, view -> {
            Changes rowsOfView = viewContents.computeIfAbsent(view.viewId(), k -> new Changes());
            for (LogRecord.TableChange ch : view.chunk().changes()) rowsOfView.add(ch.row(), ch.diff());
        });
        for (var e : viewContents.entrySet()) views.load(state.catalog(), e.getKey(), c.time(), e.getValue());
        for (var e : contents.entrySet()) state.loadCheckpointedContents(e.getKey(), c.time(), e.getValue());
        for (Table t : state.tables()) t.advanceUpper(c.time() + 1);
        LOG.info("loaded checkpoint {} at {}: {} tables, {} rows, {} materialized views' contents in {} ms",
                c.file().getFileName(), c.time(), state.tables().size(), rows[0], views.size(),
                (System.nanoTime() - started) / 1_000_000);
        return c.time();
    }
}
