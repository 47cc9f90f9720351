package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.Clusters;
import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.LogRecord;

/**
 * What the catalog records of a checkpoint cannot say, because the objects that set it
 * are gone: the id counters (ids of dropped objects are never reused) and whether the
 * log ever held a cluster record (a dropped {@code default} cluster stays dropped). A
 * checkpoint stores it as a {@code CatalogEntry} of kind {@value #KIND} after the catalog
 * records; loading it raises the counters and the flag, never lowers them.
 */
record CheckpointFacts(long nextCatalogId, long nextClusterId, long nextReplicaId, boolean clustersEverCreated) {
    static final String KIND = "checkpoint";
    private static final String NAME = "facts";

    static CheckpointFacts of(Catalog catalog, Clusters clusters) {
        return new CheckpointFacts(catalog.nextId(), clusters.nextClusterId(), clusters.nextReplicaId(), clusters.everCreated());
    }

    LogRecord.CatalogEntry toRecord() {
        byte[] payload = new BinaryWriter(32).writeByte(1).writeVarLong(nextCatalogId).writeVarLong(nextClusterId)
                .writeVarLong(nextReplicaId).writeBoolean(clustersEverCreated).toByteArray();
        return new LogRecord.CatalogEntry(KIND, NAME, payload);
    }

    static CheckpointFacts decode(byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != 1) throw new IllegalStateException("checkpoint facts of version " + version);
        return new CheckpointFacts(r.readVarLong(), r.readVarLong(), r.readVarLong(), r.readBoolean());
    }

    Catalog applyTo(Catalog catalog) { return catalog.withNextIdAtLeast(nextCatalogId); }

    Clusters applyTo(Clusters clusters) {
        return new Clusters(clusters.byId(), Math.max(clusters.nextClusterId(), nextClusterId),
                Math.max(clusters.nextReplicaId(), nextReplicaId), clusters.everCreated() || clustersEverCreated);
    }
}
