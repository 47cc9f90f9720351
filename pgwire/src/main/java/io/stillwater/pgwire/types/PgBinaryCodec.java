package io.stillwater.pgwire.types;

import java.time.DateTimeException;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.PgArray;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * PostgreSQL's binary wire format ({@code typsend}/{@code typreceive}) for every
 * {@link TypeKind}, in both directions. Values are the Java classes {@link TypeKind}
 * names. Dates and timestamps count from PostgreSQL's epoch, 2000-01-01; timestamps and
 * times are in microseconds (integer_datetimes on).
 *
 * <p>Decoding checks the byte length exactly as PostgreSQL does, except that integer
 * and float kinds also accept the other widths of their family (a client that declared
 * int4 for a parameter the engine typed as int8), narrowing with a range check.
 */
public final class PgBinaryCodec {
    private PgBinaryCodec() {}

    /** PostgreSQL's epoch for dates and timestamps. */
    public static final LocalDate PG_EPOCH_DATE = LocalDate.of(2000, 1, 1);
    public static final LocalDateTime PG_EPOCH = PG_EPOCH_DATE.atStartOfDay();
    public static final Instant PG_EPOCH_INSTANT = PG_EPOCH.toInstant(ZoneOffset.UTC);

    static final short NUMERIC_POS = 0x0000;
    static final short NUMERIC_NEG = 0x4000;
    static final short NUMERIC_NAN = (short) 0xC000;
    static final short NUMERIC_PINF = (short) 0xD000;
    static final short NUMERIC_NINF = (short) 0xF000;

    /** The binary form of {@code value} (not null) of {@code type}. */
    public static byte[] encode(SqlType type, Object value) {
        return switch (type.kind()) {
            case BOOLEAN -> new byte[] {(byte) (((Boolean) value) ? 1 : 0)};
            case SMALLINT -> ByteBuffer.allocate(2).putShort(((Number) value).shortValue()).array();
            case INTEGER -> ByteBuffer.allocate(4).putInt(((Number) value).intValue()).array();
            case BIGINT -> ByteBuffer.allocate(8).putLong(((Number) value).longValue()).array();
            case REAL -> ByteBuffer.allocate(4).putFloat(((Number) value).floatValue()).array();
            case DOUBLE -> ByteBuffer.allocate(8).putDouble(((Number) value).doubleValue()).array();
            case NUMERIC -> encodeNumeric(value);
            case TEXT, VARCHAR, CHAR, UNKNOWN -> value.toString().getBytes(StandardCharsets.UTF_8);
            case DATE -> ByteBuffer.allocate(4).putInt(Math.toIntExact(
                    ChronoUnit.DAYS.between(PG_EPOCH_DATE, (LocalDate) value))).array();
            case TIME -> ByteBuffer.allocate(8).putLong(((LocalTime) value).toNanoOfDay() / 1000).array();
            case TIMESTAMP -> ByteBuffer.allocate(8).putLong(
                    micros(Duration.between(PG_EPOCH, (LocalDateTime) value))).array();
            case TIMESTAMPTZ -> ByteBuffer.allocate(8).putLong(
                    micros(Duration.between(PG_EPOCH_INSTANT, (Instant) value))).array();
            case INTERVAL -> {
                Interval i = (Interval) value;
                yield ByteBuffer.allocate(16).putLong(i.micros()).putInt(i.days()).putInt(i.months()).array();
            }
            case BYTEA -> ((ByteString) value).toByteArray();
            case ARRAY -> PgArrayBinary.encode(type.element(), (PgArray) value);
            case JSONB -> PgJsonbBinary.encode(value);
        };
    }

    /**
     * Decodes the binary form {@code bytes} of a value of {@code type}; malformed input is
     * error 22P03 (invalid_binary_representation).
     */
    public static Object decode(SqlType type, byte[] bytes) {
        try {
            return decodeChecked(type, bytes);
        } catch (ArithmeticException | DateTimeException e) {
            throw new SqlException(SqlState.DATETIME_FIELD_OVERFLOW, type.kind().pgName() + " out of range");
        }
    }

