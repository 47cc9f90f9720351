package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SET validates values as PostgreSQL 15 does (22023) and keeps PostgreSQL's spelling. */
class SettingValuesTest {
    private final SessionVariables vars = new SessionVariables(Map.of());

    private SqlException rejected(String name, String value) {
        SqlException e = catchThrowableOfType(SqlException.class, () -> vars.set(name, value));
        assertThat(e).as(name + " = " + value).isNotNull();
        return e;
    }

    @Test
    void dateStyleAcceptsPostgresKeywordsAndShowsTheCanonicalPair() {
        SqlException e = rejected("DateStyle", "Nope");
        assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
        assertThat(e.getMessage()).isEqualTo("invalid value for parameter \"DateStyle\": \"Nope\"");
        assertThat(rejected("DateStyle", "ISO, SQL").detail()).isEqualTo("Conflicting \"datestyle\" specifications.");
        assertThat(vars.set("DateStyle", "dmy")).containsEntry("DateStyle", "ISO, DMY");
        vars.set("DateStyle", "German");
        assertThat(vars.get("datestyle")).isEqualTo("German, DMY");
        vars.set("DateStyle", "sql, ymd");
        assertThat(vars.get("datestyle")).isEqualTo("SQL, YMD");
    }

    @Test
    void enumeratedBooleanAndIntegerSettingsAreChecked() {
        assertThat(rejected("IntervalStyle", "nope").hint()).contains("iso_8601");
        assertThat(rejected("client_min_messages", "loud").state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
        assertThat(rejected("extra_float_digits", "abc").getMessage())
                .isEqualTo("invalid value for parameter \"extra_float_digits\": \"abc\"");
        assertThat(rejected("extra_float_digits", "100").getMessage())
                .isEqualTo("100 is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)");
        assertThat(rejected("standard_conforming_strings", "maybe").getMessage())
                .isEqualTo("parameter \"standard_conforming_strings\" requires a Boolean value");
        assertThat(rejected("lock_timeout", "soon").state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
        vars.set("extra_float_digits", "2.5");
        assertThat(vars.get("extra_float_digits")).isEqualTo("2");
        vars.set("IntervalStyle", "ISO_8601");
        assertThat(vars.get("intervalstyle")).isEqualTo("iso_8601");
        vars.set("standard_conforming_strings", "on");
    }

    @Test
    void clientEncodingIsUtf8Only() {
        assertThat(rejected("client_encoding", "nope").state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
        assertThat(rejected("client_encoding", "LATIN1").state()).isEqualTo(SqlState.FEATURE_NOT_SUPPORTED);
        vars.set("client_encoding", "utf-8");
        assertThat(vars.get("client_encoding")).isEqualTo("UTF8");
    }
}
