package io.stillwater.engine.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.storage.BinaryReader;
import io.stillwater.engine.storage.BinaryWriter;
import io.stillwater.engine.storage.RowCodec;
import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Arrays: the text form reads back to the same array (parse(print(x)) == x) for text,
 * integer and numeric elements, NULLs and nested dimensions included; the durable codec
 * round-trips; and the order agrees with equality and hashing (numerics of different
 * scales are equal and hash alike, as {@link Datums} requires of every datum).
 */
class PgArrayPropertiesTest {

    @Provide
    Arbitrary<PgArray> textArrays() {
        Arbitrary<String> element = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(6),
                Arbitraries.of("", "NULL", "null", "a b", "x\"y", "back\\slash", "{}", ",", " lead", "trail "));
        return element.injectNull(0.2).list().ofMaxSize(6).map(PgArray::of);
    }

    @Provide
    Arbitrary<PgArray> integerArrays() {
        return Arbitraries.integers().between(-5, 5).injectNull(0.2).list().ofMaxSize(5).map(PgArray::of);
    }

    /** Two-dimensional arrays of integers: rectangular, non-empty rows. */
    @Provide
    Arbitrary<PgArray> matrices() {
        return Arbitraries.integers().between(1, 3).flatMap(cols ->
                Arbitraries.integers().between(-9, 9).injectNull(0.2).list().ofSize(cols).map(PgArray::of)
                        .list().ofMinSize(1).ofMaxSize(3).map(PgArray::of));
    }

    @Provide
    Arbitrary<PgArray> numericArrays() {
        return Arbitraries.integers().between(-3, 3).flatMap(v -> Arbitraries.integers().between(0, 3)
                .map(scale -> new BigDecimal(v).setScale(scale))).injectNull(0.1).list().ofMaxSize(4).map(PgArray::of);
    }

    private static void roundTrips(SqlType element, PgArray a) {
        String text = ArrayText.format(element, a, ZoneOffset.UTC);
        PgArray back = ArrayText.parse(element, text, ZoneOffset.UTC, null);
        assertThat(back).as(text).isEqualTo(a);
        assertThat(back.elements()).as(text).containsExactlyElementsOf(a.elements());
        assertThat(DatumText.parse(SqlType.arrayOf(element), text)).isEqualTo(a);
    }

    @Property
    void textArraysReadBackFromTheirText(@ForAll("textArrays") PgArray a) { roundTrips(SqlType.TEXT, a); }

    @Property
    void integerArraysReadBackFromTheirText(@ForAll("integerArrays") PgArray a) { roundTrips(SqlType.INTEGER, a); }

    @Property
    void matricesReadBackFromTheirText(@ForAll("matrices") PgArray a) { roundTrips(SqlType.INTEGER, a); }

    @Property
    void numericArraysKeepScalesInText(@ForAll("numericArrays") PgArray a) {
        String text = ArrayText.format(SqlType.NUMERIC, a, ZoneOffset.UTC);
        assertThat(ArrayText.format(SqlType.NUMERIC, ArrayText.parse(SqlType.NUMERIC, text, ZoneOffset.UTC, null),
                ZoneOffset.UTC)).isEqualTo(text);
    }

    @Property
    void durableCodecRoundTrips(@ForAll("textArrays") PgArray a, @ForAll("matrices") PgArray m) {
        for (PgArray x : List.of(a, m)) {
            BinaryWriter w = new BinaryWriter(64);
            RowCodec.writeDatum(w, x);
            Object back = RowCodec.readDatum(new BinaryReader(w.toByteArray()));
            assertThat(back).isEqualTo(x);
        }
    }

    @Property
    void orderAgreesWithEqualsAndHash(@ForAll("numericArrays") PgArray a, @ForAll("numericArrays") PgArray b) {
        int c = Datums.compare(a, b);
        assertThat(c == 0).isEqualTo(a.equals(b));
        assertThat(Integer.signum(Datums.compare(b, a))).isEqualTo(-Integer.signum(c));
        if (c == 0) assertThat(Datums.hash(a)).isEqualTo(Datums.hash(b));
        // Rescaling every element keeps the array equal and its hash.
        List<Object> rescaled = new ArrayList<>();
        for (Object e : a.elements()) rescaled.add(e == null ? null : ((BigDecimal) e).setScale(5));
        PgArray r = PgArray.of(rescaled);
        assertThat(r).isEqualTo(a);
        assertThat(Datums.hash(r)).isEqualTo(Datums.hash(a));
    }

    @Property
    void nullElementsSortLast(@ForAll("integerArrays") PgArray a) {
        List<Object> withNull = new ArrayList<>(a.elements());
        withNull.add(null);
        List<Object> withValue = new ArrayList<>(a.elements());
        withValue.add(Integer.MAX_VALUE);
        assertThat(Datums.compare(PgArray.of(withNull), PgArray.of(withValue))).isPositive();
        assertThat(Datums.compare(a, PgArray.of(withValue))).isNegative(); // a prefix sorts first
    }
}
