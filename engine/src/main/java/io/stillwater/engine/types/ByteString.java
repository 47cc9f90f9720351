package io.stillwater.engine.types;

import java.util.Arrays;
import java.util.HexFormat;

/** An immutable byte string, the value of a {@code bytea} datum. Orders like memcmp (unsigned bytes). */
public final class ByteString implements Comparable<ByteString> {
    private final byte[] bytes;

    private ByteString(byte[] bytes) { this.bytes = bytes; }

    /** Copies {@code bytes}; the caller may reuse its array. */
    public static ByteString copyOf(byte[] bytes) { return new ByteString(bytes.clone()); }

    /** Takes ownership of {@code bytes}: the caller must not modify the array afterwards. */
    public static ByteString wrap(byte[] bytes) { return new ByteString(bytes); }

    public int length() { return bytes.length; }

    public byte byteAt(int i) { return bytes[i]; }

    /** A copy of the bytes. */
    public byte[] toByteArray() { return bytes.clone(); }

    @Override
    public int compareTo(ByteString o) { return Arrays.compareUnsigned(bytes, o.bytes); }

    @Override
    public boolean equals(Object o) { return o instanceof ByteString b && Arrays.equals(bytes, b.bytes); }

    @Override
    public int hashCode() { return Arrays.hashCode(bytes); }

    /** PostgreSQL's hex output format: {@code \x0102ff}. */
    @Override
    public String toString() { return "\\x" + HexFormat.of().formatHex(bytes); }
}
