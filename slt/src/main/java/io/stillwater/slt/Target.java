package io.stillwater.slt;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What one script file runs against: a database reachable through JDBC. A Target is opened
 * per file by a {@link TargetProvider} and closed when the file is done; it is used by one
 * thread at a time.
 */
public interface Target extends AutoCloseable {
    /** For reports, e.g. {@code postgresql://postgres@127.0.0.1:5432/slt_1a2b}. */
    String describe();

    /**
     * Opens a new connection. {@code user} empty means the target's default user;
     * {@code simpleProtocol} selects pgjdbc's {@code preferQueryMode=simple}.
     */
    Connection connect(String user, boolean simpleProtocol) throws SQLException;

    /** True when {@link #reset()} can give a fresh server ({@code reset-server}). */
    boolean canReset();

    /**
     * Replaces the server with a fresh one; connections opened before are invalid afterwards.
     * Only called when {@link #canReset()}.
     */
    void reset() throws SQLException;

    @Override
    void close();
}
