package io.stillwater.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** to_char templates against PostgreSQL 15 output (brackets show padding). */
class ToCharTest {

    @ParameterizedTest(name = "to_char({0}, ''{1}'') = {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "1234567.891|999G999G999D99|[   1,234,567.89]",
            "0.1|0.99|[ 0.10]",
            "-0.1|90.99|[ -0.10]",
            "123|99999|[   123]",
            "1|FM999|[1]",
            "12.3|FM000.000|[012.300]",
            "12.3|FM999.999|[12.3]",
            "-12.3|FM999.999|[-12.3]",
            "0|FM999|[0]",
            "0|9.99|[  .00]",
            "-1234.5|S9999.9|[-1234.5]",
            "1234.5|9999.9S|[1234.5+]",
            "5|9PL|[ 5+]",
            "-7|MI99|[- 7]",
            "99.999|99.99|[ ##.##]",
            "1000000|9,999,999|[ 1,000,000]"})
    void numbers(String value, String format, String expected) {
        assertThat("[" + ToChar.formatNumber(new BigDecimal(value), format) + "]").isEqualTo(expected);
    }

    @ParameterizedTest(name = "to_char(ts, ''{0}'') = {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "Dy, DD Mon YYYY|[Sun, 07 Jan 2024]",
            "HH12:MI AM|[12:05 AM]",
            "FMDay FMMonth|[Sunday January]",
            "YYYY\"T\"HH24|[2024T00]",
            "Q-WW-IW-D-ID-DDD-J|[1-01-01-1-7-007-2460317]",
            "CC Y YY YYY|[21 4 24 024]",
            "SSSS US FF3|[309 250001 250]",
            "a.m. P.M. ad BC|[a.m. A.M. ad AD]",
            "hh24:mi:ss|[00:05:09]"})
    void timestamps(String format, String expected) {
        LocalDateTime ts = LocalDateTime.parse("2024-01-07T00:05:09.250001");
        assertThat("[" + ToChar.formatDateTime(ts, null, format) + "]").isEqualTo(expected);
    }
}
