package io.stillwater.engine.storage;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.Jsonb;
import io.stillwater.engine.types.JsonbText;
import io.stillwater.engine.types.PgArray;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * The binary encoding of rows, datums and column types ({@link SqlType}) in durable
 * records. It knows no catalog types: schemas reach it as lists of types.
 *
 * <p>Every datum starts with a tag byte naming its Java class, so decoding needs no
 * schema and a row decodes to exactly the values that were encoded: same classes, same
 * BigDecimal scale, same interval fields, same float bits (NaN payloads and -0.0
 * included), same string chars (unpaired surrogates included). Integers, dates and
 * times are zig-zag varints, so small values take one or two bytes.
 *
 * <p>The tag and type codes below are part of the on-disk format: never renumber them,
 * only add new ones.
 */
public final class RowCodec {
    private RowCodec() {}

    // Datum tags (on-disk format).
    static final int NULL = 0;
    static final int FALSE = 1;
    static final int TRUE = 2;
    static final int SMALLINT = 3;
    static final int INTEGER = 4;
    static final int BIGINT = 5;
    static final int REAL = 6;
    static final int DOUBLE = 7;
    static final int NUMERIC = 8;
    static final int STRING = 9;
    static final int DATE = 10;
    static final int TIME = 11;
    static final int TIMESTAMP = 12;
    static final int TIMESTAMPTZ = 13;
    static final int INTERVAL = 14;
    static final int BYTEA = 15;
    static final int ARRAY = 16;
    static final int JSONB = 17;

    /** A row as a standalone byte array. */
    public static byte[] encode(Row row) {
        BinaryWriter w = new BinaryWriter(16 + row.arity() * 8);
        writeRow(w, row);
        return w.toByteArray();
    }

    /** The row {@link #encode} encoded; the whole array must be one row. */
    public static Row decode(byte[] bytes) {
        BinaryReader r = new BinaryReader(bytes);
        Row row = readRow(r);
        if (r.hasRemaining()) throw new CorruptDataException(r.remaining() + " bytes after the end of a row");
        return row;
    }

    public static void writeRow(BinaryWriter w, Row row) {
        int n = row.arity();
        w.writeLength(n);
        for (int i = 0; i < n; i++) writeDatum(w, row.get(i));
    }

