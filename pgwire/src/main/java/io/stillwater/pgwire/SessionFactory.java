package io.stillwater.pgwire;

import io.stillwater.engine.session.Session;
import java.util.Map;

/**
 * Where the server gets a {@link Session} for each authenticated connection; in
 * production {@code engine::connect}. May throw
 * {@link io.stillwater.engine.error.SqlException} (e.g. 3D000 for an unknown database),
 * which ends the connection with that error.
 */
@FunctionalInterface
public interface SessionFactory {
    Session connect(String user, String database, Map<String, String> options);
}
