package io.stillwater.bench.cli;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * {@code --shard i/n}: shard {@code i} (0-based, {@code 0 <= i < n}) of {@code n} runs the
 * scenarios whose name's CRC32 (over its UTF-8 bytes, unsigned) modulo {@code n} is {@code i}. The
 * assignment depends only on the name, so it is the same on every machine and build, and adding a
 * scenario never moves another one.
 */
public record Shard(int index, int count) {
    public static final Shard ALL = new Shard(0, 1);

    public Shard {
        if (count < 1) {
            throw new IllegalArgumentException("--shard i/n: n must be at least 1, got " + count);
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("--shard i/n: i is 0-based and must be below n (0.." + (count - 1)
                    + "), got " + index + "/" + count);
        }
    }

    /** Parses {@code i/n}. */
    public static Shard parse(String text) {
        String[] parts = text.strip().split("/", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("--shard takes i/n (e.g. 0/4), got \"" + text + "\"");
        }
        try {
            return new Shard(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shard takes i/n with whole numbers (e.g. 0/4), got \"" + text + "\"");
        }
    }

    public static int of(String scenarioName, int count) {
        CRC32 crc = new CRC32();
        crc.update(scenarioName.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % count);
    }

    public boolean contains(String scenarioName) {
        return of(scenarioName, count) == index;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
