package io.stillwater.slt;

/**
 * A record that did not succeed (including unsupported ones): where, what kind, the SQL, and
 * what was expected and actually seen, ready to print.
 */
public record Failure(Location location, Outcome outcome, String sql, String expected, String actual, String reason) {
    public Failure {
        sql = sql == null ? "" : sql;
        expected = expected == null ? "" : expected;
        actual = actual == null ? "" : actual;
        reason = reason == null ? "" : reason;
    }

    /** Multi-line human-readable form used on the terminal. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(location).append(": ").append(outcome.label());
        if (!reason.isEmpty()) {
            sb.append(": ").append(reason);
        }
        if (!sql.isEmpty()) {
            sb.append("\n    sql:      ").append(indent(sql));
        }
        if (!expected.isEmpty()) {
            sb.append("\n    expected: ").append(indent(expected));
        }
        if (!actual.isEmpty()) {
            sb.append("\n    actual:   ").append(indent(actual));
        }
        return sb.toString();
    }

    private static String indent(String s) {
        return s.replace("\n", "\n              ");
    }
}
