package io.stillwater.targets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetSpecTest {

    @Test
    void embedded() {
        assertThat(TargetSpec.parse(" embedded ")).isEqualTo(new TargetSpec.Embedded());
    }

    @Test
    void jarNeedsAnExistingFile(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("stillwater.jar"), "x");
        assertThat(TargetSpec.parse("jar:" + jar)).isEqualTo(new TargetSpec.Jar(jar.toAbsolutePath().normalize()));
        assertThatThrownBy(() -> TargetSpec.parse("jar:" + dir.resolve("missing.jar")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no such file")
                .hasMessageContaining("missing.jar");
        assertThatThrownBy(() -> TargetSpec.parse("jar:")).hasMessageContaining("needs a path");
    }

    @Test
    void urlBecomesAJdbcUrlWithUserAndDefaultPort() {
        var u = (TargetSpec.Url) TargetSpec.parse("url:postgresql://postgres@127.0.0.1/postgres");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/postgres");
        assertThat(u.user()).isEqualTo("postgres");
        assertThat(u.password()).isEmpty();
        assertThat(u.display()).isEqualTo("url:postgresql://postgres@127.0.0.1:5432/postgres");
    }

    @Test
    void urlKeepsPortAndOptionsAndHidesThePassword() {
        var u = (TargetSpec.Url) TargetSpec.parse("url:postgresql://materialize:s3cret@db.example:6875/materialize?sslmode=disable");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6875/materialize?sslmode=disable");
        assertThat(u.user()).isEqualTo("materialize");
        assertThat(u.password()).isEqualTo("s3cret");
        assertThat(u.display()).doesNotContain("s3cret");
        assertThat(u.toString()).doesNotContain("s3cret");
    }

    @Test
    void urlErrorsSayWhatIsMissing() {
        assertThatThrownBy(() -> TargetSpec.parse("url:postgresql://127.0.0.1:5432/postgres"))
                .hasMessageContaining("names no user");
        assertThatThrownBy(() -> TargetSpec.parse("url:postgresql://postgres@127.0.0.1:5432"))
                .hasMessageContaining("names no database");
        assertThatThrownBy(() -> TargetSpec.parse("url:postgresql://postgres@:5432/db"))
                .hasMessageContaining("no host");
        assertThatThrownBy(() -> TargetSpec.parse("url:mysql://root@h/db"))
                .hasMessageContaining("url:postgresql://");
    }

    @Test
    void unknownFormsListTheAcceptedOnes() {
        assertThatThrownBy(() -> TargetSpec.parse("postgres://x@y/z"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown target").hasMessageContaining(TargetSpec.FORMS);
        assertThatThrownBy(() -> TargetSpec.parse("")).hasMessageContaining(TargetSpec.FORMS);
    }

    @Test
    void anIpv6UrlAndANonNumericPort() {
        var u = (TargetSpec.Url) TargetSpec.parse("url:postgres://postgres@[::1]/postgres");
        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5432/postgres");
        assertThatThrownBy(() -> TargetSpec.parse("url:postgresql://postgres@h:port/db"))
                .hasMessageContaining("not a number");
    }
}
