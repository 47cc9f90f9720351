package io.stillwater.pgwire.types;

import java.time.ZoneOffset;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.ByteString;
import io.stillwater.engine.types.Interval;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class PgBinaryCodecTest {
    private static String hex(SqlType type, Object value) {
        return HexFormat.of().formatHex(PgBinaryCodec.encode(type, value));
    }

    private static Object decodeHex(SqlType type, String hex) {
        return PgBinaryCodec.decode(type, HexFormat.of().parseHex(hex));
    }

    // ---- known layouts (as PostgreSQL's *send functions produce them) ----

    @Test
    void numericLayouts() {
        // ndigits, weight, sign, dscale, base-10000 digits
        assertThat(hex(SqlType.NUMERIC, new BigDecimal("12345.678"))).isEqualTo("0003" + "0001" + "0000" + "0003" + "0001" + "0929" + "1a7c");
        assertThat(hex(SqlType.NUMERIC, new BigDecimal("-0.0001"))).isEqualTo("0001" + "ffff" + "4000" + "0004" + "0001");
        assertThat(hex(SqlType.NUMERIC, new BigDecimal("0.00"))).isEqualTo("0000" + "0000" + "0000" + "0002");
        assertThat(hex(SqlType.NUMERIC, new BigDecimal("1E+5"))).isEqualTo("0001" + "0001" + "0000" + "0000" + "000a");
        assertThat(hex(SqlType.NUMERIC, new BigDecimal("0.00005"))).isEqualTo("0001" + "fffe" + "0000" + "0005" + "1388");
        assertThat(hex(SqlType.NUMERIC, Double.NaN)).isEqualTo("0000" + "0000" + "c000" + "0000");
        assertThat(decodeHex(SqlType.NUMERIC, "0003000100000003000109291a7c")).isEqualTo(new BigDecimal("12345.678"));
        assertThat(decodeHex(SqlType.NUMERIC, "0000000000000002")).isEqualTo(new BigDecimal("0.00"));
    }

    @Test
    void numericNaNCannotBeCarriedByTheEngine() {
        assertThatThrownBy(() -> decodeHex(SqlType.NUMERIC, "00000000c0000000"))
                .isInstanceOf(SqlException.class).hasMessageContaining("NaN")
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("0A000"));
    }

    @Test
    void temporalLayoutsCountFromTheYear2000() {
        assertThat(hex(SqlType.DATE, LocalDate.of(2000, 1, 2))).isEqualTo("00000001");
        assertThat(hex(SqlType.DATE, LocalDate.of(1999, 12, 31))).isEqualTo("ffffffff");
        assertThat(hex(SqlType.TIME, LocalTime.of(0, 0, 1))).isEqualTo("00000000000f4240");
        assertThat(hex(SqlType.TIMESTAMP, LocalDateTime.of(2000, 1, 1, 0, 0, 1))).isEqualTo("00000000000f4240");
        assertThat(hex(SqlType.TIMESTAMPTZ, Instant.parse("1999-12-31T23:59:59.999999Z"))).isEqualTo("ffffffffffffffff");
        assertThat(hex(SqlType.INTERVAL, new Interval(1, 2, 3))).isEqualTo("0000000000000003" + "00000002" + "00000001");
        assertThat(decodeHex(SqlType.TIME, "000000141dd76000")).isEqualTo(LocalTime.MAX.withNano(999_999_000));
    }

    @Test
    void scalarLayouts() {
        assertThat(hex(SqlType.BOOLEAN, true)).isEqualTo("01");
        assertThat(hex(SqlType.SMALLINT, (short) -2)).isEqualTo("fffe");
        assertThat(hex(SqlType.INTEGER, 258)).isEqualTo("00000102");
        assertThat(hex(SqlType.BIGINT, 1L)).isEqualTo("0000000000000001");
        assertThat(hex(SqlType.REAL, 1.0f)).isEqualTo("3f800000");
        assertThat(hex(SqlType.DOUBLE, -2.0)).isEqualTo("c000000000000000");
        assertThat(hex(SqlType.TEXT, "é")).isEqualTo("c3a9");
        assertThat(hex(SqlType.BYTEA, ByteString.copyOf(new byte[] {0, (byte) 0xff}))).isEqualTo("00ff");
    }

    @Test
    void integersAcceptOtherWidthsWithARangeCheck() {
        assertThat(decodeHex(SqlType.BIGINT, "00000102")).isEqualTo(258L);
        assertThat(decodeHex(SqlType.SMALLINT, "00000102")).isEqualTo((short) 258);
        assertThat(decodeHex(SqlType.DOUBLE, "3f800000")).isEqualTo(1.0);
        assertThatThrownBy(() -> decodeHex(SqlType.SMALLINT, "00010000"))
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("22003"));
        assertThatThrownBy(() -> decodeHex(SqlType.INTEGER, "000102"))
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("22P03"));
    }

    @Test
    void malformedInputIsInvalidBinaryRepresentation() {
        assertThatThrownBy(() -> decodeHex(SqlType.DATE, "0001"))
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("22P03"));
        assertThatThrownBy(() -> decodeHex(SqlType.NUMERIC, "0002000000000000" + "0001"))
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("22P03"));
        assertThatThrownBy(() -> decodeHex(SqlType.NUMERIC, "0001000000000000" + "2710"))
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("22P03"));
        assertThatThrownBy(() -> decodeHex(SqlType.TEXT, "c3"))
                .satisfies(e -> assertThat(((SqlException) e).state().code()).isEqualTo("22P03"));
    }

    // ---- round trips ----

    private static Object roundTrip(SqlType type, Object value) {
        return PgBinaryCodec.decode(type, PgBinaryCodec.encode(type, value));
    }

    @Property
    void fixedWidthScalarsRoundTrip(@ForAll boolean b, @ForAll short s, @ForAll int i, @ForAll long l,
                                    @ForAll float f, @ForAll double d) {
        assertThat(roundTrip(SqlType.BOOLEAN, b)).isEqualTo(b);
        assertThat(roundTrip(SqlType.SMALLINT, s)).isEqualTo(s);
        assertThat(roundTrip(SqlType.INTEGER, i)).isEqualTo(i);
        assertThat(roundTrip(SqlType.BIGINT, l)).isEqualTo(l);
        assertThat(roundTrip(SqlType.REAL, f)).isEqualTo(f);
        assertThat(roundTrip(SqlType.DOUBLE, d)).isEqualTo(d);
    }

    @Property(tries = 2000)
    void numericRoundTripsKeepingValueAndNonNegativeScale(@ForAll("numerics") BigDecimal v) {
        BigDecimal back = (BigDecimal) roundTrip(SqlType.NUMERIC, v);
        assertThat(back.compareTo(v)).isZero();
        assertThat(back.scale()).isEqualTo(Math.max(v.scale(), 0));
    }

    @Provide
    Arbitrary<BigDecimal> numerics() {
        Arbitrary<BigInteger> unscaled = Arbitraries.bigIntegers()
                .between(BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40)).edgeCases(c -> c.add(BigInteger.ZERO));
        Arbitrary<Integer> scale = Arbitraries.integers().between(-12, 40);
        return Combinators.combine(unscaled, scale).as(BigDecimal::new);
    }

    @Property
    void textRoundTrips(@ForAll("unicode") String s) {
        assertThat(roundTrip(SqlType.TEXT, s)).isEqualTo(s);
        assertThat(roundTrip(SqlType.varchar(10), s)).isEqualTo(s);
    }

    @Provide
    Arbitrary<String> unicode() {
        return Arbitraries.integers().between(1, 0x10FFFF)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
                .list().ofMaxSize(20)
                .map(cps -> cps.stream().collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString());
    }

    @Property
    void byteaRoundTrips(@ForAll byte[] bytes) {
        assertThat(roundTrip(SqlType.BYTEA, ByteString.copyOf(bytes))).isEqualTo(ByteString.copyOf(bytes));
    }

    @Property
    void temporalsRoundTrip(@ForAll @IntRange(min = -719_162, max = 2_932_896) int epochDay,
                            @ForAll("microsOfDay") long microsOfDay) {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        LocalTime time = LocalTime.ofNanoOfDay(microsOfDay * 1000);
        LocalDateTime ts = LocalDateTime.of(date, time);
        Instant instant = ts.toInstant(ZoneOffset.UTC);
        assertThat(roundTrip(SqlType.DATE, date)).isEqualTo(date);
        assertThat(roundTrip(SqlType.TIME, time)).isEqualTo(time);
        assertThat(roundTrip(SqlType.TIMESTAMP, ts)).isEqualTo(ts);
        assertThat(roundTrip(SqlType.TIMESTAMPTZ, instant)).isEqualTo(instant);
    }

    @Provide
    Arbitrary<Long> microsOfDay() { return Arbitraries.longs().between(0, 86_400_000_000L - 1); }

    @Property
    void intervalsRoundTripFieldByField(@ForAll int months, @ForAll int days, @ForAll long micros) {
        Interval back = (Interval) roundTrip(SqlType.INTERVAL, new Interval(months, days, micros));
        assertThat(back.months()).isEqualTo(months);
        assertThat(back.days()).isEqualTo(days);
        assertThat(back.micros()).isEqualTo(micros);
    }
}
