package io.stillwater.engine.peek;

import java.util.Locale;

/**
 * How a read picks its timestamp (DESIGN.md "Reads (peeks)"). PostgreSQL's weaker levels
 * are accepted and behave as {@link #SERIALIZABLE}, as in Materialize.
 */
public enum Isolation {
    /**
     * Read at a timestamp at or after every acknowledged write, then wait until every
     * input is complete there: a read sees every write acknowledged before it began.
     */
    STRICT_SERIALIZABLE,
    /**
     * Read at the freshest time every input is already complete, waiting only for
     * hydration: never waits for a lagging index, may not see the latest writes.
     */
    SERIALIZABLE;

    /** The behaviour of a {@code transaction_isolation} setting (already validated). */
    public static Isolation of(String setting) {
        return setting.trim().toLowerCase(Locale.ROOT).equals("strict serializable") ? STRICT_SERIALIZABLE : SERIALIZABLE;
    }
}
