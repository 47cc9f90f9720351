package io.stillwater.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.Engine;
import io.stillwater.engine.config.EngineConfig;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.DatumText;
import io.stillwater.engine.types.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real engine on a temp directory and one session on it, for tests of the Session API
 * (no wire). Results are rendered as PostgreSQL text so expectations read like psql output.
 */
abstract class SessionTestBase {
    @TempDir
    Path dir;
    Engine engine;
    Session s;

    @BeforeEach
    void open() {
        engine = Engine.open(new EngineConfig(dir, false, 1));
        s = engine.connect("materialize", "materialize", Map.of());
    }

    @AfterEach
    void close() {
        s.close();
        engine.close();
    }

    /** Closes and reopens the engine on the same directory: a clean restart. */
    void reopen() {
        close();
        open();
    }

    /** Rows rendered as PostgreSQL text, NULL as null. */
    List<List<String>> q(String sql) { return rows(s.execute(sql)); }

    List<List<String>> q(String sql, List<SqlType> hints, List<Object> params) {
        return rows(s.execute(s.prepare(sql, hints), params));
    }

    static List<List<String>> rows(ExecutionResult r) {
        assertThat(r).isInstanceOf(ExecutionResult.Rows.class);
        ExecutionResult.Rows rows = (ExecutionResult.Rows) r;
        List<List<String>> out = new ArrayList<>();
        for (Row row : rows.rows()) {
            List<String> vals = new ArrayList<>();
            for (int i = 0; i < row.arity(); i++) {
                Object v = row.get(i);
                vals.add(v == null ? null : DatumText.format(rows.columns().get(i).type(), v));
            }
            out.add(vals);
        }
        return out;
    }

    /** The CommandComplete tag of a statement. */
    String tag(String sql) {
        ExecutionResult r = s.execute(sql);
        return r instanceof ExecutionResult.Command c ? c.tag() : ((ExecutionResult.Rows) r).tag();
    }

    void assertState(String state, String sql) {
        assertThatThrownBy(() -> s.execute(sql)).isInstanceOf(SqlException.class)
                .satisfies(e -> assertThat(((SqlException) e).state().code()).as(e.getMessage()).isEqualTo(state));
    }
}
