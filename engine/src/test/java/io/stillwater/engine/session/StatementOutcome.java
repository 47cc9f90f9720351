package io.stillwater.engine.session;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.types.DatumText;
import java.util.ArrayList;
import java.util.List;

/**
 * What a statement did, as one comparable string, for the equivalence property tests that run
 * the same statement on twin engines (plan cache on/off, fast path on/off): the result columns
 * with their types and the rows as text, sorted (a read's order is unspecified without ORDER
 * BY), or the command tag, or {@code ERROR <SQLSTATE>}.
 */
final class StatementOutcome {
    private StatementOutcome() {}

    static String of(Session session, String sql) {
        try {
            ExecutionResult r = session.execute(sql);
            if (!(r instanceof ExecutionResult.Rows rows)) {
                return r instanceof ExecutionResult.Command c ? c.tag() : r.toString();
            }
            List<String> out = new ArrayList<>();
            for (Row row : rows.rows()) {
                List<String> vals = new ArrayList<>();
                for (int i = 0; i < row.arity(); i++) {
                    Object v = row.get(i);
                    vals.add(v == null ? "NULL" : DatumText.format(rows.columns().get(i).type(), v));
                }
                out.add(String.join("|", vals));
            }
            out.sort(null);
            return rows.columns() + " " + out;
        } catch (SqlException e) {
            return "ERROR " + e.state().code();
        }
    }
}
