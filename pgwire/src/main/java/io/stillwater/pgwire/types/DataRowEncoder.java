package io.stillwater.pgwire.types;

import io.netty.buffer.ByteBuf;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import io.stillwater.pgwire.protocol.FormatCode;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes DataRow messages of one result shape straight into a {@link ByteBuf}: the same
 * bytes as encoding {@code BackendMessage.DataRow} of {@link PgTypes#encode}d values, without
 * the per-row list and, for the common columns, without a {@code byte[]} per value.
 * Integers are written as ASCII digits (text) or big-endian (binary) in place; text
 * columns go through {@link String#getBytes} (exactly {@link PgTypes#encode}'s bytes, also
 * for unpaired surrogates); every other column is encoded by {@link PgTypes#encode}.
 *
 * <p>Immutable after construction, so one instance may serve a prepared statement's
 * every execution; it is built for the columns' types and the portal's result formats.
 */
public final class DataRowEncoder {
    /** How a column is written: the fast cases, or through {@link PgTypes#encode}. */
    private enum Writer { INT_TEXT, INT_BINARY2, INT_BINARY4, INT_BINARY8, STRING_TEXT, GENERAL }

    private final SqlType[] types;
    private final FormatCode[] formats;
    private final Writer[] writers;

    /**
     * @param types   the result columns' types, in order
     * @param formats the portal's result formats (none: all text; one: all alike; else one per column)
     */
    public DataRowEncoder(List<SqlType> types, List<FormatCode> formats) {
        int n = types.size();
        this.types = new SqlType[n];
        this.formats = new FormatCode[n];
        this.writers = new Writer[n];
        for (int i = 0; i < n; i++) {
            SqlType wire = PgTypes.wireType(types.get(i));
            FormatCode format = FormatCode.of(formats, i);
            this.types[i] = types.get(i);
            this.formats[i] = format;
            this.writers[i] = writerFor(wire.kind(), format);
        }
    }

    private static Writer writerFor(TypeKind kind, FormatCode format) {
        return switch (kind) {
            case SMALLINT -> format == FormatCode.TEXT ? Writer.INT_TEXT : Writer.INT_BINARY2;
            case INTEGER -> format == FormatCode.TEXT ? Writer.INT_TEXT : Writer.INT_BINARY4;
            case BIGINT -> format == FormatCode.TEXT ? Writer.INT_TEXT : Writer.INT_BINARY8;
            case TEXT, VARCHAR, CHAR -> format == FormatCode.TEXT ? Writer.STRING_TEXT : Writer.GENERAL;
            default -> Writer.GENERAL;
        };
    }

    /** The number of columns a row must have. */
    public int arity() { return writers.length; }

    /** Appends the DataRow message of {@code row}'s first {@link #arity()} values to {@code out}. */
    public void encode(Row row, ByteBuf out) {
        out.writeByte('D');
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        out.writeShort(writers.length);
        for (int i = 0; i < writers.length; i++) {
            Object v = row.get(i);
            if (v == null) {
                out.writeInt(-1);
                continue;
            }
            switch (writers[i]) {
                case INT_TEXT -> writeDecimal(((Number) v).longValue(), out);
                case INT_BINARY2 -> out.writeInt(2).writeShort(((Number) v).shortValue());
                case INT_BINARY4 -> out.writeInt(4).writeInt(((Number) v).intValue());
                case INT_BINARY8 -> out.writeInt(8).writeLong(((Number) v).longValue());
                case STRING_TEXT -> writeBytes(v.toString().getBytes(StandardCharsets.UTF_8), out);
                case GENERAL -> writeBytes(PgTypes.encode(types[i], v, formats[i]), out);
            }
        }
        out.setInt(lengthAt, out.writerIndex() - lengthAt);
    }

    private static void writeBytes(byte[] value, ByteBuf out) {
        out.writeInt(value.length);
        out.writeBytes(value);
    }

    /** A length-prefixed value: {@code v} in ASCII decimal, as {@link Long#toString(long)} writes it. */
    static void writeDecimal(long v, ByteBuf out) {
        if (v == Long.MIN_VALUE) { // its magnitude has no positive long
            writeBytes(Long.toString(v).getBytes(StandardCharsets.US_ASCII), out);
            return;
        }
        boolean negative = v < 0;
        long magnitude = negative ? -v : v;
        int digits = 1;
        for (long rest = magnitude / 10; rest != 0; rest /= 10) digits++;
        int length = digits + (negative ? 1 : 0);
        out.writeInt(length);
        out.ensureWritable(length);
        int start = out.writerIndex();
        if (negative) out.setByte(start, '-');
        int at = start + length;
        do {
            out.setByte(--at, (int) ('0' + magnitude % 10));
            magnitude /= 10;
        } while (magnitude != 0);
        out.writerIndex(start + length);
    }
}
