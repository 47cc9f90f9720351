package io.stillwater.engine.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Expected strings are PostgreSQL 15's output for the same input ({@code select '<in>'::type}). */
class DatumTextTest {

    static Stream<Arguments> roundTrips() {
        return Stream.of(
                // type, input literal, PostgreSQL output
                Arguments.of(SqlType.BOOLEAN, "tr", "t"),
                Arguments.of(SqlType.BOOLEAN, " ON ", "t"),
                Arguments.of(SqlType.BOOLEAN, "off", "f"),
                Arguments.of(SqlType.BOOLEAN, "N", "f"),
                Arguments.of(SqlType.BOOLEAN, "1", "t"),
                Arguments.of(SqlType.INTEGER, " 12 ", "12"),
                Arguments.of(SqlType.INTEGER, "-2147483648", "-2147483648"),
                Arguments.of(SqlType.BIGINT, "-9223372036854775808", "-9223372036854775808"),
                Arguments.of(SqlType.SMALLINT, "+32767", "32767"),
                Arguments.of(SqlType.NUMERIC, " 1.50 ", "1.50"),
                Arguments.of(SqlType.NUMERIC, "1e3", "1000"),
                Arguments.of(SqlType.NUMERIC, "-.5", "-0.5"),
                Arguments.of(SqlType.NUMERIC, "1.5e-3", "0.0015"),
                Arguments.of(SqlType.DOUBLE, "1.5", "1.5"),
                Arguments.of(SqlType.DOUBLE, "0.1", "0.1"),
                Arguments.of(SqlType.DOUBLE, "1e20", "1e+20"),
                Arguments.of(SqlType.DOUBLE, "1e15", "1e+15"),
                Arguments.of(SqlType.DOUBLE, "1e14", "100000000000000"),
                Arguments.of(SqlType.DOUBLE, "0.0001", "0.0001"),
                Arguments.of(SqlType.DOUBLE, "0.00001", "1e-05"),
                Arguments.of(SqlType.DOUBLE, "1.5e-7", "1.5e-07"),
                Arguments.of(SqlType.DOUBLE, "1.23456789e100", "1.23456789e+100"),
                Arguments.of(SqlType.DOUBLE, "-0", "-0"),
                Arguments.of(SqlType.DOUBLE, "infinity", "Infinity"),
                Arguments.of(SqlType.DOUBLE, "-Infinity", "-Infinity"),
                Arguments.of(SqlType.DOUBLE, "nan", "NaN"),
                Arguments.of(SqlType.REAL, "1e6", "1e+06"),
                Arguments.of(SqlType.DOUBLE, "1152921504609999872", "1.1529215046099999e+18"),
                Arguments.of(SqlType.REAL, "35720962048", "3.5720962e+10"),
                Arguments.of(SqlType.REAL, "123456", "123456"),
                Arguments.of(SqlType.REAL, "1.5", "1.5"),
                Arguments.of(SqlType.TEXT, " x ", " x "),
                Arguments.of(SqlType.DATE, "2024-01-31", "2024-01-31"),
                Arguments.of(SqlType.DATE, "20240131", "2024-01-31"),
                Arguments.of(SqlType.DATE, "01/31/2024", "2024-01-31"),
                Arguments.of(SqlType.DATE, "0044-03-15 BC", "0044-03-15 BC"),
                Arguments.of(SqlType.DATE, "January 8, 1999", "1999-01-08"),
                Arguments.of(SqlType.DATE, "Jan 31 2024", "2024-01-31"),
                Arguments.of(SqlType.DATE, "31-Jan-2024", "2024-01-31"),
                Arguments.of(SqlType.DATE, "2024-Jan-31", "2024-01-31"),
                Arguments.of(SqlType.TIMESTAMP, "Wed Jan 31 2024 13:04:05", "2024-01-31 13:04:05"),
                Arguments.of(SqlType.TIMESTAMPTZ, "31 Jan 2024 13:04:05+02", "2024-01-31 11:04:05+00"),
                Arguments.of(SqlType.TIME, "13:04:05.123456", "13:04:05.123456"),
                Arguments.of(SqlType.TIME, "13:04", "13:04:00"),
                Arguments.of(SqlType.TIME, "13:04:05.500", "13:04:05.5"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31 13:04:05.5", "2024-01-31 13:04:05.5"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31T13:04:05", "2024-01-31 13:04:05"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31 13:04:05.1234567", "2024-01-31 13:04:05.123457"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31", "2024-01-31 00:00:00"),
                Arguments.of(SqlType.TIMESTAMP, "2024-01-31 24:00:00", "2024-02-01 00:00:00"),
                Arguments.of(SqlType.TIMESTAMPTZ, "2024-01-31T13:04:05+02", "2024-01-31 11:04:05+00"),
                Arguments.of(SqlType.TIMESTAMPTZ, "2024-01-31 13:04:05+05:30", "2024-01-31 07:34:05+00"),
                Arguments.of(SqlType.TIMESTAMPTZ, "2024-01-31 13:04:05Z", "2024-01-31 13:04:05+00"),
                Arguments.of(SqlType.TIMESTAMPTZ, "2024-01-31 13:04:05", "2024-01-31 13:04:05+00"),
                Arguments.of(SqlType.TIMESTAMPTZ, "2024-01-31 13:04:05 America/New_York", "2024-01-31 18:04:05+00"),
                Arguments.of(SqlType.INTERVAL, "1 day", "1 day"),
                Arguments.of(SqlType.INTERVAL, "2 hours 3 minutes", "02:03:00"),
                Arguments.of(SqlType.INTERVAL, "1 year 2 months", "1 year 2 mons"),
                Arguments.of(SqlType.INTERVAL, "01:02:03", "01:02:03"),
                Arguments.of(SqlType.INTERVAL, "-01:02:03", "-01:02:03"),
                Arguments.of(SqlType.INTERVAL, "-1 day", "-1 days"),
                Arguments.of(SqlType.INTERVAL, "-1 year", "-1 years"),
                Arguments.of(SqlType.INTERVAL, "-1 day 2 hours", "-1 days +02:00:00"),
                Arguments.of(SqlType.INTERVAL, "1 day -2 hours", "1 day -02:00:00"),
                Arguments.of(SqlType.INTERVAL, "-1 year -2 mons +3 days", "-1 years -2 mons +3 days"),
                Arguments.of(SqlType.INTERVAL, "100 hours", "100:00:00"),
                Arguments.of(SqlType.INTERVAL, "1.5 years", "1 year 6 mons"),
                Arguments.of(SqlType.INTERVAL, "1.5 months", "1 mon 15 days"),
                Arguments.of(SqlType.INTERVAL, "1.5 days", "1 day 12:00:00"),
                Arguments.of(SqlType.INTERVAL, "1.5 weeks", "10 days 12:00:00"),
                Arguments.of(SqlType.INTERVAL, "5", "00:00:05"),
                Arguments.of(SqlType.INTERVAL, "1 day 01:02:03.5", "1 day 01:02:03.5"),
                Arguments.of(SqlType.INTERVAL, "@ 1 day ago", "-1 days"),
                Arguments.of(SqlType.INTERVAL, "P1Y2M3DT4H5M6S", "1 year 2 mons 3 days 04:05:06"),
                Arguments.of(SqlType.INTERVAL, "0 seconds", "00:00:00"),
                Arguments.of(SqlType.INTERVAL, "1y 2mon 3d 4h 5m 6s", "1 year 2 mons 3 days 04:05:06"),
                Arguments.of(SqlType.INTERVAL, "3 mins 4.5 secs", "00:03:04.5"),
                Arguments.of(SqlType.INTERVAL, "-1.5 days", "-1 days -12:00:00"),
                Arguments.of(SqlType.INTERVAL, "12 microseconds", "00:00:00.000012"),
                Arguments.of(SqlType.INTERVAL, "1 millennium", "1000 years"),
                Arguments.of(SqlType.INTERVAL, "-2 hours ago", "02:00:00"),
                Arguments.of(SqlType.INTERVAL, "+1 day -1 hour", "1 day -01:00:00"),
                Arguments.of(SqlType.INTERVAL, "1:2:3", "01:02:03"),
                Arguments.of(SqlType.INTERVAL, "1 hour 30", "01:00:30"),
                Arguments.of(SqlType.INTERVAL, ".5 days", "12:00:00"),
                Arguments.of(SqlType.INTERVAL, "1. day", "1 day"),
                Arguments.of(SqlType.INTERVAL, "P2W", "14 days"),
                Arguments.of(SqlType.INTERVAL, "1-2", "1 year 2 mons"),
                Arguments.of(SqlType.INTERVAL, "-1-2", "-1 years -2 mons"),
                Arguments.of(SqlType.INTERVAL, "3 04:05:06", "3 days 04:05:06"),
                Arguments.of(SqlType.INTERVAL, "PT36H", "36:00:00"),
                Arguments.of(SqlType.INTERVAL, "PT1.5S", "00:00:01.5"),
                Arguments.of(SqlType.BYTEA, "\\x0102", "\\x0102"),
                Arguments.of(SqlType.BYTEA, "\\x01 02", "\\x0102"),
                Arguments.of(SqlType.BYTEA, "abc", "\\x616263"),
                Arguments.of(SqlType.BYTEA, "a\\\\b\\001", "\\x615c6201"));
    }

