package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A replica's compute as the replica offers it: the coordinator's {@link ComputeCommands}
 * (under its apply lock, in timestamp order) and the sessions' {@link ComputeReads} (from
 * session threads). Callers should hold the narrower of the two they need.
 */
public interface ComputeController extends ComputeCommands, ComputeReads {
    /** A controller with no replica: creating a dataflow fails, nothing is readable. */
    ComputeController NONE = new ComputeController() {
        public void createDataflow(DataflowSpec spec, InputSnapshot inputs) {
            inputs.close();
            throw new UnsupportedOperationException("this engine has no compute replica");
        }
        public void dropDataflow(long exportId) {}
        public void inputChanges(long time, Map<Long, Changes> changes) {}
        public void advanceTo(long upper) {}
        public List<CollectionReader> readers(long collectionId) { return List.of(); }
        public Optional<CollectionReader> reader(long exportId) { return Optional.empty(); }
        public void close() {}
    };
}
