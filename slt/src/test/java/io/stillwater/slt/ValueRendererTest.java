package io.stillwater.slt;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import static io.stillwater.slt.ColumnType.BOOL;
import static io.stillwater.slt.ColumnType.INTEGER;
import static io.stillwater.slt.ColumnType.OID;
import static io.stillwater.slt.ColumnType.REAL;
import static io.stillwater.slt.ColumnType.TEXT;
import static io.stillwater.slt.Mode.COCKROACH;
import static io.stillwater.slt.Mode.STANDARD;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ValueRendererTest {
    private static String r(Object v, ColumnType t) {
        return ValueRenderer.render(v, t, STANDARD);
    }

    @Test
    void nullIsNullForEveryType() {
        for (ColumnType t : ColumnType.values()) {
            assertThat(r(null, t)).isEqualTo("NULL");
            assertThat(ValueRenderer.render(null, t, COCKROACH)).isEqualTo("NULL");
        }
    }

    @Test
    void integerColumn() {
        assertThat(r(42L, INTEGER)).isEqualTo("42");
        assertThat(r(-9223372036854775808L, INTEGER)).isEqualTo("-9223372036854775808");
        // floats truncate toward zero (sqlite3_column_int; Materialize's `as i64`)
        assertThat(r(2.7, INTEGER)).isEqualTo("2");
        assertThat(r(-2.7, INTEGER)).isEqualTo("-2");
        assertThat(r(Double.NaN, INTEGER)).isEqualTo("0");
        // numerics truncate in standard mode (the SQLite corpus computed them as doubles), round in cockroach mode
        assertThat(r(new BigDecimal("2.5"), INTEGER)).isEqualTo("2");
        assertThat(r(new BigDecimal("-2.9"), INTEGER)).isEqualTo("-2");
        assertThat(ValueRenderer.render(new BigDecimal("2.5"), INTEGER, COCKROACH)).isEqualTo("3");
        assertThat(ValueRenderer.render(new BigDecimal("-2.5"), INTEGER, COCKROACH)).isEqualTo("-3");
        assertThat(r(true, INTEGER)).isEqualTo("1");
        assertThat(r(false, INTEGER)).isEqualTo("0");
        // text: SQLite's leading-integer conversion
        assertThat(r("12abc", INTEGER)).isEqualTo("12");
        assertThat(r("  -7", INTEGER)).isEqualTo("-7");
        assertThat(r("abc", INTEGER)).isEqualTo("0");
        assertThat(r("1.9e1x", INTEGER)).isEqualTo("19");
        assertThat(r(7L, OID)).isEqualTo("7");
    }

    @Test
    void realColumnStandardModeIsPercentPoint3f() {
        assertThat(r(5L, REAL)).isEqualTo("5.000");
        assertThat(r(-5L, REAL)).isEqualTo("-5.000");
        assertThat(r(0.125, REAL)).isEqualTo("0.125");
        assertThat(r(2.0625, REAL)).isEqualTo("2.062"); // exact tie: half to even, like printf
        assertThat(r(1.0005, REAL)).isEqualTo("1.000"); // the double is 1.000499999...
        assertThat(r(0.0005, REAL)).isEqualTo("0.001"); // the double is 0.000500000...01
        assertThat(r(-0.0, REAL)).isEqualTo("-0.000");
        assertThat(r(-0.0001, REAL)).isEqualTo("-0.000");
        assertThat(r(1e20, REAL)).isEqualTo("100000000000000000000.000");
        assertThat(r(Double.NaN, REAL)).isEqualTo("NaN");
        assertThat(r(Double.POSITIVE_INFINITY, REAL)).isEqualTo("inf");
        assertThat(r(Double.NEGATIVE_INFINITY, REAL)).isEqualTo("-inf");
        assertThat(r(new BigDecimal("2.5"), REAL)).isEqualTo("2.500");
        assertThat(r(new BigDecimal("33.3333333333333333"), REAL)).isEqualTo("33.333");
        assertThat(r("3.25xyz", REAL)).isEqualTo("3.250");
        assertThat(r(true, REAL)).isEqualTo("1.000");
    }

    @Test
    void realColumnCockroachModeKeepsExactDigits() {
        assertThat(ValueRenderer.render(1.5, REAL, COCKROACH)).isEqualTo("1.5");
        assertThat(ValueRenderer.render(2.0, REAL, COCKROACH)).isEqualTo("2");
        assertThat(ValueRenderer.render(0.1, REAL, COCKROACH)).isEqualTo("0.1");
        assertThat(ValueRenderer.render(1e21, REAL, COCKROACH)).isEqualTo("1000000000000000000000");
        assertThat(ValueRenderer.render(-0.0, REAL, COCKROACH)).isEqualTo("-0");
        assertThat(ValueRenderer.render(new BigDecimal("1.50"), REAL, COCKROACH)).isEqualTo("1.50");
        assertThat(ValueRenderer.render(3L, REAL, COCKROACH)).isEqualTo("3");
    }

    @Test
    void textColumn() {
        assertThat(r("", TEXT)).isEqualTo("(empty)");
        assertThat(r("a\tb\u0001c\u007f", TEXT)).isEqualTo("a@b@c@");
        assertThat(r("héllo ☃", TEXT)).isEqualTo("héllo ☃");
        assertThat(ValueRenderer.render("a\tb", TEXT, COCKROACH)).isEqualTo("a\tb");
        assertThat(ValueRenderer.render("a\nb", TEXT, STANDARD, true)).isEqualTo("a\nb");
        assertThat(r(true, TEXT)).isEqualTo("true");
        assertThat(r(0.5, TEXT)).isEqualTo("0.500");
        assertThat(r(new BigDecimal("1.50"), TEXT)).isEqualTo("1.50");
        assertThat(r(12L, TEXT)).isEqualTo("12");
    }

    @Test
    void boolColumn() {
        assertThat(r(true, BOOL)).isEqualTo("true");
        assertThat(r(false, BOOL)).isEqualTo("false");
        assertThat(r(0L, BOOL)).isEqualTo("false");
        assertThat(r("t", BOOL)).isEqualTo("true");
    }

    @Test
    void jdbcTextIsConvertedByColumnType() {
        assertThat(JdbcResults.convert("t", "bool")).isEqualTo(Boolean.TRUE);
        assertThat(JdbcResults.convert("-12", "int8")).isEqualTo(-12L);
        assertThat(JdbcResults.convert("1.50", "numeric")).isEqualTo(new BigDecimal("1.50"));
        assertThat(JdbcResults.convert("NaN", "numeric")).isEqualTo(Double.NaN);
        assertThat(JdbcResults.convert("-Infinity", "float8")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(JdbcResults.convert("0.1", "float4")).isEqualTo(0.1);
        assertThat(JdbcResults.convert("pg_class", "regclass")).isEqualTo("pg_class");
        assertThat(JdbcResults.convert("2024-01-02", "date")).isEqualTo("2024-01-02");
        assertThat(JdbcResults.convert(null, "int4")).isNull();
    }

    @Test
    void hashIsMd5OfEachValueFollowedByNewline() {
        assertThat(ResultHasher.md5(List.of())).isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
        assertThat(ResultHasher.md5(List.of("1", "2"))).isEqualTo("6ddb4095eb719e2a9f0a3f95677d24e0");
        assertThat(ResultHasher.md5(List.of("é", "NULL"))).isEqualTo("bce19112cacd97d60ebdaa0a030ea5b1");
    }

    @Test
    void sortModes() {
        List<List<String>> rows = List.of(List.of("9", "b"), List.of("10", "a"), List.of("10", "0"));
        assertThat(ResultSorter.sort(rows, SortMode.NOSORT)).containsExactly("9", "b", "10", "a", "10", "0");
        assertThat(ResultSorter.sort(rows, SortMode.ROWSORT)).containsExactly("10", "0", "10", "a", "9", "b");
        assertThat(ResultSorter.sort(rows, SortMode.VALUESORT)).containsExactly("0", "10", "10", "9", "a", "b");
    }

    @Test
    void sortIsByCodePointLikeStrcmpOnUtf8() {
        // U+1F600 is above U+FFFF although its UTF-16 surrogate sorts below it
        List<List<String>> rows = List.of(List.of("\uD83D\uDE00"), List.of("\uFFFF"));
        assertThat(ResultSorter.sort(rows, SortMode.ROWSORT)).containsExactly("\uFFFF", "\uD83D\uDE00");
    }

    @Property
    void codePointOrderEqualsUtf8ByteOrder(@ForAll String a, @ForAll String b) {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        // unpaired surrogates do not survive UTF-8 encoding; compare only well-formed strings
        if (!new String(x, StandardCharsets.UTF_8).equals(a)
                || !new String(y, StandardCharsets.UTF_8).equals(b)) {
            return;
        }
        assertThat(Integer.signum(ResultSorter.compareCodePoints(a, b)))
                .isEqualTo(Integer.signum(Arrays.compareUnsigned(x, y)));
    }

    @Property
    void fixed3AgreesWithExactDecimalRounding(@ForAll double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return;
        }
        String s = ValueRenderer.fixed3(d);
        BigDecimal parsed = new BigDecimal(s);
        assertThat(parsed.scale()).isEqualTo(3);
        // within half a unit of the last place of the exact binary value
        assertThat(parsed.subtract(new BigDecimal(d)).abs()).isLessThanOrEqualTo(new BigDecimal("0.0005"));
    }
}
