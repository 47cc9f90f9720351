package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;

/**
 * The payload of a {@code CatalogEntry("role", name, payload)} log record (a removal
 * names the role). Layout, version 1: version byte, oid (varlong), attribute bits (1
 * LOGIN, 2 SUPERUSER, 4 CREATEROLE, 8 INHERIT), verifier (string, empty when the role
 * has no password). Logs written before roles existed hold no such record and replay to
 * a catalog with only the built-in {@code mz_system}. To change it, add a version and
 * keep decoding version 1.
 */
public final class RoleCodec {
    public static final String KIND = "role";
    private static final int VERSION = 1;

    private RoleCodec() {}

    public static byte[] encode(RoleDef r) {
        int bits = (r.login() ? 1 : 0) | (r.superuser() ? 2 : 0) | (r.createRole() ? 4 : 0) | (r.inherit() ? 8 : 0);
        return new BinaryWriter(64).writeByte(VERSION).writeVarLong(r.oid()).writeByte(bits)
                .writeString(r.verifier() == null ? "" : r.verifier()).toByteArray();
    }

    public static RoleDef decode(String name, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION) throw new CorruptDataException("role " + name + ": unknown payload version " + version);
        long oid = r.readVarLong();
        int bits = r.readByte();
        String verifier = r.readString();
        return new RoleDef(name, oid, (bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0,
                verifier.isEmpty() ? null : verifier);
    }
}
