package io.stillwater.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one PostgreSQL URL reader, shared by slt's --url and the bench's url: targets. */
class PgUrlTest {

    @Test
    void libpqFormWithCredentialsPortAndOptions() {
        PgUrl u = PgUrl.parse("postgresql://alice:s%40cret@db.example:6875/materialize?sslmode=disable");
        assertThat(u.user()).isEqualTo("alice");
        assertThat(u.password()).isEqualTo("s@cret");
        assertThat(u.host()).isEqualTo("db.example");
        assertThat(u.port()).hasValue(6875);
        assertThat(u.params()).isEqualTo(Map.of("sslmode", "disable"));
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6875/materialize?sslmode=disable");
        assertThat(u.toString()).doesNotContain("s@cret");
    }

    @Test
    void jdbcFormTakesTheUserFromTheQueryAndMayOmitThePort() {
        PgUrl u = PgUrl.parse("jdbc:postgresql://localhost/postgres?user=bob");
        assertThat(u.user()).isEqualTo("bob");
        assertThat(u.host()).isEqualTo("localhost");
        assertThat(u.port()).isEmpty();
        assertThat(u.query()).isEmpty();
        assertThat(u.withDatabase("other").jdbcUrl()).isEqualTo("jdbc:postgresql://localhost/other");
        assertThat(PgUrl.parse("postgres://h:1/d").hostPort()).isEqualTo("h:1");
    }

    @Test
    void anIpv6HostKeepsItsBracketsAndAnOddPortIsReported() {
        PgUrl u = PgUrl.parse("postgres://postgres@[::1]:5433/postgres");
        assertThat(u.host()).isEqualTo("[::1]");
        assertThat(u.port()).hasValue(5433);
        assertThat(PgUrl.parse("postgresql://u@[::1]/db").port()).isEmpty();
        assertThatThrownBy(() -> PgUrl.parse("postgresql://u@h:x/db").port()).hasMessageContaining("not a number");
        assertThatThrownBy(() -> PgUrl.parse("mysql://u@h/db")).hasMessageContaining("not a PostgreSQL URL");
    }
}