    @ParameterizedTest(name = "{1}::{0} prints {2}")
    @MethodSource("roundTrips")
    void parsesAndPrintsLikePostgres(SqlType type, String input, String output) {
        Object v = DatumText.parse(type, input);
        assertThat(DatumText.format(type, v)).isEqualTo(output);
        // The output is itself valid input for the same value.
        assertThat(Datums.compare(DatumText.parse(type, output), v)).isZero();
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(SqlType.INTEGER, "abc", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"abc\""),
                Arguments.of(SqlType.INTEGER, "", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"\""),
                Arguments.of(SqlType.INTEGER, "1.5", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"1.5\""),
                Arguments.of(SqlType.INTEGER, "99999999999", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"99999999999\" is out of range for type integer"),
                Arguments.of(SqlType.SMALLINT, "32768", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"32768\" is out of range for type smallint"),
                Arguments.of(SqlType.BIGINT, "9223372036854775808", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value \"9223372036854775808\" is out of range for type bigint"),
                Arguments.of(SqlType.BOOLEAN, "maybe", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type boolean: \"maybe\""),
                Arguments.of(SqlType.BOOLEAN, "o", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type boolean: \"o\""),
                Arguments.of(SqlType.NUMERIC, "abc", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \"abc\""),
                Arguments.of(SqlType.DOUBLE, "1e400", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"1e400\" is out of range for type double precision"),
                Arguments.of(SqlType.DOUBLE, "1e-400", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"1e-400\" is out of range for type double precision"),
                Arguments.of(SqlType.REAL, "1e40", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "\"1e40\" is out of range for type real"),
                Arguments.of(SqlType.DOUBLE, "0x10", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type double precision: \"0x10\""),
                Arguments.of(SqlType.DATE, "abc", SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type date: \"abc\""),
                Arguments.of(SqlType.DATE, "2024-02-30", SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"2024-02-30\""),
                Arguments.of(SqlType.TIME, "abc", SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type time: \"abc\""),
                Arguments.of(SqlType.TIME, "25:00", SqlState.DATETIME_FIELD_OVERFLOW, "date/time field value out of range: \"25:00\""),
                Arguments.of(SqlType.TIMESTAMP, "abc", SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type timestamp: \"abc\""),
                Arguments.of(SqlType.TIMESTAMPTZ, "abc", SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type timestamp with time zone: \"abc\""),
                Arguments.of(SqlType.INTERVAL, "abc", SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"abc\""),
                Arguments.of(SqlType.INTERVAL, "100 days 99:99:99", SqlState.INTERVAL_FIELD_OVERFLOW, "interval field value out of range: \"100 days 99:99:99\""),
                Arguments.of(SqlType.INTERVAL, "1 fortnight", SqlState.INVALID_DATETIME_FORMAT, "invalid input syntax for type interval: \"1 fortnight\""),
                Arguments.of(SqlType.BYTEA, "\\xzz", SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal digit: \"z\""),
                Arguments.of(SqlType.BYTEA, "\\x012", SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal data: odd number of digits"),
                Arguments.of(SqlType.BYTEA, "a\\b", SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bytea: \"a\\b\""));
    }

