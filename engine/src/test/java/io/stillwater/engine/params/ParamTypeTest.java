package io.stillwater.engine.params;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ParamTypeTest {
    private static final ParamType.BoolType BOOL = new ParamType.BoolType();
    private static final ParamType.IntType NON_NEGATIVE = new ParamType.IntType(0, Integer.MAX_VALUE);
    private static final ParamType.DurationType DURATION =
            new ParamType.DurationType(Duration.ZERO, Duration.ofMillis(Integer.MAX_VALUE));
    private static final ParamType.ByteSizeType BYTES = new ParamType.ByteSizeType(1024 * 1024, 1L << 40);
    private static final ParamType.EnumType MODE = new ParamType.EnumType(List.of("Solo", "two_runtime"));

    @Test
    void booleansParseLikePostgres() {
        for (String on : List.of("on", "ON", "true", "t", "yes", "1", " On ")) assertThat(BOOL.parse(on)).as(on).isTrue();
        for (String off : List.of("off", "false", "FALSE", "f", "no", "0")) assertThat(BOOL.parse(off)).as(off).isFalse();
        assertThat(BOOL.format(true)).isEqualTo("on");
        assertThat(BOOL.format(false)).isEqualTo("off");
        assertThatThrownBy(() -> BOOL.parse("maybe")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void integersAreBounded() {
        assertThat(NON_NEGATIVE.parse(" 1024 ")).isEqualTo(1024);
        assertThatThrownBy(() -> NON_NEGATIVE.parse("-1")).hasMessageContaining("outside the valid range 0 .. 2147483647");
        assertThatThrownBy(() -> NON_NEGATIVE.parse("1.5")).hasMessageContaining("not an integer");
        assertThatThrownBy(() -> NON_NEGATIVE.parse("99999999999")).hasMessageContaining("not an integer");
    }

    @Test
    void durationsTakePostgresUnitsAndBareMilliseconds() {
        assertThat(DURATION.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(DURATION.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DURATION.parse("500")).isEqualTo(Duration.ofMillis(500));
        assertThat(DURATION.parse("2 min")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DURATION.parse("1H")).isEqualTo(Duration.ofHours(1));
        assertThat(DURATION.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(DURATION.format(Duration.ZERO)).isEqualTo("0");
        assertThat(DURATION.format(Duration.ofMillis(90_000))).isEqualTo("90s");
        assertThat(DURATION.format(Duration.ofMinutes(3))).isEqualTo("3min");
        assertThat(DURATION.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThatThrownBy(() -> DURATION.parse("10 parsecs")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> DURATION.parse("-1s")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> DURATION.parse("30d")).hasMessageContaining("outside the valid range");
        assertThatThrownBy(() -> DURATION.parse("99999999999999999999d")).hasMessageContaining("too large");
    }

    @Test
    void byteSizesUsePowersOf1024() {
        assertThat(BYTES.parse("100MB")).isEqualTo(100L * 1024 * 1024);
        assertThat(BYTES.parse("1GB")).isEqualTo(1073741824L);
        assertThat(BYTES.parse("1073741824")).isEqualTo(1073741824L);
        assertThat(BYTES.parse("2 GiB")).isEqualTo(2L << 30);
        assertThat(BYTES.parse("2048kB")).isEqualTo(2L << 20);
        assertThat(BYTES.format(1073741824L)).isEqualTo("1GB");
        assertThat(BYTES.format(100L << 20)).isEqualTo("100MB");
        assertThat(BYTES.format((1L << 20) + 1)).isEqualTo("1048577B");
        assertThatThrownBy(() -> BYTES.parse("1kB")).hasMessageContaining("outside the valid range 1MB .. 1TB");
        assertThatThrownBy(() -> BYTES.parse("10 furlongs")).hasMessageContaining("unknown unit \"furlongs\"");
        assertThatThrownBy(() -> BYTES.parse("lots")).hasMessageContaining("not a byte size");
    }

    @Test
    void humanSizesReadLikeMaterializeErrors() {
        assertThat(ParamType.ByteSizeType.human(512)).isEqualTo("512 B");
        assertThat(ParamType.ByteSizeType.human(1L << 20)).isEqualTo("1.0 MiB");
        assertThat(ParamType.ByteSizeType.human(1536L << 20)).isEqualTo("1.5 GiB");
    }

    @Test
    void enumsAreCaseInsensitiveAndListTheirValues() {
        assertThat(MODE.parse("SOLO")).isEqualTo("solo");
        assertThat(MODE.accepted()).isEqualTo("Available values: solo, two_runtime.");
        assertThatThrownBy(() -> MODE.parse("three")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void invalidValuesAre22023WithDetailAndHint() {
        assertThatThrownBy(() -> Params.COMPUTE_INDEX_PEEK_YIELD_GRANULARITY.parse("0"))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.state()).isEqualTo(SqlState.INVALID_PARAMETER_VALUE);
                    assertThat(e.getMessage())
                            .isEqualTo("invalid value for parameter \"compute_index_peek_yield_granularity\": \"0\"");
                    assertThat(e.detail()).isEqualTo("0 is outside the valid range 1 .. 2147483647.");
                    assertThat(e.hint()).isEqualTo("Valid values are integers from 1 to 2147483647.");
                });
        assertThatThrownBy(() -> Params.ENABLE_COMPUTE_INTERACTIVE_RUNTIME.parse("sometimes"))
                .isInstanceOfSatisfying(SqlException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo(
                            "invalid value for parameter \"enable_compute_interactive_runtime\": \"sometimes\"");
                    assertThat(e.hint()).contains("on, off");
                });
    }

    @Property
    void integersRoundTrip(@ForAll @IntRange(min = 0) int v) {
        assertThat(NON_NEGATIVE.parse(NON_NEGATIVE.format(v))).isEqualTo(v);
    }

    @Property
    void durationsRoundTrip(@ForAll @LongRange(min = 0, max = Integer.MAX_VALUE) long ms) {
        Duration d = Duration.ofMillis(ms);
        assertThat(DURATION.parse(DURATION.format(d))).isEqualTo(d);
    }

    @Property
    void byteSizesRoundTrip(@ForAll @LongRange(min = 1024 * 1024, max = 1L << 40) long bytes) {
        assertThat(BYTES.parse(BYTES.format(bytes))).isEqualTo(bytes);
    }

    @Property
    void wholeUnitByteSizesRoundTrip(@ForAll @IntRange(min = 1, max = 1024) int n,
                                     @ForAll @IntRange(min = 2, max = 3) int power) {
        long bytes = n * (1L << (10 * power));
        assertThat(BYTES.parse(BYTES.format(bytes))).isEqualTo(bytes);
    }

    @Property
    void booleansRoundTrip(@ForAll boolean b) {
        assertThat(BOOL.parse(BOOL.format(b))).isEqualTo(b);
    }
}
