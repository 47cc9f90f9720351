package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;

/** The log is damaged before its tail: opening it is refused ({@code XX001 data_corrupted}); see {@link LogDamage}. */
public final class LogDamageException extends SqlException {
    private final transient LogDamage damage;

    public LogDamageException(LogDamage damage) {
        super(SqlState.DATA_CORRUPTED, damage.describe(), null, damage.wayOut());
        this.damage = damage;
    }

    public LogDamage damage() { return damage; }
}
