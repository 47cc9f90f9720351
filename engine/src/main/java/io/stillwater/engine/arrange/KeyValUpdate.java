package io.stillwater.engine.arrange;

import io.stillwater.engine.data.Row;
import java.util.Objects;

/**
 * One update of an arrangement: the multiplicity of {@code (key, val)} changes by
 * {@code diff} at {@code time} (ms since the epoch). The contents at time {@code t} are the
 * sum of all updates with {@code time <= t}.
 *
 * <p>Only an interchange value: batches never keep per-update objects.
 */
public record KeyValUpdate(Row key, Row val, long time, long diff) {
    public KeyValUpdate {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(val, "val");
    }
}
