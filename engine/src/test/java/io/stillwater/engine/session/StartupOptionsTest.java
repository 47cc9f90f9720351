package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The startup packet's {@code options} value (libpq's PGOPTIONS), read as PostgreSQL reads it. */
class StartupOptionsTest {
    @Test
    void dashCSettingsReachTheSession() {
        SessionVariables vars = new SessionVariables(
                Map.of("options", "-c statement_timeout=3s --application-name=my\\ app -cDateStyle=ISO"));
        assertThat(vars.get("statement_timeout")).isEqualTo("3s");
        assertThat(vars.get("application_name")).isEqualTo("my app");
    }

    @Test
    void wordsThatAreNotSettingsAreIgnored() {
        assertThat(SessionVariables.commandLineOptions("-x  -c  a=1 junk --b=2 -c")).containsExactly(
                Map.entry("a", "1"), Map.entry("b", "2"));
        assertThat(SessionVariables.commandLineOptions("")).isEmpty();
    }

    @Test
    void aStartupParameterOfItsOwnStillCounts() {
        SessionVariables vars = new SessionVariables(Map.of("application_name", "direct"));
        assertThat(vars.get("application_name")).isEqualTo("direct");
    }
}
