package io.stillwater.engine.catalog;

import java.util.List;

/**
 * An index: an in-memory arrangement of an object's rows (a table, view or materialized
 * view), keyed by expressions over its columns, maintained by the compute replica of
 * {@code cluster}.
 *
 * <p>{@code keySql} holds the SQL text of each key expression as written (a DEFAULT
 * index stores its object's column names, quoted). Planned key expressions are not
 * stored: they are re-planned from the text against the object's columns whenever the
 * dataflow is built (at CREATE and at restart), so the log holds no plan encoding.
 * {@code onId}/{@code onName} name the indexed object; the index is a dependent of it
 * and goes away only before it (CASCADE) or on its own DROP INDEX.
 *
 * <p>A {@code unique} index (CREATE UNIQUE INDEX, on a table, keyed by columns) is also a
 * constraint: no two rows of the table have equal keys (NULLs are distinct), which the
 * coordinator enforces on every write.
 */
public record IndexDef(long id, String name, long onId, String onName, List<String> keySql, String cluster,
                       boolean unique) {
    public IndexDef {
        keySql = List.copyOf(keySql);
    }

    /** An index that is not a constraint. */
    public IndexDef(long id, String name, long onId, String onName, List<String> keySql, String cluster) {
        this(id, name, onId, onName, keySql, cluster, false);
    }

    /** The key as SHOW INDEXES prints it, like Materialize: {@code {a,b}}. */
    public String keyDisplay() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < keySql.size(); i++) {
            if (i > 0) b.append(',');
            b.append(unquoteSimple(keySql.get(i)));
        }
        return b.append('}').toString();
    }

    /** {@code "a"} as {@code a} when quoting is not needed; anything else as written. */
    static String unquoteSimple(String sql) {
        if (sql.length() >= 2 && sql.startsWith("\"") && sql.endsWith("\"")) {
            String inner = sql.substring(1, sql.length() - 1);
            if (inner.matches("[a-z_][a-z0-9_$]*")) return inner;
        }
        return sql;
    }

    /** {@code name} as a quoted SQL identifier. */
    public static String quote(String name) { return "\"" + name.replace("\"", "\"\"") + "\""; }
}
