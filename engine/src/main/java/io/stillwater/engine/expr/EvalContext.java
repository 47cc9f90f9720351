package io.stillwater.engine.expr;

import java.time.Instant;
import java.time.ZoneId;

/**
 * What an expression may read besides its input row: the statement's start time (so
 * {@code now()} is stable within a statement, as in PostgreSQL), the session's time
 * zone, user and database.
 */
public record EvalContext(Instant statementTime, ZoneId timeZone, String user, String database) {
    public static EvalContext defaults() {
        return new EvalContext(Instant.now(), ZoneId.of("UTC"), "materialize", "materialize");
    }
}
