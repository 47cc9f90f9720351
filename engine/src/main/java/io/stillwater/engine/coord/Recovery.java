package io.stillwater.engine.coord;

import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.storage.WriteAheadLog;
import io.stillwater.engine.table.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery at open: replays the write-ahead log into the {@link AppliedState} (catalog,
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
    static void replay(WriteAheadLog log, WritePipeline pipeline, AppliedState state) {
        long[] last = {0};
        synchronized (pipeline.applyLock()) {
            state.replaying(true);
            // DDL records carry no timestamp: they take effect at the time of the
            // last write before them (later writes are at greater times).
            log.replay(record -> {
                long t = record instanceof LogRecord.TableWrite tw ? tw.time() : last[0];
                state.prepare(record, t).publish();
                if (t > last[0]) last[0] = t;
            });
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
}
