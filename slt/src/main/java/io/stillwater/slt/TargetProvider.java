package io.stillwater.slt;

import java.sql.SQLException;

/** Gives every script file its own {@link Target}: a fresh engine, or a fresh database. */
public interface TargetProvider extends AutoCloseable {
    /** Opens the target for one file; the caller closes it when the file is done. */
    Target open(String fileName) throws SQLException;

    /** One line for the run's header, e.g. which server or engine is used. */
    String describe();

    @Override
    void close();
}
