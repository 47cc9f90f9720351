package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;

/**
 * The payload of a {@code CatalogEntry("materialized view", name, payload)} log record.
 * Layout, version 1: version byte, the cluster (string), then the rest exactly as a
 * {@link ViewCodec} version-1 payload (id, definition, columns, dependencies). To change
 * it, add a version and keep decoding version 1.
 */
public final class MaterializedViewCodec {
    public static final String KIND = "materialized view";
    private static final int VERSION = 1;

    private MaterializedViewCodec() {}

    public static byte[] encode(MaterializedViewDef m) {
        byte[] view = ViewCodec.encode(new ViewDef(m.id(), m.name(), m.columnNames(), m.columnTypes(), m.definition(),
                m.dependsOn()));
        BinaryWriter w = new BinaryWriter(view.length + 32);
        w.writeByte(VERSION).writeString(m.cluster()).writeByteArray(view);
        return w.toByteArray();
    }

    public static MaterializedViewDef decode(String name, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION) {
            throw new CorruptDataException("materialized view " + name + ": unknown payload version " + version);
        }
        String cluster = r.readString();
        ViewDef v = ViewCodec.decode(name, r.readByteArray());
        return new MaterializedViewDef(v.id(), name, v.columnNames(), v.columnTypes(), v.definition(), v.dependsOn(),
                cluster);
    }
}
