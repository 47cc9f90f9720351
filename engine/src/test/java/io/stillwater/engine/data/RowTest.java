package io.stillwater.engine.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class RowTest {
    @Test
    void nullsSortFirstAndShorterRowsFirst() {
        assertThat(Row.of((Object) null).compareTo(Row.of(1))).isNegative();
        assertThat(Row.of(1).compareTo(Row.of(1, 2))).isNegative();
        assertThat(Row.of(2).compareTo(Row.of(1, 2))).isPositive();
    }

    @Test
    void numericEqualityIgnoresScale() {
        Row a = Row.of(new BigDecimal("1.50"));
        Row b = Row.of(new BigDecimal("1.5"));
        assertThat(a).isEqualTo(b);
        assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }

    @Test
    void consolidateMergesAndDropsZeros() {
        Changes c = new Changes().add(Row.of(1), 1).add(Row.of(2), 1).add(Row.of(1), -1).add(Row.of(2), 2);
        assertThat(c.consolidate().asList()).containsExactly(new RowDiff(Row.of(2), 3));
    }

    @Property
    void orderIsAntisymmetric(@ForAll Integer a, @ForAll Integer b, @ForAll String s) {
        Row x = Row.of(a, s);
        Row y = Row.of(b, s);
        assertThat(Integer.signum(x.compareTo(y))).isEqualTo(-Integer.signum(y.compareTo(x)));
        assertThat(x.compareTo(y) == 0).isEqualTo(x.equals(y));
    }
}
