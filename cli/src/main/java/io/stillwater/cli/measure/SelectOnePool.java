package io.stillwater.cli.measure;

import io.stillwater.bench.action.WrongResultException;
import io.stillwater.bench.runner.Target;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A fixed pool of connections, each with {@code SELECT 1} prepared, for the open loop of {@code
 * measure harness}: all connections are opened (outside timing) before the load starts; {@link
 * #execute()} is called from many virtual threads at once and waits, inside the timed span, for a
 * free connection, like the bench's pooled actions. An answer other than one row {@code 1} is a
 * failed query.
 */
final class SelectOnePool implements AutoCloseable {
    private record Member(Connection connection, PreparedStatement select) {}

    private final List<Member> all = new ArrayList<>();
    private final BlockingQueue<Member> free;

    private SelectOnePool(int size) {
        this.free = new ArrayBlockingQueue<>(size);
    }

    static SelectOnePool open(Target target, int size) throws SQLException {
        SelectOnePool pool = new SelectOnePool(size);
        try {
            for (int i = 0; i < size; i++) {
                Connection c = target.connect();
                Member m;
                try {
                    m = new Member(c, c.prepareStatement("SELECT 1"));
                } catch (SQLException e) {
                    c.close();
                    throw e;
                }
                pool.all.add(m);
                pool.free.add(m);
            }
            return pool;
        } catch (SQLException | RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    void execute() throws Exception {
        Member m = free.take();
        try (ResultSet rs = m.select().executeQuery()) {
            if (!rs.next() || rs.getInt(1) != 1 || rs.next()) {
                throw new WrongResultException("SELECT 1 did not return exactly one row 1");
            }
        } finally {
            free.add(m);
        }
    }

    @Override
    public void close() {
        for (Member m : all) {
            try {
                m.connection().close();
            } catch (SQLException ignored) {
                // closing: nothing more to release
            }
        }
    }
}
