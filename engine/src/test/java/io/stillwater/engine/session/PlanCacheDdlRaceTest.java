package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.DatumText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Concurrent DDL never makes a cached plan answer wrongly: one session drops and
 * recreates table r with other columns over and over while readers on other sessions run
 * the same statements (cached, and with lifted literals); every answer is one of the
 * table's shapes with its own rows, or 42P01 while the table does not exist.
 */
class PlanCacheDdlRaceTest extends SessionTestBase {
    private static final List<String> SHAPES = List.of("(a int, b int)", "(x text, a int, y int)");
    private static final List<String> ROWS = List.of("(1, 2)", "('z', 1, 7)");

    @Test
    void readersNeverSeeAStalePlanAcrossDropAndCreate() throws Exception {
        int cycles = 150;
        s.execute("CREATE TABLE r " + SHAPES.get(0));
        s.execute("INSERT INTO r VALUES " + ROWS.get(0));
        AtomicBoolean done = new AtomicBoolean();
        Set<String> wrong = ConcurrentHashMap.newKeySet();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        // A permit per read that found rows: the writer awaits one after each INSERT, so every
        // shape is read with its rows however fast the DDL loop runs (planning without Calcite
        // made it fast enough to leave the readers only empty tables).
        Semaphore readRows = new Semaphore(0);
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int reader = t;
            readers.add(Thread.ofPlatform().name("plancache-reader-" + t).start(() -> {
                Session r = engine.connect("materialize", "materialize", Map.of());
                try {
                    for (int i = 0; !done.get(); i++) {
                        String sql = switch ((i + reader) % 3) {
                            case 0 -> "SELECT * FROM r";
                            case 1 -> "SELECT * FROM r WHERE a = 1";
                            default -> "SELECT * FROM r WHERE a = " + (i % 2 == 0 ? 1 : 2);
                        };
                        String outcome = outcome(r, sql);
                        seen.add(outcome);
                        if (outcome.endsWith("|2]") || outcome.endsWith("|7]")) readRows.release();
                        if (!allowed(sql, outcome)) wrong.add(sql + " -> " + outcome);
                    }
                } finally {
                    r.close();
                }
            }));
        }
        try {
            for (int c = 1; c <= cycles; c++) {
                int shape = c % 2;
                s.execute("DROP TABLE r");
                s.execute("CREATE TABLE r " + SHAPES.get(shape));
                readRows.drainPermits();
                s.execute("INSERT INTO r VALUES " + ROWS.get(shape));
                if (c <= 4) readRows.tryAcquire(10, TimeUnit.SECONDS); // the first cycles: both shapes, twice
            }
        } finally {
            done.set(true);
            for (Thread t : readers) t.join();
        }
        assertThat(wrong).isEmpty();
        // Both shapes were read (the race was real, not one side only).
        assertThat(seen).contains("[a, b] [1|2]", "[x, a, y] [z|1|7]");
    }

    private static boolean allowed(String sql, String outcome) {
        if (outcome.startsWith("ERROR 42P01")) return true;
        boolean matches = !sql.endsWith("a = 2");
        return outcome.equals("[a, b] []") || outcome.equals("[x, a, y] []")
                || outcome.equals(matches ? "[a, b] [1|2]" : "[a, b] []")
                || outcome.equals(matches ? "[x, a, y] [z|1|7]" : "[x, a, y] []");
    }

    private static String outcome(Session session, String sql) {
        try {
            ExecutionResult.Rows rows = (ExecutionResult.Rows) session.execute(sql);
            List<String> out = new ArrayList<>();
            for (Row row : rows.rows()) {
                List<String> vals = new ArrayList<>();
                for (int i = 0; i < row.arity(); i++) vals.add(DatumText.format(rows.columns().get(i).type(), row.get(i)));
                out.add(String.join("|", vals));
            }
            return rows.columns().stream().map(ResultColumn::name).toList() + " " + out;
        } catch (SqlException e) {
            return "ERROR " + e.state().code() + " " + e.getMessage();
        }
    }
}
