package io.stillwater.bench.feature.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScaleOptionTest {

    @Test
    void unsignedIsAbsoluteSignedIsRelative() {
        assertThat(ScaleOption.parse("4")).isEqualTo(new ScaleOption(4, false));
        assertThat(ScaleOption.parse(" 2.5 ")).isEqualTo(new ScaleOption(2.5, false));
        assertThat(ScaleOption.parse("+1")).isEqualTo(new ScaleOption(1, true));
        assertThat(ScaleOption.parse("-1.5")).isEqualTo(new ScaleOption(-1.5, true));
        assertThat(ScaleOption.parse("+0")).isEqualTo(new ScaleOption(0, true));
        assertThat(ScaleOption.parse("-.5")).isEqualTo(new ScaleOption(-0.5, true));
    }

    @Test
    void effectiveScale() {
        assertThat(ScaleOption.parse("4").effective(6, false)).isEqualTo(4);
        assertThat(ScaleOption.parse("-1.5").effective(6, false)).isEqualTo(4.5);
        assertThat(ScaleOption.parse("+1").effective(6, true)).isEqualTo(6);
        assertThat(ScaleOption.NONE.effective(6, false)).isEqualTo(6);
    }

    @Test
    void anAbsoluteScaleMustBePositive() {
        assertThatThrownBy(() -> ScaleOption.parse("0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("an absolute scale must be positive")
                .hasMessageContaining("write it with a sign");
    }

    @Test
    void garbageIsRejectedSayingWhatIsAccepted() {
        for (String bad : new String[] {"", "  ", "abc", "1e3", "NaN", "Infinity", "+", "--1", "4x", "0x10", "1,5"}) {
            assertThatThrownBy(() -> ScaleOption.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not a scale")
                    .hasMessageContaining("absolute (4")
                    .hasMessageContaining("+1");
        }
        assertThatThrownBy(() -> ScaleOption.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
