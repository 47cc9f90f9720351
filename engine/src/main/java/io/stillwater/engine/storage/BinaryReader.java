package io.stillwater.engine.storage;

/**
 * Reads what {@link BinaryWriter} wrote, from a byte array. Every read is bounds-checked:
 * running past the end or meeting a malformed varint or string throws {@link
 * CorruptDataException} rather than returning garbage. Not thread-safe.
 */
public final class BinaryReader {
    private final byte[] buf;
    private final int end;
    private int pos;

    public BinaryReader(byte[] buf) { this(buf, 0, buf.length); }

    public BinaryReader(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    public int position() { return pos; }

    public int remaining() { return end - pos; }

    public boolean hasRemaining() { return pos < end; }

    private void need(int n) {
        if (n < 0 || end - pos < n) {
            throw new CorruptDataException("record ends early: need " + n + " bytes at offset " + pos + ", have " + (end - pos));
        }
    }

    public int readByte() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    public boolean readBoolean() {
        int b = readByte();
        if (b > 1) throw new CorruptDataException("invalid boolean byte " + b + " at offset " + (pos - 1));
        return b == 1;
    }

    public int readInt() {
        need(4);
        int v = ((buf[pos] & 0xFF) << 24) | ((buf[pos + 1] & 0xFF) << 16) | ((buf[pos + 2] & 0xFF) << 8) | (buf[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    public long readLong() {
        long hi = readInt() & 0xFFFFFFFFL;
        long lo = readInt() & 0xFFFFFFFFL;
        return (hi << 32) | lo;
    }

    public long readUnsignedVarLong() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw new CorruptDataException("varint longer than 10 bytes at offset " + pos);
    }

    public long readVarLong() {
        long u = readUnsignedVarLong();
        return (u >>> 1) ^ -(u & 1);
    }

    /** A signed varint that must fit an int. */
    public int readVarInt() {
        long v = readVarLong();
        if (v != (int) v) throw new CorruptDataException("value " + v + " out of int range at offset " + pos);
        return (int) v;
    }

    public int readLength() {
        long n = readUnsignedVarLong();
        if (n < 0 || n > Integer.MAX_VALUE) throw new CorruptDataException("invalid length " + n + " at offset " + pos);
        return (int) n;
    }

    public byte[] readBytes(int n) {
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(buf, pos, out, 0, n);
        pos += n;
        return out;
    }

    public byte[] readByteArray() { return readBytes(readLength()); }

    /** A string written by {@link BinaryWriter#writeString}. */
    public String readString() {
        int n = readLength();
        need(n);
        int stop = pos + n;
        char[] out = new char[n]; // never more chars than bytes
        int len = 0;
        int p = pos;
        while (p < stop) {
            int b = buf[p] & 0xFF;
            if (b < 0x80) {
                out[len++] = (char) b;
                p++;
            } else if ((b & 0xE0) == 0xC0) {
                if (stop - p < 2) throw badString(p);
                out[len++] = (char) (((b & 0x1F) << 6) | cont(p + 1));
                p += 2;
            } else if ((b & 0xF0) == 0xE0) {
                if (stop - p < 3) throw badString(p);
                out[len++] = (char) (((b & 0x0F) << 12) | (cont(p + 1) << 6) | cont(p + 2));
                p += 3;
            } else if ((b & 0xF8) == 0xF0) {
                if (stop - p < 4) throw badString(p);
                int cp = ((b & 0x07) << 18) | (cont(p + 1) << 12) | (cont(p + 2) << 6) | cont(p + 3);
                if (cp < 0x10000 || cp > Character.MAX_CODE_POINT) throw badString(p);
                out[len++] = Character.highSurrogate(cp);
                out[len++] = Character.lowSurrogate(cp);
                p += 4;
            } else {
                throw badString(p);
            }
        }
        pos = stop;
        return new String(out, 0, len);
    }

    private int cont(int p) {
        int b = buf[p] & 0xFF;
        if ((b & 0xC0) != 0x80) throw badString(p);
        return b & 0x3F;
    }

    private CorruptDataException badString(int p) {
        return new CorruptDataException("malformed string byte at offset " + p);
    }
}
