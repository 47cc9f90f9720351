package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import io.stillwater.engine.catalog.IndexDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Changes;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.table.Table;
import io.stillwater.engine.types.DatumText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Enforces unique indexes (CREATE UNIQUE INDEX): no two rows of a table have equal keys,
 * NULL keys being distinct from everything, as in PostgreSQL. Checked where writes are
 * sequenced: {@link WritePipeline} calls {@link #admit} for every table write while it
 * holds the write lock, before the write gets its timestamp, so concurrent writers are
 * checked one after another against everything written before them (applied or still
 * pending). A write that would duplicate a key fails whole with 23505 and nothing of it
 * is written.
 *
 * <p>The check is on the write's net effect per key (an UPDATE that retracts and re-inserts
 * a key is fine), i.e. like a constraint checked at the end of the statement; PostgreSQL
 * checks row by row, so {@code UPDATE t SET k = k + 1} over consecutive keys fails there and
 * succeeds here.
 *
 * <p>State: per unique index, the multiplicity of every non-NULL key, including writes
 * admitted but not yet applied. Built from the table's contents the first time a write
 * touches the table (with nothing pending, so contents and map agree), then kept up to
 * date by {@link #admit}. Guarded by the pipeline's write lock; {@link #forget} drops it
 * all when an admitted write could not be made durable (it is rebuilt on next use).
 */
final class UniqueConstraints {
    private final AppliedState state;
    /** By index id: key -> number of rows with it. Write lock. */
    private final Map<Long, Map<Row, Integer>> keys = new HashMap<>();

    UniqueConstraints(AppliedState state) { this.state = state; }

    /**
     * Checks {@code changes} against every unique index of the tables they write and, if
     * none is violated, records their keys. {@code awaitApplied} waits until every
     * admitted write is applied (needed before a map is built from a table's contents),
     * {@code readTime} then gives the time at which the tables hold all of them.
     *
     * @throws SqlException 23505 {@code duplicate key value violates unique constraint}
     */
    void admit(List<TableChange> changes, Runnable awaitApplied, LongSupplier readTime) {
        Catalog catalog = state.catalog();
        List<IndexDef> unique = new ArrayList<>();
        for (IndexDef i : catalog.indexes()) if (i.unique()) unique.add(i);
        keys.keySet().removeIf(id -> unique.stream().noneMatch(i -> i.id() == id)); // dropped indexes
        if (unique.isEmpty()) return;
        Map<IndexDef, Map<Row, Integer>> deltas = new LinkedHashMap<>();
        for (IndexDef index : unique) {
            Optional<TableDef> table = catalog.tables().stream().filter(t -> t.id() == index.onId()).findFirst();
            if (table.isEmpty()) continue;
            int[] columns = keyColumns(table.get(), index);
            Map<Row, Integer> delta = null;
            for (TableChange ch : changes) {
                if (ch.tableId() != index.onId()) continue;
                Row key = key(ch.row(), columns);
                if (key == null) continue;
                if (delta == null) delta = new HashMap<>();
                delta.merge(key, (int) ch.diff(), Integer::sum);
            }
            if (delta == null) continue;
            Map<Row, Integer> existing = keys.get(index.id());
            if (existing == null) {
                awaitApplied.run();
                existing = build(table.get(), columns, readTime.getAsLong());
                keys.put(index.id(), existing);
            }
            for (var e : delta.entrySet()) {
                if (e.getValue() > 0 && existing.getOrDefault(e.getKey(), 0) + e.getValue() > 1) {
                    throw new SqlException(SqlState.UNIQUE_VIOLATION,
                            "duplicate key value violates unique constraint \"" + index.name() + "\"",
                            "Key " + describe(table.get(), columns, e.getKey()) + " already exists.", null);
                }
            }
            deltas.put(index, delta);
        }
        // All checks passed: only now record the keys, so a refused write leaves no trace.
        deltas.forEach((index, delta) -> {
            Map<Row, Integer> existing = keys.get(index.id());
            delta.forEach((k, d) -> {
                int n = existing.getOrDefault(k, 0) + d;
                if (n <= 0) existing.remove(k);
                else existing.put(k, n);
            });
        });
    }

    /** Drops every map (an admitted write was not made durable); they are rebuilt from the tables on next use. */
    void forget() { keys.clear(); }

    /**
     * For CREATE UNIQUE INDEX, with nothing pending: fails with 23505 {@code could not create
     * unique index} if the table already holds two rows with the same key.
     */
    void checkBuildable(TableDef table, IndexDef index, long readTime) {
        int[] columns = keyColumns(table, index);
        Map<Row, Integer> seen = new HashMap<>();
        Changes rows = state.table(table.id()).map(t -> t.read(readTime)).orElseGet(Changes::new);
        for (int i = 0; i < rows.size(); i++) {
            Row key = key(rows.row(i), columns);
            if (key == null) continue;
            if (seen.merge(key, (int) rows.diff(i), Integer::sum) > 1) {
                throw new SqlException(SqlState.UNIQUE_VIOLATION, "could not create unique index \"" + index.name() + "\"",
                        "Key " + describe(table, columns, key) + " is duplicated.", null);
            }
        }
    }

    private Map<Row, Integer> build(TableDef table, int[] columns, long readTime) {
        Map<Row, Integer> out = new HashMap<>();
        Optional<Table> t = state.table(table.id());
        if (t.isEmpty()) return out;
        Changes rows = t.get().read(readTime);
        for (int i = 0; i < rows.size(); i++) {
            Row key = key(rows.row(i), columns);
            if (key != null) out.merge(key, (int) rows.diff(i), Integer::sum);
        }
        return out;
    }

    /**
     * The key columns of a unique index: its key SQL texts are column names (quoted or
     * not), which CREATE UNIQUE INDEX made sure of.
     */
    static int[] keyColumns(TableDef table, IndexDef index) {
        int[] out = new int[index.keySql().size()];
        for (int k = 0; k < out.length; k++) out[k] = columnOf(table, index.keySql().get(k));
        return out;
    }

    /** The column a key's SQL text names, or -1 when it is an expression. */
    static int columnOf(TableDef table, String keySql) {
        String s = keySql.strip();
        String name = s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")
                ? s.substring(1, s.length() - 1).replace("\"\"", "\"")
                : s.toLowerCase(java.util.Locale.ROOT);
        return table.columnIndex(name).orElse(-1);
    }

    /** The key of {@code row}, or null when a key column is NULL (NULLs never conflict). */
    private static Row key(Row row, int[] columns) {
        Object[] k = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            Object v = row.get(columns[i]);
            if (v == null) return null;
            k[i] = v instanceof BigDecimal d ? d.stripTrailingZeros() : v; // 1.0 and 1.00 are the same key
        }
        return Row.wrap(k);
    }

    /** PostgreSQL's {@code (a, b)=(1, x)}. */
    private static String describe(TableDef table, int[] columns, Row key) {
        StringBuilder names = new StringBuilder("("), values = new StringBuilder("(");
        for (int i = 0; i < columns.length; i++) {
            if (i > 0) {
                names.append(", ");
                values.append(", ");
            }
            names.append(table.columns().get(columns[i]).name());
            values.append(DatumText.format(table.columns().get(columns[i]).type(), key.get(i)));
        }
        return names.append(")=").append(values).append(')').toString();
    }
}
