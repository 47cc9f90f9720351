package io.stillwater.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class RowCodecTest {

    // ---- the reference model: a decoded datum must be the encoded one exactly ----

    /** Stricter than Row.equals (SQL equality): same class, same scale, same interval fields, same bits. */
    static void assertSameDatum(Object decoded, Object original) {
        if (original == null) {
            assertThat(decoded).isNull();
            return;
        }
        assertThat(decoded).isNotNull();
        assertThat(decoded.getClass()).isEqualTo(original.getClass());
        switch (original) {
            case Float f -> assertThat(Float.floatToRawIntBits((Float) decoded)).isEqualTo(Float.floatToRawIntBits(f));
            case Double d -> assertThat(Double.doubleToRawLongBits((Double) decoded)).isEqualTo(Double.doubleToRawLongBits(d));
            case BigDecimal d -> {
                assertThat(((BigDecimal) decoded).scale()).isEqualTo(d.scale());
                assertThat(((BigDecimal) decoded).unscaledValue()).isEqualTo(d.unscaledValue());
            }
            case Interval i -> {
                Interval j = (Interval) decoded;
                assertThat(List.of(j.months(), j.days(), j.micros())).isEqualTo(List.of(i.months(), i.days(), i.micros()));
            }
            case String s -> assertThat(((String) decoded).toCharArray()).isEqualTo(s.toCharArray());
            default -> assertThat(decoded).isEqualTo(original);
        }
    }

    static void assertSameRow(Row decoded, Row original) {
        assertThat(decoded.arity()).isEqualTo(original.arity());
        for (int i = 0; i < original.arity(); i++) assertSameDatum(decoded.get(i), original.get(i));
    }

    // ---- generators ----

    @Provide
    static Arbitrary<Object> datums() {
        Arbitrary<Float> floats = Arbitraries.oneOf(Arbitraries.floats(),
                Arbitraries.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, Float.MIN_VALUE, Float.MAX_VALUE,
                        Float.intBitsToFloat(0x7fc00001)));
        Arbitrary<Double> doubles = Arbitraries.oneOf(Arbitraries.doubles(),
                Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE, Double.MAX_VALUE));
        Arbitrary<BigDecimal> numerics = Combinators.combine(
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(60).negate(), BigInteger.TEN.pow(60)),
                Arbitraries.integers().between(-40, 1000)).as(BigDecimal::new);
        Arbitrary<String> strings = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40), // every char, unpaired surrogates included
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.of("", "\u0000", "é", "日本語", "😀🎉", "a\uD800b", "\uDC00", "\uDBFF\uDFFF"));
        Arbitrary<LocalDate> dates = Arbitraries.longs().between(LocalDate.MIN.toEpochDay(), LocalDate.MAX.toEpochDay())
                .map(LocalDate::ofEpochDay);
        Arbitrary<LocalTime> times = Arbitraries.longs().between(0, LocalTime.MAX.toNanoOfDay()).map(LocalTime::ofNanoOfDay);
        Arbitrary<LocalDateTime> timestamps = Combinators.combine(dates, times).as(LocalDateTime::of);
        Arbitrary<Instant> instants = Combinators.combine(
                Arbitraries.longs().between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
                Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
        Arbitrary<Interval> intervals = Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), Arbitraries.longs())
                .as(Interval::new);
        Arbitrary<ByteString> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(ByteString::wrap);
        return Arbitraries.oneOf(
                Arbitraries.just(null),
                Arbitraries.of(true, false),
                Arbitraries.shorts(), Arbitraries.integers(), Arbitraries.longs(),
                floats, doubles, numerics, strings, dates, times, timestamps, instants, intervals, bytes,
                Arbitraries.of(LocalDate.MIN, LocalDate.MAX, LocalTime.MIN, LocalTime.MAX, LocalDateTime.MIN, LocalDateTime.MAX,
                        Instant.MIN, Instant.MAX, Instant.EPOCH, new Interval(-1, -1, -1),
                        new Interval(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE),
                        new Interval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE),
                        new BigDecimal("-0.000"), new BigDecimal("1E+300"), new BigDecimal("-12345678901234567890.123456789"),
                        ByteString.wrap(new byte[0])));
    }

    @Provide
    static Arbitrary<Row> rows() {
        return datums().list().ofMaxSize(20).map(Row::of);
    }

    @Provide
    static Arbitrary<SqlType> types() {
        return Combinators.combine(Arbitraries.of(TypeKind.class), Arbitraries.integers().between(-1, 1000),
                Arbitraries.integers().between(-1, 1000)).as((k, p, s) -> k == TypeKind.ARRAY
                        ? SqlType.arrayOf(new SqlType(TypeKind.NUMERIC, p, s)) // an array type carries its element's modifiers
                        : new SqlType(k, p, s));
    }

    // ---- properties ----

    @Property(tries = 2000)
    void rowsRoundTripExactly(@ForAll("rows") Row row) {
        assertSameRow(RowCodec.decode(RowCodec.encode(row)), row);
    }

    @Property
    void concatenatedRowsDecodeInSequence(@ForAll("rows") Row a, @ForAll("rows") Row b) {
        BinaryWriter w = new BinaryWriter();
        RowCodec.writeRow(w, a);
        RowCodec.writeRow(w, b);
        BinaryReader r = new BinaryReader(w.toByteArray());
        assertSameRow(RowCodec.readRow(r), a);
        assertSameRow(RowCodec.readRow(r), b);
        assertThat(r.hasRemaining()).isFalse();
    }

    @Property(tries = 200)
    void truncatedEncodingsNeverDecodeToARow(@ForAll("rows") Row row) {
        byte[] full = RowCodec.encode(row);
        for (int cut = 0; cut < full.length; cut++) {
            byte[] prefix = Arrays.copyOf(full, cut);
            assertThatThrownBy(() -> RowCodec.decode(prefix)).isInstanceOf(CorruptDataException.class);
        }
    }

    // ---- examples ----

    @Test
    void everyTypeKindHasADistinctStableCode() {
        assertThat(Arrays.stream(TypeKind.values()).map(RowCodec::kindCode).distinct().count()).isEqualTo(TypeKind.values().length);
        for (TypeKind k : TypeKind.values()) assertThat(RowCodec.kindOf(RowCodec.kindCode(k))).isEqualTo(k);
        // The codes are on disk: pin a few so a reordering of the enum cannot change them.
        assertThat(RowCodec.kindCode(TypeKind.BOOLEAN)).isEqualTo(1);
        assertThat(RowCodec.kindCode(TypeKind.NUMERIC)).isEqualTo(7);
        assertThat(RowCodec.kindCode(TypeKind.BYTEA)).isEqualTo(16);
    }

    @Test
    void smallValuesAreCompact() {
        // arity 3 (1 byte) + NULL (1) + integer 5 (tag + 1) + "ab" (tag + length + 2)
        assertThat(RowCodec.encode(Row.of(null, 5, "ab"))).hasSize(1 + 1 + 2 + 4);
        assertThat(RowCodec.encode(Row.of(-1L))).hasSize(3);
    }

    @Test
    void unknownTagsAndForeignClassesAreRejected() {
        assertThatThrownBy(() -> RowCodec.decode(new byte[] {1, 99})).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("unknown datum tag 99");
        assertThatThrownBy(() -> RowCodec.encode(Row.of(new StringBuilder("x")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("StringBuilder");
        assertThatThrownBy(() -> RowCodec.decode(new byte[] {1, (byte) RowCodec.STRING, 2, (byte) 0xC3, 0x41}))
                .isInstanceOf(CorruptDataException.class);
    }
}
