package io.stillwater.engine.coord;

import io.stillwater.engine.storage.LogRecord;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The catalog as the log records that create it, kept as records are applied: the
 * latest {@code CreateTable} of every table and {@code CatalogEntry} of every (kind,
 * name) still present. A re-recorded entry moves to the end, after everything it may
 * depend on. Replaying {@link #snapshot()} into an empty state rebuilds the catalog,
 * clusters and system parameter overrides, which is how a checkpoint stores them.
 * Guarded by the pipeline's apply lock (the caller's).
 */
final class CatalogRecords {
    private final LinkedHashMap<String, LogRecord> byKey = new LinkedHashMap<>();

    /** Follows one applied record. */
    void applied(LogRecord record) {
        switch (record) {
            case LogRecord.CreateTable ct -> byKey.put(tableKey(ct.tableId()), ct);
            case LogRecord.DropTable dt -> byKey.remove(tableKey(dt.tableId()));
            case LogRecord.CatalogEntry e when e.kind().equals(CheckpointFacts.KIND) -> { } // written fresh by each checkpoint
            case LogRecord.CatalogEntry e -> {
                String key = key(e.kind(), e.name());
                byKey.remove(key);
                byKey.put(key, e);
            }
            case LogRecord.CatalogRemoval r -> byKey.remove(key(r.kind(), r.name()));
            case LogRecord.TableWrite tw -> { } // contents, not catalog
        }
    }

    /** The records, in the order to replay them. */
    List<LogRecord> snapshot() { return List.copyOf(byKey.values()); }

    private static String tableKey(long id) { return "\u0001table\u0000" + id; }

    private static String key(String kind, String name) { return kind + "\u0000" + name; }
}
