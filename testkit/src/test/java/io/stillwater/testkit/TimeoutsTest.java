package io.stillwater.testkit;

import java.util.concurrent.TimeUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimeoutsTest {
    @Test
    void parsesJunitsDurationFormat() {
        assertThat(Timeouts.parse("5 m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Timeouts.parse("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Timeouts.parse(" 500 ms ")).isEqualTo(Duration.ofMillis(500));
        assertThat(Timeouts.parse("2 H")).isEqualTo(Duration.ofHours(2));
        assertThat(Timeouts.parse("30")).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> Timeouts.parse("five minutes")).hasMessageContaining("'five minutes'");
    }

    @PropertyTimeout(7)
    static class Annotated {
        @PropertyTimeout(value = 3, unit = TimeUnit.MINUTES)
        void method() {}

        void plain() {}
    }

    @Test
    void aMethodsTimeoutWinsOverItsClassesWhichWinsOverTheDefault() throws Exception {
        Optional<PropertyTimeout> onClass = Optional.of(Annotated.class.getAnnotation(PropertyTimeout.class));
        Optional<PropertyTimeout> onMethod = Optional.of(Annotated.class.getDeclaredMethod("method").getAnnotation(PropertyTimeout.class));

        assertThat(Timeouts.forMethod(onMethod, onClass)).isEqualTo(Duration.ofMinutes(3));
        assertThat(Timeouts.forMethod(Optional.empty(), onClass)).isEqualTo(Duration.ofSeconds(7));
        assertThat(Timeouts.forMethod(Optional.empty(), Optional.empty())).isEqualTo(Timeouts.defaultTimeout());
    }
}
