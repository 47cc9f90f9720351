package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The payload of a {@code CatalogEntry("acl", key, payload)} log record, {@code key} a
 * {@link SecurityCatalog#relationKey} or {@link SecurityCatalog#clusterKey}: the object's
 * owner and grants. Layout, version 1: version byte, owner (string), grantee count, then
 * per grantee its name (string) and privileges as aclitem letters (string). To change
 * it, add a version and keep decoding version 1.
 */
public final class ObjectAclCodec {
    public static final String KIND = "acl";
    private static final int VERSION = 1;

    private ObjectAclCodec() {}

    public static byte[] encode(ObjectAcl acl) {
        BinaryWriter w = new BinaryWriter(32).writeByte(VERSION).writeString(acl.owner()).writeLength(acl.grants().size());
        acl.grants().forEach((grantee, ps) -> w.writeString(grantee).writeString(Privilege.letters(ps)));
        return w.toByteArray();
    }

    public static ObjectAcl decode(String key, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION) throw new CorruptDataException("acl " + key + ": unknown payload version " + version);
        String owner = r.readString();
        int n = r.readLength();
        if (n > r.remaining()) throw new CorruptDataException("acl " + key + " of " + n + " grantees in " + r.remaining() + " bytes");
        Map<String, Set<Privilege>> grants = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String grantee = r.readString();
            EnumSet<Privilege> ps = EnumSet.noneOf(Privilege.class);
            for (char ch : r.readString().toCharArray()) {
                Privilege p = null;
                for (Privilege c : Privilege.values()) if (c.letter() == ch) p = c;
                if (p == null) throw new CorruptDataException("acl " + key + ": unknown privilege letter " + ch);
                ps.add(p);
            }
            grants.put(grantee, ps);
        }
        return new ObjectAcl(owner, grants);
    }
}
