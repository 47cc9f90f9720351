package io.stillwater.engine.storage;

import java.util.Arrays;

/**
 * A growable byte buffer with the primitive encodings storage records are built from:
 * fixed-width big-endian integers, LEB128 varints (zig-zag for signed values) and
 * strings in WTF-8 (UTF-8 that also carries unpaired surrogates, so every Java string
 * round-trips exactly). Not thread-safe: one writer builds one record.
 */
public final class BinaryWriter {
    private byte[] buf;
    private int size;

    public BinaryWriter() { this(64); }

    public BinaryWriter(int capacity) { buf = new byte[Math.max(capacity, 8)]; }

    /** Bytes written so far. */
    public int size() { return size; }

    /** A copy of the bytes written so far. */
    public byte[] toByteArray() { return Arrays.copyOf(buf, size); }

    private void ensure(int extra) {
        int need = size + extra;
        if (need < 0) throw new IllegalStateException("record larger than 2 GiB");
        if (need > buf.length) buf = Arrays.copyOf(buf, Math.max(need, (int) Math.min(Integer.MAX_VALUE - 8L, buf.length * 2L)));
    }

    public BinaryWriter writeByte(int b) {
        ensure(1);
        buf[size++] = (byte) b;
        return this;
    }

    public BinaryWriter writeBoolean(boolean b) { return writeByte(b ? 1 : 0); }

    /** Four bytes, big-endian. */
    public BinaryWriter writeInt(int v) {
        ensure(4);
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
        return this;
    }

    /** Eight bytes, big-endian. */
    public BinaryWriter writeLong(long v) {
        writeInt((int) (v >>> 32));
        return writeInt((int) v);
    }

    /** An unsigned LEB128 varint: 1 byte below 128, at most 10 bytes. */
    public BinaryWriter writeUnsignedVarLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
        return this;
    }

    /** A signed varint, zig-zag encoded so small negative numbers stay short. */
    public BinaryWriter writeVarLong(long v) { return writeUnsignedVarLong((v << 1) ^ (v >> 63)); }

    /** A length or count: a non-negative int as an unsigned varint. */
    public BinaryWriter writeLength(int n) {
        if (n < 0) throw new IllegalArgumentException("negative length " + n);
        return writeUnsignedVarLong(n);
    }

    public BinaryWriter writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
        return this;
    }

    /** A length-prefixed byte array. */
    public BinaryWriter writeByteArray(byte[] b) {
        writeLength(b.length);
        return writeBytes(b, 0, b.length);
    }

    /**
     * A length-prefixed string in WTF-8: surrogate pairs become 4-byte sequences, an
     * unpaired surrogate its own 3-byte sequence (which strict UTF-8 would replace). The
     * prefix is the encoded byte length.
     */
    public BinaryWriter writeString(String s) {
        int n = s.length();
        int bytes = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) bytes += 1;
            else if (c < 0x800) bytes += 2;
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else bytes += 3;
        }
        writeLength(bytes);
        ensure(bytes);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                buf[size++] = (byte) c;
            } else if (c < 0x800) {
                buf[size++] = (byte) (0xC0 | (c >> 6));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf[size++] = (byte) (0xF0 | (cp >> 18));
                buf[size++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[size++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                buf[size++] = (byte) (0xE0 | (c >> 12));
                buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return this;
    }
}
