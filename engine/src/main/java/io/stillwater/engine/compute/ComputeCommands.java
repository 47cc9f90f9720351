package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import java.util.Map;

/**
 * The coordinator's commands to a replica's compute: create and drop dataflows, hand over
 * the changes of each committed write, advance time when idle, close. Every method is
 * called by the coordinator while it holds its apply lock, in timestamp order, and returns
 * without waiting for the work (the replica queues it). Reads go through {@link
 * ComputeReads}; {@link ComputeController} is a replica's handle offering both.
 */
public interface ComputeCommands extends AutoCloseable {
    /**
     * Builds and hydrates {@code spec}'s dataflow from {@code inputs} (its tables at
     * {@code inputs.asOf()}), then maintains it with every later {@link #inputChanges}.
     * Compute closes {@code inputs} once hydrated. An index whose collection and key
     * equal an existing export's shares that export's arrangement (a re-export).
     */
    void createDataflow(DataflowSpec spec, InputSnapshot inputs);

    /** Drops the export; its arrangement lives on while another export or dataflow uses it. */
    void dropDataflow(long exportId);

    /**
     * The changes of one committed write at {@code time}, by table id (tables absent did
     * not change). Every table is complete through {@code time}: frontiers advance to
     * {@code time + 1}.
     */
    void inputChanges(long time, Map<Long, Changes> changes);

    /** Every table is complete before {@code upper} with no changes since the last command (an idle tick). */
    void advanceTo(long upper);

    @Override
    void close();
}
