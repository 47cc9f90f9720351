package io.stillwater.engine.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** parse(format(x)) == x for every kind, exactly (same Java class, same numeric scale). */
class DatumTextPropertiesTest {

    private static void roundTrips(SqlType type, Object value) {
        String text = DatumText.format(type, value);
        Object back = DatumText.parse(type, text);
        assertThat(back).as("%s as %s", value, text).isEqualTo(value);
        assertThat(back.getClass()).isEqualTo(value.getClass());
    }

    @Property
    void booleans(@ForAll boolean v) { roundTrips(SqlType.BOOLEAN, v); }

    @Property
    void smallints(@ForAll short v) { roundTrips(SqlType.SMALLINT, v); }

    @Property
    void integers(@ForAll int v) { roundTrips(SqlType.INTEGER, v); }

    @Property
    void bigints(@ForAll long v) { roundTrips(SqlType.BIGINT, v); }

    @Property
    void doubles(@ForAll double v) {
        String text = DatumText.format(SqlType.DOUBLE, v);
        double back = (Double) DatumText.parse(SqlType.DOUBLE, text);
        // Bitwise equality: NaN equals NaN and -0 stays -0.
        assertThat(Double.doubleToLongBits(back)).as(text).isEqualTo(Double.doubleToLongBits(v));
        assertThat(text).doesNotContain("E");
    }

    @Property
    void reals(@ForAll float v) {
        String text = DatumText.format(SqlType.REAL, v);
        float back = (Float) DatumText.parse(SqlType.REAL, text);
        assertThat(Float.floatToIntBits(back)).as(text).isEqualTo(Float.floatToIntBits(v));
    }

    @Provide
    Arbitrary<BigDecimal> numerics() {
        Arbitrary<BigInteger> unscaled = Arbitraries.bigIntegers().between(
                BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40));
        return Combinators.combine(unscaled, Arbitraries.integers().between(0, 30)).as(BigDecimal::new);
    }

    @Property
    void numericsKeepTheirScale(@ForAll("numerics") BigDecimal v) {
        roundTrips(SqlType.NUMERIC, v);
        assertThat(((BigDecimal) DatumText.parse(SqlType.NUMERIC, DatumText.format(SqlType.NUMERIC, v))).scale())
                .isEqualTo(v.scale());
    }

    @Property
    void texts(@ForAll String v) { roundTrips(SqlType.TEXT, v); }

    @Provide
    Arbitrary<LocalDate> dates() {
        return Arbitraries.longs().between(LocalDate.of(-4712, 1, 1).toEpochDay(), LocalDate.of(99999, 12, 31).toEpochDay())
                .map(LocalDate::ofEpochDay);
    }

    @Property
    void dates(@ForAll("dates") LocalDate v) { roundTrips(SqlType.DATE, v); }

    @Provide
    Arbitrary<LocalTime> times() {
        return Arbitraries.longs().between(0, Interval.MICROS_PER_DAY - 1).map(us -> LocalTime.ofNanoOfDay(us * 1000));
    }

    @Property
    void times(@ForAll("times") LocalTime v) { roundTrips(SqlType.TIME, v); }

    @Property
    void timestamps(@ForAll("dates") LocalDate d, @ForAll("times") LocalTime t) {
        roundTrips(SqlType.TIMESTAMP, LocalDateTime.of(d, t));
    }

    @Provide
    Arbitrary<ZoneId> zones() {
        return Arbitraries.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
                "America/St_Johns").map(ZoneId::of);
    }

    @Property
    void timestamptzsInAnySessionZone(@ForAll("dates") LocalDate d, @ForAll("times") LocalTime t, @ForAll("zones") ZoneId zone) {
        Instant v = LocalDateTime.of(d.getYear() < 1900 ? d.withYear(1900 + Math.floorMod(d.getYear(), 200)) : d, t)
                .toInstant(ZoneOffset.UTC);
        String text = DatumText.format(SqlType.TIMESTAMPTZ, v, zone);
        assertThat(DatumText.parse(SqlType.TIMESTAMPTZ, text, ZoneId.of("UTC"))).as(text).isEqualTo(v);
    }

    @Provide
    Arbitrary<Interval> intervals() {
        return Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), Arbitraries.longs())
                .as(Interval::new);
    }

    @Property
    void intervalsKeepEveryField(@ForAll("intervals") Interval v) {
        String text = DatumText.format(SqlType.INTERVAL, v);
        Interval back = (Interval) DatumText.parse(SqlType.INTERVAL, text);
        assertThat(new long[] {back.months(), back.days(), back.micros()}).as(text)
                .containsExactly(v.months(), v.days(), v.micros());
    }

    @Property
    void byteas(@ForAll byte[] v) { roundTrips(SqlType.BYTEA, ByteString.copyOf(v)); }
}
