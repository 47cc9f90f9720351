package io.stillwater.bench.feature.scenarios;

import io.stillwater.bench.feature.scenario.Scripts;
import java.util.StringJoiner;
import java.util.function.LongFunction;

/** Small builders for the catalog's scripts; every script they make is plain text the runner splits on {@code ;}. */
final class ScriptBuilder {
    private ScriptBuilder() {
    }

    /** {@code statement} with a {@code /* expect: V *}{@code /} comment: V is the row's columns joined by one space. */
    static String expect(String statement, Object... columns) {
        StringJoiner v = new StringJoiner(" ");
        for (Object c : columns) {
            v.add(String.valueOf(c));
        }
        return statement + " /* expect: " + v + " */";
    }

    /** {@code statement} marked as the start of the timed span. */
    static String a(String statement) {
        return statement + " " + Scripts.MARK_A;
    }

    /** {@code statement} marked as the end of the timed span. */
    static String b(String statement) {
        return statement + " " + Scripts.MARK_B;
    }

    /** Statements joined into a script, one per line. */
    static String script(String... statements) {
        StringBuilder sb = new StringBuilder();
        for (String s : statements) {
            if (!s.isBlank()) {
                sb.append(s.strip());
                if (!s.strip().endsWith(";")) {
                    sb.append(';');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * {@code count} statements made by {@code statement} (called with 1..count), the first marked A
     * and the last marked B: repetition inside the timed span with a different statement each time.
     */
    static String timedSeries(long count, LongFunction<String> statement) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, got " + count);
        }
        StringBuilder sb = new StringBuilder();
        for (long i = 1; i <= count; i++) {
            String s = statement.apply(i);
            if (i == 1) {
                s = a(s);
            }
            if (i == count) {
                s = b(s);
            }
            sb.append(s).append(";\n");
        }
        return sb.toString();
    }

    /** {@code (1), (2), ..., (count)}: a VALUES list of one integer column. */
    static String valuesList(long count) {
        StringJoiner j = new StringJoiner(", ");
        for (long i = 1; i <= count; i++) {
            j.add("(" + i + ")");
        }
        return j.toString();
    }

    /** {@code INSERT INTO table SELECT <columns> FROM generate_series(from, to) AS g}; columns use {@code g}. */
    static String insertSeries(String table, String columns, long from, long to) {
        return "INSERT INTO " + table + " SELECT " + columns + " FROM generate_series(" + from + ", " + to + ") AS g";
    }

    /** {@code DROP TABLE IF EXISTS t CASCADE} for each table: drops their views, materialized views and indexes too. */
    static String dropTables(String... tables) {
        StringBuilder sb = new StringBuilder();
        for (String t : tables) {
            sb.append("DROP TABLE IF EXISTS ").append(t).append(" CASCADE;\n");
        }
        return sb.toString();
    }
}
