package io.stillwater.engine.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Expected values are PostgreSQL 15's for {@code select '<in>'::<from>::<to>}. */
class CastsTest {

    private static String castText(SqlType from, String in, SqlType to) {
        Object v = DatumText.parse(from, in);
        Object r = Casts.cast(v, from, to);
        return DatumText.format(to, r);
    }

    static Stream<Arguments> explicitCasts() {
        return Stream.of(
                Arguments.of(SqlType.DOUBLE, "2.5", SqlType.INTEGER, "2"),
                Arguments.of(SqlType.DOUBLE, "3.5", SqlType.INTEGER, "4"),
                Arguments.of(SqlType.DOUBLE, "-2.5", SqlType.BIGINT, "-2"),
                Arguments.of(SqlType.REAL, "2.5", SqlType.INTEGER, "2"),
                Arguments.of(SqlType.NUMERIC, "2.5", SqlType.INTEGER, "3"),
                Arguments.of(SqlType.NUMERIC, "-2.5", SqlType.INTEGER, "-3"),
                Arguments.of(SqlType.NUMERIC, "123.456", SqlType.numeric(5, 2), "123.46"),
                Arguments.of(SqlType.NUMERIC, "1.5", SqlType.numeric(2, 1), "1.5"),
                Arguments.of(SqlType.NUMERIC, "1.005", SqlType.numeric(5, 2), "1.01"),
                Arguments.of(SqlType.NUMERIC, "12.5", SqlType.TEXT, "12.5"),
                Arguments.of(SqlType.DOUBLE, "1.5", SqlType.TEXT, "1.5"),
                Arguments.of(SqlType.DOUBLE, "1e20", SqlType.TEXT, "1e+20"),
                Arguments.of(SqlType.DOUBLE, "0.1", SqlType.NUMERIC, "0.1"),
                Arguments.of(SqlType.DOUBLE, "1e20", SqlType.NUMERIC, "100000000000000000000"),
                Arguments.of(SqlType.DOUBLE, "1e-5", SqlType.NUMERIC, "0.00001"),
                Arguments.of(SqlType.DOUBLE, "123456789.123", SqlType.NUMERIC, "123456789.123"),
                Arguments.of(SqlType.DOUBLE, "0.3333333333333333", SqlType.NUMERIC, "0.333333333333333"),
                Arguments.of(SqlType.REAL, "1.5", SqlType.NUMERIC, "1.5"),
                Arguments.of(SqlType.REAL, "0.33333334", SqlType.NUMERIC, "0.333333"),
                Arguments.of(SqlType.REAL, "0.1", SqlType.DOUBLE, "0.10000000149011612"),
                Arguments.of(SqlType.SMALLINT, "127", SqlType.REAL, "127"),
                Arguments.of(SqlType.BOOLEAN, "t", SqlType.INTEGER, "1"),
                Arguments.of(SqlType.INTEGER, "5", SqlType.BOOLEAN, "t"),
                Arguments.of(SqlType.INTEGER, "0", SqlType.BOOLEAN, "f"),
                Arguments.of(SqlType.BOOLEAN, "t", SqlType.TEXT, "true"),
                Arguments.of(SqlType.TEXT, "abc", SqlType.varchar(2), "ab"),
                Arguments.of(SqlType.TEXT, "ab   ", SqlType.varchar(3), "ab "),
                Arguments.of(SqlType.TEXT, "ab", SqlType.character(4), "ab  "),
                Arguments.of(SqlType.character(5), "abc  ", SqlType.TEXT, "abc"),
                Arguments.of(SqlType.INTEGER, "12", SqlType.character(5), "12   "),
                Arguments.of(SqlType.TEXT, " 42 ", SqlType.INTEGER, "42"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31 13:04:05", SqlType.DATE, "2024-01-31"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31 13:04:05", SqlType.TIME, "13:04:05"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31 13:04:05", SqlType.TIMESTAMPTZ, "2024-01-31 13:04:05+00"),
                Arguments.of(SqlType.TIMESTAMPTZ, "2024-01-31 13:04:05+02", SqlType.TIMESTAMP, "2024-01-31 11:04:05"),
                Arguments.of(SqlType.DATE, "2024-01-31", SqlType.TIMESTAMP, "2024-01-31 00:00:00"),
                Arguments.of(SqlType.INTERVAL, "25:00:01", SqlType.TIME, "01:00:01"),
                Arguments.of(SqlType.TIME, "01:02:03", SqlType.INTERVAL, "01:02:03"),
                Arguments.of(SqlType.INTERVAL, "1 day 2 hours", SqlType.TEXT, "1 day 02:00:00"),
                Arguments.of(SqlType.TEXT, "2 hours", SqlType.INTERVAL, "02:00:00"),
                Arguments.of(SqlType.BYTEA, "\\x0102", SqlType.TEXT, "\\x0102"),
                Arguments.of(SqlType.TEXT, "\\x0102", SqlType.BYTEA, "\\x0102"));
    }

    @ParameterizedTest(name = "''{1}''::{0}::{2} = {3}")
    @MethodSource("explicitCasts")
    void explicitCastsMatchPostgres(SqlType from, String in, SqlType to, String out) {
        assertThat(castText(from, in, to)).isEqualTo(out);
    }

    static Stream<Arguments> castErrors() {
        return Stream.of(
                Arguments.of(SqlType.DOUBLE, "1e20", SqlType.INTEGER, SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range"),
                Arguments.of(SqlType.DOUBLE, "NaN", SqlType.BIGINT, SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range"),
                Arguments.of(SqlType.NUMERIC, "32767.5", SqlType.SMALLINT, SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range"),
                Arguments.of(SqlType.BIGINT, "2147483648", SqlType.INTEGER, SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range"),
                Arguments.of(SqlType.NUMERIC, "999.995", SqlType.numeric(5, 2), SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow"),
                Arguments.of(SqlType.DOUBLE, "1e300", SqlType.REAL, SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow"),
                Arguments.of(SqlType.TEXT, "abc", SqlType.INTEGER, SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"abc\""),
                Arguments.of(SqlType.BIGINT, "1", SqlType.BOOLEAN, SqlState.CANNOT_COERCE, "cannot cast type bigint to boolean"),
                Arguments.of(SqlType.DATE, "2024-01-01", SqlType.INTEGER, SqlState.CANNOT_COERCE, "cannot cast type date to integer"));
    }

    @ParameterizedTest(name = "''{1}''::{0}::{2} fails: {4}")
    @MethodSource("castErrors")
    void castErrorsMatchPostgres(SqlType from, String in, SqlType to, SqlState state, String message) {
        Object v = DatumText.parse(from, in);
        assertThatThrownBy(() -> Casts.cast(v, from, to)).isInstanceOfSatisfying(SqlException.class, e -> {
            assertThat(e.state()).isEqualTo(state);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

    @Test
    void numericOverflowExplainsTheLimit() {
        assertThatThrownBy(() -> Casts.cast(new BigDecimal("999.995"), SqlType.NUMERIC, SqlType.numeric(5, 2)))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.detail())
                        .isEqualTo("A field with precision 5, scale 2 must round to an absolute value less than 10^3."));
    }

    @Test
    void nullCastsToNull() {
        assertThat(Casts.cast(null, SqlType.TEXT, SqlType.INTEGER)).isNull();
        assertThat(Casts.assign(null, SqlType.INTEGER, SqlType.BIGINT)).isNull();
    }

    @Test
    void assignmentRejectsTooLongStringsButDropsTrailingSpaces() {
        assertThatThrownBy(() -> Casts.assign("abcdef", SqlType.UNKNOWN, SqlType.varchar(5)))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.STRING_DATA_RIGHT_TRUNCATION);
                    assertThat(e.getMessage()).isEqualTo("value too long for type character varying(5)");
                });
        assertThatThrownBy(() -> Casts.assign("abcd", SqlType.TEXT, SqlType.character(3)))
                .hasMessage("value too long for type character(3)");
        assertThat(Casts.assign("abc  ", SqlType.UNKNOWN, SqlType.varchar(5))).isEqualTo("abc  ");
        assertThat(Casts.assign("abc    ", SqlType.TEXT, SqlType.varchar(5))).isEqualTo("abc  ");
        assertThat(Casts.assign("ab  ", SqlType.UNKNOWN, SqlType.character(3))).isEqualTo("ab ");
        assertThat(Casts.assign("a", SqlType.TEXT, SqlType.character(3))).isEqualTo("a  ");
    }

    @Test
    void assignmentRoundsToTheColumnAndChecksRanges() {
        assertThat(Casts.assign(new BigDecimal("1.005"), SqlType.NUMERIC, SqlType.numeric(5, 2))).isEqualTo(new BigDecimal("1.01"));
        assertThat(Casts.assign(new BigDecimal("1.5"), SqlType.NUMERIC, SqlType.INTEGER)).isEqualTo(2);
        assertThat(Casts.assign(2.5, SqlType.DOUBLE, SqlType.INTEGER)).isEqualTo(2);
        assertThat(Casts.assign(7, SqlType.INTEGER, SqlType.BIGINT)).isEqualTo(7L);
        assertThat(Casts.assign(12, SqlType.INTEGER, SqlType.TEXT)).isEqualTo("12");
        assertThat(Casts.assign("12", SqlType.UNKNOWN, SqlType.INTEGER)).isEqualTo(12);
        assertThatThrownBy(() -> Casts.assign(3_000_000_000L, SqlType.BIGINT, SqlType.INTEGER))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.NUMERIC_VALUE_OUT_OF_RANGE));
    }

    @Test
    void assignmentFromTextToANumberIsATypeMismatch() {
        assertThatThrownBy(() -> Casts.assign("12", SqlType.TEXT, SqlType.INTEGER))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.DATATYPE_MISMATCH);
                    assertThat(e.getMessage()).isEqualTo("column is of type integer but expression is of type text");
                    assertThat(e.hint()).isEqualTo("You will need to rewrite or cast the expression.");
                });
        assertThatThrownBy(() -> Casts.assign(1, SqlType.INTEGER, SqlType.BOOLEAN))
                .isInstanceOfSatisfying(SqlException.class, e -> assertThat(e.state()).isEqualTo(SqlState.DATATYPE_MISMATCH));
        assertThat(Casts.assignable(TypeKind.TIMESTAMP, TypeKind.DATE)).isTrue();
        assertThat(Casts.assignable(TypeKind.TEXT, TypeKind.BYTEA)).isFalse();
    }

