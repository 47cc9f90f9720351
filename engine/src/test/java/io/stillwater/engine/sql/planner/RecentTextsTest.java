package io.stillwater.engine.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RecentTextsTest {
    @Test
    void aTextIsSeenBeforeFromItsSecondSighting() {
        RecentTexts recent = new RecentTexts(16);
        assertThat(recent.seenBefore("SELECT v FROM t WHERE k = 1")).isFalse();
        assertThat(recent.seenBefore("SELECT v FROM t WHERE k = 1")).isTrue();
        assertThat(recent.seenBefore("SELECT v FROM t WHERE k = 1")).isTrue();
        assertThat(recent.seenBefore("SELECT v FROM t WHERE k = 2")).isFalse();
    }

    @Test
    void aNewTextInTheSameSlotPushesTheOldOneOut() {
        RecentTexts recent = new RecentTexts(1); // one slot: every text shares it
        assertThat(recent.seenBefore("a")).isFalse();
        assertThat(recent.seenBefore("b")).isFalse();
        assertThat(recent.seenBefore("a")).isFalse();
        assertThat(recent.seenBefore("a")).isTrue();
    }

    @Test
    void theTableIsAPowerOfTwo() {
        assertThatThrownBy(() -> new RecentTexts(1000)).isInstanceOf(IllegalArgumentException.class);
    }
}