    public static Row readRow(BinaryReader r) {
        int n = r.readLength();
        if (n > r.remaining()) throw new CorruptDataException("row of " + n + " columns in " + r.remaining() + " bytes");
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) values[i] = readDatum(r);
        return Row.wrap(values);
    }

    /**
     * One datum: {@code null} (SQL NULL) or a value of one of the classes listed in
     * {@link TypeKind}. Any other class is an engine bug and throws IllegalArgumentException.
     */
    public static void writeDatum(BinaryWriter w, Object v) {
        switch (v) {
            case null -> w.writeByte(NULL);
            case Boolean b -> w.writeByte(b ? TRUE : FALSE);
            case Short s -> w.writeByte(SMALLINT).writeVarLong(s);
            case Integer i -> w.writeByte(INTEGER).writeVarLong(i);
            case Long l -> w.writeByte(BIGINT).writeVarLong(l);
            case Float f -> w.writeByte(REAL).writeInt(Float.floatToRawIntBits(f));
            case Double d -> w.writeByte(DOUBLE).writeLong(Double.doubleToRawLongBits(d));
            case BigDecimal d -> w.writeByte(NUMERIC).writeVarLong(d.scale()).writeByteArray(d.unscaledValue().toByteArray());
            case String s -> w.writeByte(STRING).writeString(s);
            case LocalDate d -> w.writeByte(DATE).writeVarLong(d.toEpochDay());
            case LocalTime t -> w.writeByte(TIME).writeVarLong(t.toNanoOfDay());
            case LocalDateTime t -> w.writeByte(TIMESTAMP).writeVarLong(t.toEpochSecond(ZoneOffset.UTC)).writeVarLong(t.getNano());
            case Instant t -> w.writeByte(TIMESTAMPTZ).writeVarLong(t.getEpochSecond()).writeVarLong(t.getNano());
            case Interval i -> w.writeByte(INTERVAL).writeVarLong(i.months()).writeVarLong(i.days()).writeVarLong(i.micros());
            case ByteString b -> w.writeByte(BYTEA).writeByteArray(b.toByteArray());
            case Jsonb j -> w.writeByte(JSONB).writeString(JsonbText.format(j));
            case PgArray a -> {
                w.writeByte(ARRAY).writeLength(a.size());
                for (int i = 0; i < a.size(); i++) writeDatum(w, a.get(i));
            }
            default -> throw new IllegalArgumentException("a datum of class " + v.getClass().getName() + " cannot be stored");
        }
    }

    public static Object readDatum(BinaryReader r) {
        int tag = r.readByte();
        try {
            return switch (tag) {
                case NULL -> null;
                case FALSE -> Boolean.FALSE;
                case TRUE -> Boolean.TRUE;
                case SMALLINT -> {
                    int v = r.readVarInt();
                    if (v != (short) v) throw new CorruptDataException("smallint out of range: " + v);
                    yield (short) v;
                }
                case INTEGER -> r.readVarInt();
                case BIGINT -> r.readVarLong();
                case REAL -> Float.intBitsToFloat(r.readInt());
                case DOUBLE -> Double.longBitsToDouble(r.readLong());
                case NUMERIC -> {
                    int scale = r.readVarInt();
                    byte[] unscaled = r.readByteArray();
                    if (unscaled.length == 0) throw new CorruptDataException("numeric without digits");
                    yield new BigDecimal(new BigInteger(unscaled), scale);
                }
                case STRING -> r.readString();
                case DATE -> LocalDate.ofEpochDay(r.readVarLong());
                case TIME -> LocalTime.ofNanoOfDay(r.readVarLong());
                case TIMESTAMP -> LocalDateTime.ofEpochSecond(r.readVarLong(), r.readVarInt(), ZoneOffset.UTC);
                case TIMESTAMPTZ -> Instant.ofEpochSecond(r.readVarLong(), r.readVarInt());
                case INTERVAL -> new Interval(r.readVarInt(), r.readVarInt(), r.readVarLong());
                case BYTEA -> ByteString.wrap(r.readByteArray());
                case JSONB -> JsonbText.parse(r.readString());
                case ARRAY -> {
                    int n = r.readLength();
                    if (n > r.remaining()) throw new CorruptDataException("array of " + n + " elements in " + r.remaining() + " bytes");
                    Object[] elements = new Object[n];
                    for (int i = 0; i < n; i++) elements[i] = readDatum(r);
                    yield PgArray.of(elements);
                }
                default -> throw new CorruptDataException("unknown datum tag " + tag + " at offset " + (r.position() - 1));
            };
        } catch (DateTimeException e) {
            throw new CorruptDataException("invalid temporal value: " + e.getMessage());
        }
    }

    // ---- column types ----

    /** The on-disk code of a type kind (stable, unlike the enum's ordinal). */
    static int kindCode(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> 1;
            case SMALLINT -> 2;
            case INTEGER -> 3;
            case BIGINT -> 4;
            case REAL -> 5;
            case DOUBLE -> 6;
            case NUMERIC -> 7;
            case TEXT -> 8;
            case VARCHAR -> 9;
            case CHAR -> 10;
            case DATE -> 11;
            case TIME -> 12;
            case TIMESTAMP -> 13;
            case TIMESTAMPTZ -> 14;
            case INTERVAL -> 15;
            case BYTEA -> 16;
            case UNKNOWN -> 17;
            case ARRAY -> 18;
            case JSONB -> 19;
        };
    }

    static TypeKind kindOf(int code) {
        for (TypeKind k : TypeKind.values()) if (kindCode(k) == code) return k;
        throw new CorruptDataException("unknown type code " + code);
    }

    /** A type: kind code, precision, scale; an array's element type follows its own three. */
    public static void writeType(BinaryWriter w, SqlType t) {
        w.writeByte(kindCode(t.kind())).writeVarLong(t.precision()).writeVarLong(t.scale());
        if (t.isArray()) writeType(w, t.element());
    }

    public static SqlType readType(BinaryReader r) {
        TypeKind kind = kindOf(r.readByte());
        int precision = r.readVarInt();
        int scale = r.readVarInt();
        if (kind != TypeKind.ARRAY) return new SqlType(kind, precision, scale);
        SqlType element = readType(r);
        if (element.isArray()) throw new CorruptDataException("array of array type");
        return SqlType.arrayOf(element);
    }
}