    // ----------------------------------------------------------------- properties

    @Property
    void integersSurviveNumericAndTextRoundTrips(@ForAll long v) {
        Object n = Casts.cast(v, SqlType.BIGINT, SqlType.NUMERIC);
        assertThat(Casts.cast(n, SqlType.NUMERIC, SqlType.BIGINT)).isEqualTo(v);
        Object t = Casts.cast(v, SqlType.BIGINT, SqlType.TEXT);
        assertThat(Casts.cast(t, SqlType.TEXT, SqlType.BIGINT)).isEqualTo(v);
    }

    @Property
    void bigintToIntegerFailsExactlyWhenOutOfRange(@ForAll long v) {
        boolean fits = v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
        if (fits) {
            assertThat(Casts.cast(v, SqlType.BIGINT, SqlType.INTEGER)).isEqualTo((int) v);
        } else {
            assertThatThrownBy(() -> Casts.cast(v, SqlType.BIGINT, SqlType.INTEGER)).hasMessage("integer out of range");
        }
    }

    @Provide
    Arbitrary<BigDecimal> numerics() {
        return Combinators.combine(
                Arbitraries.bigIntegers().between(BigInteger.TEN.pow(30).negate(), BigInteger.TEN.pow(30)),
                Arbitraries.integers().between(0, 12)).as(BigDecimal::new);
    }

    @Property
    void numericTextRoundTripKeepsScale(@ForAll("numerics") BigDecimal v) {
        Object t = Casts.cast(v, SqlType.NUMERIC, SqlType.TEXT);
        assertThat(Casts.cast(t, SqlType.TEXT, SqlType.NUMERIC)).isEqualTo(v);
    }

    @Property
    void numericTypmodRoundsHalfAwayFromZero(@ForAll("numerics") BigDecimal v) {
        BigDecimal r = (BigDecimal) Casts.cast(v, SqlType.NUMERIC, SqlType.numeric(50, 2));
        assertThat(r.scale()).isEqualTo(2);
        assertThat(r.subtract(v).abs()).isLessThanOrEqualTo(new BigDecimal("0.005"));
        assertThat(r).isEqualTo(v.setScale(2, RoundingMode.HALF_UP));
    }

    @Property
    void doubleTextRoundTripIsExact(@ForAll double v) {
        Object t = Casts.cast(v, SqlType.DOUBLE, SqlType.TEXT);
        Object back = Casts.cast(t, SqlType.TEXT, SqlType.DOUBLE);
        assertThat(Double.doubleToLongBits((Double) back)).isEqualTo(Double.doubleToLongBits(v));
    }
}
