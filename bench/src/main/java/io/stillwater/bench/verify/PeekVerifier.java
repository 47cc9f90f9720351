package io.stillwater.bench.verify;

import io.stillwater.bench.action.Action;
import io.stillwater.bench.action.SqlErrors;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Self-verification: checks a scenario's {@link PeekExpectation}s against the target's peek history
 * ({@value #RELATION}) after the load phase. A scenario whose queries ran somewhere else than it
 * declares measured the wrong thing, and one whose expectations cannot be checked on the target
 * (no such relation, a column missing, no peek of the action recorded) proves nothing about where
 * they ran: both are INVALID, never green.
 *
 * <p>Peeks are matched to actions by statement text (whitespace collapsed, trailing semicolons
 * dropped). Every recorded peek of an action must meet its expectation, whatever its outcome.
 */
public final class PeekVerifier {
    public static final String RELATION = "mz_introspection.mz_peek_history";
    static final String RUNTIME = "runtime";
    static final String FAST_PATH = "fast_path";
    static final String OFFLOADED = "offloaded";
    /** Column names that may hold the statement text, in order of preference. */
    private static final List<String> STATEMENT = List.of("sql", "statement", "statement_text", "sql_text", "query");

    private PeekVerifier() {
    }

    /** The peek history could not be read, or lacks what the expectations need. */
    public static final class CannotVerifyException extends Exception {
        public CannotVerifyException(String message) {
            super(message);
        }
    }

    /**
     * What verification found: why the run is INVALID (empty when every expectation held) and, per
     * expected action, where its peeks actually ran (kept with the run's messages, so the history and
     * the reports show it on both sides, valid or not).
     */
    public record Verification(List<String> failures, List<String> findings) {
        public Verification {
            failures = List.copyOf(failures);
            findings = List.copyOf(findings);
        }

        static Verification cannotVerify(String why) {
            return new Verification(List.of("cannot verify where the queries ran: " + why), List.of());
        }

        /** "" when every expectation held, else the reason the scenario is INVALID. */
        public String failure() {
            return String.join("; ", failures);
        }
    }

    /** The parameter a replica's runtimes are provisioned from ({@link PeekExpectation.Runtime#READ}). */
    public static final String INTERACTIVE_RUNTIME_FLAG = "enable_compute_interactive_runtime";

    /**
     * Reads the peek history and checks the expectations.
     *
     * @param expectations by action name
     * @param actions the scenario's actions by name (their SQL identifies their peeks)
     * @return "" when every expectation held, else the reason the scenario is INVALID
     */
    public static String verify(Connection c, Map<String, PeekExpectation> expectations, Map<String, Action> actions) {
        return verifyAll(c, expectations, actions).failure();
    }

    /**
     * Reads the peek history and checks the expectations, resolving {@link PeekExpectation.Runtime#READ}
     * on this target first ({@code SHOW enable_compute_interactive_runtime}: on = interactive,
     * off = solo).
     */
    public static Verification verifyAll(Connection c, Map<String, PeekExpectation> expectations,
            Map<String, Action> actions) {
        if (expectations.isEmpty()) {
            return new Verification(List.of(), List.of());
        }
        Map<String, PeekExpectation> resolved = new LinkedHashMap<>();
        if (expectations.values().stream().anyMatch(e -> e.runtime() == PeekExpectation.Runtime.READ)) {
            PeekExpectation.Runtime read;
            try {
                read = readRuntime(c);
            } catch (CannotVerifyException e) {
                return Verification.cannotVerify(e.getMessage());
            }
            expectations.forEach((a, e) -> resolved.put(a, e.resolve(read)));
        } else {
            resolved.putAll(expectations);
        }
        Set<String> needed = new LinkedHashSet<>();
        resolved.values().forEach(e -> needed.addAll(e.neededColumns()));
        List<PeekRecord> rows;
        try {
            rows = read(c, needed);
        } catch (CannotVerifyException e) {
            return Verification.cannotVerify(e.getMessage());
        }
        Map<String, String> sql = new LinkedHashMap<>();
        resolved.keySet().forEach(a -> sql.put(a, sqlOf(actions.get(a))));
        return new Verification(check(resolved, sql, rows), findings(resolved, sql, rows));
    }

    /** The target's read runtime: {@code INTERACTIVE} when the flag is on, {@code SOLO} when off. */
    static PeekExpectation.Runtime readRuntime(Connection c) throws CannotVerifyException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SHOW " + INTERACTIVE_RUNTIME_FLAG)) {
            if (!rs.next()) {
                throw new CannotVerifyException("SHOW " + INTERACTIVE_RUNTIME_FLAG + " returned no row");
            }
            String v = String.valueOf(rs.getString(1)).strip().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "on", "true", "yes", "1" -> PeekExpectation.Runtime.INTERACTIVE;
                case "off", "false", "no", "0" -> PeekExpectation.Runtime.SOLO;
                default -> throw new CannotVerifyException("SHOW " + INTERACTIVE_RUNTIME_FLAG + " gave \"" + v
                        + "\", not a boolean, so the replica's read runtime is unknown");
            };
        } catch (SQLException e) {
            throw new CannotVerifyException("the replica's read runtime is unknown: SHOW " + INTERACTIVE_RUNTIME_FLAG
                    + " failed: " + SqlErrors.describe(e));
        }
    }

    /**
     * Where each expected action's peeks ran, one line per action that has peeks:
     * {@code where "A" ran: 57 peeks in mz_introspection.mz_peek_history; runtime interactive 57;
     * dataflow 57 (expected runtime interactive, dataflow)}. Columns the target does not have are
     * left out.
     */
    public static List<String> findings(Map<String, PeekExpectation> expectations, Map<String, String> sql,
            List<PeekRecord> rows) {
        List<String> out = new ArrayList<>();
        expectations.forEach((action, expected) -> {
            String text = normalize(sql.get(action));
            List<PeekRecord> mine = rows.stream().filter(r -> text.equals(normalize(r.statement()))).toList();
            if (mine.isEmpty()) {
                return;
            }
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (PeekRecord r : mine) {
                if (r.runtime() != null) {
                    counts.merge("runtime " + r.runtime(), 1, Integer::sum);
                }
            }
            for (PeekRecord r : mine) {
                if (r.fastPath() != null) {
                    counts.merge(r.fastPath() ? "fast path" : "dataflow", 1, Integer::sum);
                }
            }
            for (PeekRecord r : mine) {
                if (r.offloaded() != null) {
                    counts.merge(r.offloaded() ? "offloaded" : "not offloaded", 1, Integer::sum);
                }
            }
            StringBuilder b = new StringBuilder("where \"" + action + "\" ran: " + mine.size() + " peeks in " + RELATION);
            counts.forEach((k, n) -> b.append("; ").append(k).append(' ').append(n));
            b.append(" (expected ").append(expected).append(')');
            out.add(b.toString());
        });
        return out;
    }

    /**
     * The matching logic, on rows already read: one reason per action whose expectation failed or
     * could not be checked (no recorded peek); empty when all held.
     *
     * @param sql the SQL of each expected action, by action name
     */
    public static List<String> check(Map<String, PeekExpectation> expectations, Map<String, String> sql,
            List<PeekRecord> rows) {
        List<String> reasons = new ArrayList<>();
        expectations.forEach((action, expected) -> {
            String text = normalize(sql.get(action));
            List<PeekRecord> mine = rows.stream().filter(r -> text.equals(normalize(r.statement()))).toList();
            if (mine.isEmpty()) {
                reasons.add("cannot verify \"" + action + "\": no peek of it in " + RELATION + " (expected "
                        + expected + ")");
                return;
            }
            Map<String, Integer> wrong = new LinkedHashMap<>();
            for (PeekRecord r : mine) {
                String v = expected.violation(r);
                if (!v.isEmpty()) {
                    wrong.merge(v, 1, Integer::sum);
                }
            }
            if (!wrong.isEmpty()) {
                int bad = wrong.values().stream().mapToInt(Integer::intValue).sum();
                List<String> parts = new ArrayList<>();
                wrong.forEach((v, n) -> parts.add(n + " " + v));
                reasons.add("\"" + action + "\" expected " + expected + ", but " + bad + " of " + mine.size()
                        + " peeks in " + RELATION + " did not: " + String.join("; ", parts));
            }
        });
        return reasons;
    }

    /**
     * Reads every row of the peek history of every replica: the history is per replica
     * (read with {@code SET cluster} / {@code SET cluster_replica}) and a scenario's
     * queries run on its own cluster. On a target without {@code mz_cluster_replicas},
     * the history as the connection sees it. The statement column and {@code needed} must
     * exist.
     */
    static List<PeekRecord> read(Connection c, Set<String> needed) throws CannotVerifyException {
        List<String[]> replicas = replicas(c);
        if (replicas.isEmpty()) return readHere(c, needed);
        List<PeekRecord> out = new ArrayList<>();
        try {
            for (String[] r : replicas) {
                set(c, "cluster", r[0]);
                set(c, "cluster_replica", r[1]);
                out.addAll(readHere(c, needed));
            }
        } finally {
            try (Statement st = c.createStatement()) {
                st.execute("RESET cluster");
                st.execute("RESET cluster_replica");
            } catch (SQLException e) {
                // the connection is the verifier's own; nothing else uses its settings
            }
        }
        return out;
    }

    /** (cluster, replica) names of every replica, or none when the target has no such relation. */
    private static List<String[]> replicas(Connection c) {
        List<String[]> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT c.name, r.name FROM mz_catalog.mz_cluster_replicas r JOIN mz_catalog.mz_clusters c ON r.cluster_id = c.id")) {
            while (rs.next()) out.add(new String[] {rs.getString(1), rs.getString(2)});
        } catch (SQLException e) {
            return List.of();
        }
        return out;
    }

    private static void set(Connection c, String variable, String value) throws CannotVerifyException {
        try (Statement st = c.createStatement()) {
            st.execute("SET " + variable + " = '" + value.replace("'", "''") + "'");
        } catch (SQLException e) {
            throw new CannotVerifyException("SET " + variable + " failed: " + SqlErrors.describe(e));
        }
    }

    /** The peek history as this connection's cluster and replica see it. */
    private static List<PeekRecord> readHere(Connection c, Set<String> needed) throws CannotVerifyException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + RELATION)) {
            ResultSetMetaData md = rs.getMetaData();
            Map<String, Integer> columns = new LinkedHashMap<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.put(md.getColumnLabel(i).toLowerCase(Locale.ROOT), i);
            }
            Integer statement = STATEMENT.stream().map(columns::get).filter(i -> i != null).findFirst().orElse(null);
            if (statement == null) {
                throw new CannotVerifyException(RELATION + " has no statement text column (one of " + STATEMENT
                        + "); its columns are " + columns.keySet());
            }
            for (String n : needed) {
                if (!columns.containsKey(n)) {
                    throw new CannotVerifyException(RELATION + " has no column " + n + "; its columns are "
                            + columns.keySet());
                }
            }
            List<PeekRecord> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new PeekRecord(rs.getString(statement), text(rs, columns.get(RUNTIME)),
                        bool(rs, columns.get(FAST_PATH)), bool(rs, columns.get(OFFLOADED)),
                        text(rs, columns.get("outcome"))));
            }
            return out;
        } catch (SQLException e) {
            throw new CannotVerifyException("reading " + RELATION + " failed: " + SqlErrors.describe(e));
        }
    }

    private static String text(ResultSet rs, Integer col) throws SQLException {
        return col == null ? null : rs.getString(col);
    }

    private static Boolean bool(ResultSet rs, Integer col) throws SQLException {
        if (col == null) {
            return null;
        }
        boolean b = rs.getBoolean(col);
        return rs.wasNull() ? null : b;
    }

    /** The SQL a query action sends (the statement its peeks record). */
    static String sqlOf(Action a) {
        return switch (a) {
            case Action.StandaloneQuery q -> q.sql();
            case Action.ReuseConnQuery q -> q.sql();
            case Action.PooledQuery q -> q.sql();
            case Action.ScriptAction s -> throw new IllegalArgumentException(
                    "peek expectations apply to query actions, not to the script \"" + s.name() + "\"");
        };
    }

    static String normalize(String sql) {
        if (sql == null) {
            return "";
        }
        String s = sql.strip().replaceAll("\\s+", " ");
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        return s;
    }
}
