package io.stillwater.engine.params;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.CorruptDataException;

/**
 * The durable form of an {@code ALTER SYSTEM} override: a {@code CatalogEntry(KIND,
 * name, payload)} log record sets it, a {@code CatalogRemoval(KIND, name)} removes it
 * (RESET). Payload, version 1: version byte, then the value's canonical text (a string),
 * so a parameter whose type changes later still has its setting in a readable form.
 */
public final class SystemParameterCodec {
    public static final String KIND = "system_parameter";
    private static final int VERSION = 1;

    private SystemParameterCodec() {}

    public static byte[] encode(String text) {
        return new BinaryWriter(8 + text.length()).writeByte(VERSION).writeString(text).toByteArray();
    }

    public static String decode(String name, byte[] payload) {
        BinaryReader r = new BinaryReader(payload);
        int version = r.readByte();
        if (version != VERSION) {
            throw new CorruptDataException("system parameter " + name + ": unknown payload version " + version);
        }
        return r.readString();
    }
}
