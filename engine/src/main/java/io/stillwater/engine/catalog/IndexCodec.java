package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a {@code CatalogEntry("index", name, payload)} log record. Layout,
 * version 1: version byte, id (varlong), indexed object id (varlong) and name (string),
 * cluster (string), key count, then each key's SQL text. Version 2 (a unique index)
 * adds one byte after the keys: 1 for unique. Other indexes are still written as
 * version 1, so logs stay readable by older builds unless they hold a unique index.
 */
public final class IndexCodec {
    public static final String KIND = "index";
    private static final int VERSION = 1;
    private static final int VERSION_UNIQUE = 2;

    private IndexCodec() {}

    public static byte[] encode(IndexDef i) {
        BinaryWriter w = new BinaryWriter(64);
        w.writeByte(i.unique() ? VERSION_UNIQUE : VERSION).writeVarLong(i.id()).writeVarLong(i.onId()).writeString(i.onName()).writeString(i.cluster())
                .writeLength(i.keySql().size());
        for (String k : i.keySql()) w.writeString(k);
        if (i.unique()) w.writeByte(1);
        return w.toByteArray();
    }

    public static IndexDef decode(String name, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION && version != VERSION_UNIQUE) throw new CorruptDataException("index " + name + ": unknown payload version " + version);
        long id = r.readVarLong();
        long onId = r.readVarLong();
        String onName = r.readString();
        String cluster = r.readString();
        int n = r.readLength();
        if (n > r.remaining()) throw new CorruptDataException("index " + name + " of " + n + " keys in " + r.remaining() + " bytes");
        List<String> keys = new ArrayList<>(n);
        for (int k = 0; k < n; k++) keys.add(r.readString());
        boolean unique = version == VERSION_UNIQUE && r.readByte() == 1;
        return new IndexDef(id, name, onId, onName, keys, cluster, unique);
    }
}
