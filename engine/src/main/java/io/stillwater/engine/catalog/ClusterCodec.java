package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a {@code CatalogEntry("cluster", id, payload)} log record (a removal
 * names the cluster id). Layout, version 1: version byte, name, managed (byte), size text
 * ("" when unmanaged), replication factor (varlong), replica count, then per replica: id,
 * name, size text, interactive runtime (byte). To change it, add a version and keep
 * decoding version 1.
 */
public final class ClusterCodec {
    public static final String KIND = "cluster";
    private static final int VERSION = 1;

    private ClusterCodec() {}

    public static byte[] encode(ClusterDef c) {
        BinaryWriter w = new BinaryWriter(64);
        w.writeByte(VERSION).writeString(c.name()).writeByte(c.managed() ? 1 : 0)
                .writeString(c.size() == null ? "" : c.size().text()).writeVarLong(c.replicationFactor())
                .writeLength(c.replicas().size());
        for (ReplicaDef r : c.replicas()) {
            w.writeString(r.id()).writeString(r.name()).writeString(r.size().text()).writeByte(r.interactiveRuntime() ? 1 : 0);
        }
        return w.toByteArray();
    }

    public static ClusterDef decode(String id, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION) throw new CorruptDataException("cluster " + id + ": unknown payload version " + version);
        String name = r.readString();
        boolean managed = r.readByte() != 0;
        String size = r.readString();
        int factor = (int) r.readVarLong();
        int n = r.readLength();
        if (n > r.remaining()) throw new CorruptDataException("cluster " + id + " of " + n + " replicas in " + r.remaining() + " bytes");
        List<ReplicaDef> replicas = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String rid = r.readString();
            String rname = r.readString();
            ClusterSize rsize = size(id, r.readString());
            replicas.add(new ReplicaDef(rid, rname, rsize, r.readByte() != 0));
        }
        return new ClusterDef(id, name, managed, managed ? size(id, size) : null, factor, replicas);
    }

    private static ClusterSize size(String id, String text) {
        try {
            return ClusterSize.parse(text);
        } catch (RuntimeException e) {
            throw new CorruptDataException("cluster " + id + ": bad size '" + text + "'");
        }
    }
}