    private static Object decodeChecked(SqlType type, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return switch (type.kind()) {
            case BOOLEAN -> {
                expectLength(type, bytes, 1);
                yield bytes[0] != 0;
            }
            case SMALLINT -> {
                long v = readInteger(type, bytes);
                if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) throw outOfRange(type);
                yield (short) v;
            }
            case INTEGER -> {
                long v = readInteger(type, bytes);
                if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw outOfRange(type);
                yield (int) v;
            }
            case BIGINT -> readInteger(type, bytes);
            case REAL -> bytes.length == 8 ? (float) b.getDouble() : lengthChecked(type, bytes, 4, b).getFloat();
            case DOUBLE -> bytes.length == 4 ? (double) b.getFloat() : lengthChecked(type, bytes, 8, b).getDouble();
            case NUMERIC -> decodeNumeric(type, b);
            case TEXT, VARCHAR, CHAR, UNKNOWN -> utf8(bytes);
            case DATE -> PG_EPOCH_DATE.plusDays(lengthChecked(type, bytes, 4, b).getInt());
            case TIME -> {
                long micros = lengthChecked(type, bytes, 8, b).getLong();
                if (micros < 0 || micros > 86_400_000_000L) {
                    throw new SqlException(SqlState.INVALID_BINARY_REPRESENTATION, "time out of range");
                }
                // 24:00:00 is valid in PostgreSQL but not in LocalTime; clamp to the last microsecond.
                yield micros == 86_400_000_000L ? LocalTime.MAX.truncatedTo(ChronoUnit.MICROS)
                        : LocalTime.ofNanoOfDay(micros * 1000);
            }
            case TIMESTAMP -> PG_EPOCH.plus(lengthChecked(type, bytes, 8, b).getLong(), ChronoUnit.MICROS);
            case TIMESTAMPTZ -> PG_EPOCH_INSTANT.plus(lengthChecked(type, bytes, 8, b).getLong(), ChronoUnit.MICROS);
            case INTERVAL -> {
                lengthChecked(type, bytes, 16, b);
                long micros = b.getLong();
                int days = b.getInt();
                int months = b.getInt();
                yield new Interval(months, days, micros);
            }
            case BYTEA -> ByteString.copyOf(bytes);
            case ARRAY -> PgArrayBinary.decode(type.element(), bytes);
            case JSONB -> PgJsonbBinary.decode(bytes);
        };
    }

    private static long micros(Duration d) {
        return Math.addExact(Math.multiplyExact(d.getSeconds(), 1_000_000L), d.getNano() / 1000);
    }

    private static long readInteger(SqlType type, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return switch (bytes.length) {
            case 2 -> b.getShort();
            case 4 -> b.getInt();
            case 8 -> b.getLong();
            default -> throw badLength(type, bytes.length);
        };
    }

    private static ByteBuffer lengthChecked(SqlType type, byte[] bytes, int expected, ByteBuffer b) {
        expectLength(type, bytes, expected);
        return b;
    }

    private static void expectLength(SqlType type, byte[] bytes, int expected) {
        if (bytes.length != expected) throw badLength(type, bytes.length);
    }

    private static SqlException badLength(SqlType type, int length) {
        return new SqlException(SqlState.INVALID_BINARY_REPRESENTATION,
                "incorrect binary data format: " + length + " bytes is not a valid " + type.kind().pgName());
    }

    private static SqlException outOfRange(SqlType type) {
        return new SqlException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type.kind().pgName() + " out of range");
    }

    static String utf8Text(byte[] bytes) { return utf8(bytes); }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SqlException(SqlState.INVALID_BINARY_REPRESENTATION, "invalid byte sequence for encoding \"UTF8\"");
        }
    }

    // ---- numeric: int16 ndigits, int16 weight, int16 sign, int16 dscale, ndigits x int16 base-10000 digits ----

    /**
     * Encodes a BigDecimal, or a Double NaN/±Infinity (the special numeric values, which
     * BigDecimal cannot carry), in PostgreSQL's numeric_send layout.
     */
    static byte[] encodeNumeric(Object value) {
        if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
            short sign = d.isNaN() ? NUMERIC_NAN : d > 0 ? NUMERIC_PINF : NUMERIC_NINF;
            return ByteBuffer.allocate(8).putShort((short) 0).putShort((short) 0).putShort(sign).putShort((short) 0).array();
        }
        BigDecimal v = value instanceof BigDecimal bd ? bd : new BigDecimal(value.toString());
        short sign = v.signum() < 0 ? NUMERIC_NEG : NUMERIC_POS;
        BigDecimal abs = v.abs();
        int scale = abs.scale();
        BigInteger unscaled = abs.unscaledValue();
        if (scale < 0) {
            unscaled = unscaled.multiply(BigInteger.TEN.pow(-scale));
            scale = 0;
        }
        String digits = unscaled.signum() == 0 ? "" : unscaled.toString();
        int intLen = digits.length() - scale; // decimal digits before the point; may be <= 0
        String intPart = intLen > 0 ? digits.substring(0, intLen) : "";
        String fracPart = intLen >= 0 ? digits.substring(intLen) : "0".repeat(-intLen) + digits;
        intPart = "0".repeat((4 - intPart.length() % 4) % 4) + intPart;
        fracPart = fracPart + "0".repeat((4 - fracPart.length() % 4) % 4);
        String all = intPart + fracPart;
        int groups = all.length() / 4;
        int weight = intPart.length() / 4 - 1;
        int first = 0;
        while (first < groups && all.startsWith("0000", first * 4)) { first++; weight--; }
        int last = groups;
        while (last > first && all.startsWith("0000", (last - 1) * 4)) last--;
        int ndigits = last - first;
        if (ndigits == 0) { weight = 0; sign = NUMERIC_POS; }
        ByteBuffer out = ByteBuffer.allocate(8 + 2 * ndigits);
        out.putShort((short) ndigits).putShort((short) weight).putShort(sign).putShort((short) scale);
        for (int g = first; g < last; g++) out.putShort(Short.parseShort(all.substring(g * 4, g * 4 + 4)));
        return out.array();
    }

    private static BigDecimal decodeNumeric(SqlType type, ByteBuffer b) {
        if (b.remaining() < 8) throw badLength(type, b.remaining());
        int ndigits = b.getShort() & 0xFFFF;
        int weight = b.getShort();
        short sign = b.getShort();
        int dscale = b.getShort() & 0xFFFF;
        if (sign == NUMERIC_NAN || sign == NUMERIC_PINF || sign == NUMERIC_NINF) {
            throw new SqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "numeric " + (sign == NUMERIC_NAN ? "NaN" : "Infinity") + " values are not supported");
        }
        if ((sign != NUMERIC_POS && sign != NUMERIC_NEG) || dscale > 0x3FFF || b.remaining() != 2 * ndigits) {
            throw new SqlException(SqlState.INVALID_BINARY_REPRESENTATION, "invalid numeric in binary format");
        }
        BigInteger unscaled = BigInteger.ZERO;
        BigInteger base = BigInteger.valueOf(10_000);
        for (int i = 0; i < ndigits; i++) {
            short d = b.getShort();
            if (d < 0 || d >= 10_000) {
                throw new SqlException(SqlState.INVALID_BINARY_REPRESENTATION, "invalid digit in external \"numeric\" value");
            }
            unscaled = unscaled.multiply(base).add(BigInteger.valueOf(d));
        }
        // The last digit group has weight (weight - ndigits + 1); its scale in decimal digits is 4x the negation.
        BigDecimal v = new BigDecimal(unscaled, 4 * (ndigits - 1 - weight));
        if (sign == NUMERIC_NEG) v = v.negate();
        // Digits beyond dscale are zero padding in a well-formed value; round anyway so junk cannot throw.
        return v.setScale(dscale, RoundingMode.HALF_UP);
    }
}
