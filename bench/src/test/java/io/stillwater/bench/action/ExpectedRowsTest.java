package io.stillwater.bench.action;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ExpectedRowsTest {

    @Test
    void orderedMatchAndMismatch() {
        ExpectedRows e = ExpectedRows.row("A", "1");
        assertThat(e.mismatch(List.of(List.of("A", "1")))).isEmpty();
        assertThat(e.mismatch(List.of(List.of("A", "2")))).contains("wrong result: expected 1 row(s) [[A, 1]], got 1 row(s) [[A, 2]]");
        assertThat(e.mismatch(List.of())).get().asString().contains("got 0 row(s)");
    }

    @Test
    void unorderedComparesMultisets() {
        ExpectedRows e = new ExpectedRows(List.of(List.of("1"), List.of("1"), List.of("2")), false);
        assertThat(e.mismatch(List.of(List.of("2"), List.of("1"), List.of("1")))).isEmpty();
        assertThat(e.mismatch(List.of(List.of("2"), List.of("2"), List.of("1")))).isPresent();
    }

    @Test
    void nullsAreValues() {
        ExpectedRows e = ExpectedRows.row((String) null);
        assertThat(e.mismatch(List.of(Arrays.asList((String) null)))).isEmpty();
        assertThat(e.mismatch(List.of(List.of("x")))).isPresent();
    }

    @Test
    void longAnswersAreShownBounded() {
        var many = IntStream.range(0, 1000).mapToObj(i -> List.of(String.valueOf(i))).toList();
        String text = ExpectedRows.row("1").mismatch(many).orElseThrow();
        assertThat(text).contains("got 1000 rows, first [[0], [1], [2]]").hasSizeLessThan(120);
    }

    @Test
    void expectationIsNotPartOfTheName() {
        var plain = new Action.PooledQuery("SELECT 1");
        var checked = plain.expecting(ExpectedRows.row("1"));
        assertThat(checked.name()).isEqualTo(plain.name());
        assertThat(checked.expected()).isEqualTo(ExpectedRows.row("1"));
        assertThat(plain.expected()).isNull();
    }
}
