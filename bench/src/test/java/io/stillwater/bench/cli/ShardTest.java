package io.stillwater.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class ShardTest {

    /** Values from an independent CRC-32 (Python's zlib.crc32): the assignment must never change. */
    @Test
    void assignmentIsCrc32OfTheUtf8NameModN() {
        assertThat(Shard.of("Read", 4)).isEqualTo((int) (946204249L % 4));
        assertThat(Shard.of("PoolRead", 4)).isEqualTo((int) (4055565861L % 4));
        assertThat(Shard.of("ConnectRead", 4)).isEqualTo(0);
        assertThat(Shard.of("InsertsSelects", 3)).isEqualTo(2);
        assertThat(Shard.of("OpenIndexedSelects", 3)).isEqualTo(1);
        assertThat(Shard.of("PointLookupThroughput", 4)).isEqualTo((int) (70017085L % 4));
    }

    @Property
    void everyNameIsInExactlyOneShard(@ForAll @StringLength(min = 1, max = 40) String name,
            @ForAll @IntRange(min = 1, max = 16) int n) {
        long holders = IntStream.range(0, n).filter(i -> new Shard(i, n).contains(name)).count();
        assertThat(holders).isEqualTo(1);
    }

    @Test
    void shardsAreBalanced() {
        int n = 4;
        int[] counts = new int[n];
        for (int i = 0; i < 4000; i++) {
            counts[Shard.of("Scenario" + i, n)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(900, 1100);
        }
    }

    @Test
    void parsing() {
        assertThat(Shard.parse("1/4")).isEqualTo(new Shard(1, 4));
        assertThat(Shard.parse("0/1")).isEqualTo(Shard.ALL);
        assertThatThrownBy(() -> Shard.parse("4/4")).hasMessageContaining("0-based");
        assertThatThrownBy(() -> Shard.parse("1/0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> Shard.parse("a/b")).hasMessageContaining("whole numbers");
        assertThatThrownBy(() -> Shard.parse("3")).hasMessageContaining("i/n");
    }
}
