package io.stillwater.engine.storage;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One atomic entry of the write-ahead log. A record is either entirely in the log or not
 * at all (its checksum covers it whole), so everything that must commit together goes
 * into one record: a transaction's table changes are one {@link TableWrite}.
 *
 * <p>On disk each record is a type byte, a version byte and a body (see {@code
 * LogRecordCodec}). To add a kind of record, add a type here with a new type byte; to add
 * a field, bump that type's version and decode older versions with a default. Old logs
 * stay readable; a log holding records this version does not know is refused at open.
 */
public sealed interface LogRecord {

    /**
     * A table was created: its id (unique for the life of the log), name, columns and
     * declared (not enforced) primary key as 0-based column positions, as plain values. The catalog turns them into its table definition; the log does not
     * know catalog types.
     */
    record CreateTable(long tableId, String name, List<Column> columns, List<Integer> primaryKey) implements LogRecord {
        public CreateTable {
            Objects.requireNonNull(name, "name");
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
        }

        /** A table without a declared primary key. */
        public CreateTable(long tableId, String name, List<Column> columns) { this(tableId, name, columns, List.of()); }

        /** The column types in column order: what a row of this table holds. */
        public List<SqlType> types() { return columns.stream().map(Column::type).toList(); }
    }

    /**
     * One column of a {@link CreateTable}. {@code defaultValue} is a datum of {@code type}
     * (null for DEFAULT NULL), stored as {@link RowCodec#writeDatum} encodes it.
     */
    record Column(String name, SqlType type, boolean notNull, Object defaultValue) {
        public Column {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** The table with this id was dropped; ids are never reused. */
    record DropTable(long tableId) implements LogRecord {}

    /**
     * The changes one transaction (or one group-committed write) made, all at {@code time}
     * (milliseconds since the epoch, from the timestamp oracle). Replay applies all of them
     * or none.
     */
    record TableWrite(long time, List<TableChange> changes) implements LogRecord {
        public TableWrite {
            changes = List.copyOf(changes);
        }
    }

    /** {@code row}'s multiplicity in table {@code tableId} changes by {@code diff}. */
    record TableChange(long tableId, Row row, long diff) {
        public TableChange {
            Objects.requireNonNull(row, "row");
        }
    }

    /**
     * A catalog object other than a table (a view, an index, a cluster, a system
     * parameter...) was created or replaced: {@code kind} names the object kind (e.g.
     * {@code "view"}), {@code name} the object, {@code payload} its definition in an
     * encoding the owner of that kind chooses (typically built with {@link BinaryWriter}
     * and {@link RowCodec}). The log does not interpret it. The last entry for a (kind,
     * name) wins unless a {@link CatalogRemoval} follows.
     */
    record CatalogEntry(String kind, String name, byte[] payload) implements LogRecord {
        public CatalogEntry {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            payload = payload.clone();
        }

        @Override
        public byte[] payload() { return payload.clone(); }

        @Override
        public boolean equals(Object o) {
            return o instanceof CatalogEntry e && kind.equals(e.kind) && name.equals(e.name) && Arrays.equals(payload, e.payload);
        }

        @Override
        public int hashCode() { return Objects.hash(kind, name, Arrays.hashCode(payload)); }

        @Override
        public String toString() { return "CatalogEntry[" + kind + " " + name + ", " + payload.length + " bytes]"; }
    }

    /** The catalog object {@code kind}/{@code name} recorded by a {@link CatalogEntry} was removed. */
    record CatalogRemoval(String kind, String name) implements LogRecord {
        public CatalogRemoval {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
        }
    }
}
