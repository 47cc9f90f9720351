package io.stillwater.slt;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connections of one file run, opened on first use: the default connection (extended
 * protocol) used by statement and query records, a default simple-protocol connection for
 * {@code simple} blocks without {@code conn=}, and named simple-protocol connections. Owned by
 * the file's runner thread; closed when the file ends or the server is reset.
 */
final class Sessions implements AutoCloseable {
    private final Target target;
    private final Map<String, Connection> open = new LinkedHashMap<>();

    Sessions(Target target) {
        this.target = target;
    }

    /** The default connection, extended protocol. */
    Connection main() throws SQLException {
        return get("\0main", "", false);
    }

    /** A simple-protocol connection: the default one when {@code name} is empty. */
    Connection simple(String name, String user) throws SQLException {
        return get(name.isEmpty() ? "\0simple" : "conn:" + name, user, true);
    }

    private Connection get(String key, String user, boolean simpleProtocol) throws SQLException {
        Connection c = open.get(key);
        if (c != null && c.isClosed()) {
            open.remove(key); // the server closed it (fatal error): reconnect
            c = null;
        }
        if (c == null) {
            c = target.connect(user, simpleProtocol);
            open.put(key, c);
        }
        return c;
    }

    @Override
    public void close() {
        for (Connection c : open.values()) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing a broken connection: nothing to do
            }
        }
        open.clear();
    }
}