    @ParameterizedTest(name = "{1}::{0} fails with {2}")
    @MethodSource("badInput")
    void rejectsBadInputWithPostgresErrors(SqlType type, String input, SqlState state, String message) {
        assertThatThrownBy(() -> DatumText.parse(type, input))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(state);
                    assertThat(e.getMessage()).isEqualTo(message);
                });
    }

    @Test
    void timestamptzRendersInTheSessionZone() {
        Instant i = Instant.parse("2024-07-01T12:00:00Z");
        assertThat(DatumText.format(SqlType.TIMESTAMPTZ, i, ZoneId.of("Europe/Berlin"))).isEqualTo("2024-07-01 14:00:00+02");
        assertThat(DatumText.format(SqlType.TIMESTAMPTZ, i, ZoneId.of("Asia/Kolkata"))).isEqualTo("2024-07-01 17:30:00+05:30");
        assertThat(DatumText.parse(SqlType.TIMESTAMPTZ, "2024-07-01 14:00:00", ZoneId.of("Europe/Berlin"))).isEqualTo(i);
    }

    @Test
    void valuesUseTheDocumentedJavaClasses() {
        assertThat(DatumText.parse(SqlType.SMALLINT, "1")).isInstanceOf(Short.class);
        assertThat(DatumText.parse(SqlType.INTEGER, "1")).isInstanceOf(Integer.class);
        assertThat(DatumText.parse(SqlType.BIGINT, "1")).isInstanceOf(Long.class);
        assertThat(DatumText.parse(SqlType.REAL, "1")).isInstanceOf(Float.class);
        assertThat(DatumText.parse(SqlType.DOUBLE, "1")).isInstanceOf(Double.class);
        assertThat(DatumText.parse(SqlType.NUMERIC, "1")).isEqualTo(new BigDecimal("1"));
        assertThat(DatumText.parse(SqlType.DATE, "2024-01-31")).isEqualTo(LocalDate.of(2024, 1, 31));
        assertThat(DatumText.parse(SqlType.TIME, "01:02")).isEqualTo(LocalTime.of(1, 2));
        assertThat(DatumText.parse(SqlType.TIMESTAMP, "2024-01-31 01:02")).isEqualTo(LocalDateTime.of(2024, 1, 31, 1, 2));
        assertThat(DatumText.parse(SqlType.INTERVAL, "1 mon 2 days 3 us")).isEqualTo(new Interval(1, 2, 3));
        assertThat(DatumText.parse(SqlType.BYTEA, "\\x00ff")).isEqualTo(ByteString.wrap(new byte[] {0, (byte) 0xff}));
    }
}
