package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;
import io.stillwater.engine.storage.RowCodec;
import io.stillwater.engine.types.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a {@code CatalogEntry("view", name, payload)} log record. Layout,
 * version 1: version byte, id (varlong), definition (string), column count, then per
 * column its name and type ({@link RowCodec#writeType}), then the dependency count and
 * names. To change it, add a version and keep decoding version 1.
 */
public final class ViewCodec {
    public static final String KIND = "view";
    private static final int VERSION = 1;

    private ViewCodec() {}

    public static byte[] encode(ViewDef v) {
        BinaryWriter w = new BinaryWriter(64 + v.definition().length());
        w.writeByte(VERSION).writeVarLong(v.id()).writeString(v.definition()).writeLength(v.columnNames().size());
        for (int i = 0; i < v.columnNames().size(); i++) {
            w.writeString(v.columnNames().get(i));
            RowCodec.writeType(w, v.columnTypes().get(i));
        }
        w.writeLength(v.dependsOn().size());
        for (String d : v.dependsOn()) w.writeString(d);
        return w.toByteArray();
    }

    public static ViewDef decode(String name, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION) throw new CorruptDataException("view " + name + ": unknown payload version " + version);
        long id = r.readVarLong();
        String definition = r.readString();
        int n = r.readLength();
        if (n > r.remaining()) throw new CorruptDataException("view " + name + " of " + n + " columns in " + r.remaining() + " bytes");
        List<String> names = new ArrayList<>(n);
        List<SqlType> types = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(r.readString());
            types.add(RowCodec.readType(r));
        }
        int d = r.readLength();
        if (d > r.remaining()) throw new CorruptDataException("view " + name + " of " + d + " dependencies in " + r.remaining() + " bytes");
        List<String> deps = new ArrayList<>(d);
        for (int i = 0; i < d; i++) deps.add(r.readString());
        return new ViewDef(id, name, names, types, definition, deps);
    }
}
