package io.stillwater.engine.storage;

import io.stillwater.engine.storage.LogRecord.CatalogEntry;
import io.stillwater.engine.storage.LogRecord.CatalogRemoval;
import io.stillwater.engine.storage.LogRecord.Column;
import io.stillwater.engine.storage.LogRecord.CreateTable;
import io.stillwater.engine.storage.LogRecord.DropTable;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.LogRecord.TableWrite;
import java.util.ArrayList;
import java.util.List;

/**
 * Record payloads: {@code [type byte][version byte][body]}. The type bytes and each
 * type's body layout per version are the on-disk format: never renumber a type or change
 * an existing version's layout; add a type, or a version that decoders still read the old
 * way.
 */
final class LogRecordCodec {
    private LogRecordCodec() {}

    static final int CREATE_TABLE = 1;
    static final int DROP_TABLE = 2;
    static final int TABLE_WRITE = 3;
    static final int CATALOG_ENTRY = 4;
    static final int CATALOG_REMOVAL = 5;

    /** The newest version of each type this code writes and reads, indexed by type byte. */
    private static final int[] CURRENT_VERSION = {0, 1, 1, 1, 1, 1};

    /** Smallest possible payload: a type and a version byte. */
    static final int MIN_PAYLOAD = 2;

    static byte[] encode(LogRecord record) {
        BinaryWriter w = new BinaryWriter(64);
        switch (record) {
            case CreateTable c -> {
                header(w, CREATE_TABLE);
                writeCreateTable(w, c);
            }
            case DropTable d -> {
                header(w, DROP_TABLE);
                w.writeVarLong(d.tableId());
            }
            case TableWrite t -> {
                header(w, TABLE_WRITE);
                w.writeVarLong(t.time()).writeLength(t.changes().size());
                for (TableChange c : t.changes()) {
                    w.writeVarLong(c.tableId()).writeVarLong(c.diff());
                    RowCodec.writeRow(w, c.row());
                }
            }
            case CatalogEntry e -> {
                header(w, CATALOG_ENTRY);
                w.writeString(e.kind()).writeString(e.name()).writeByteArray(e.payload());
            }
            case CatalogRemoval e -> {
                header(w, CATALOG_REMOVAL);
                w.writeString(e.kind()).writeString(e.name());
            }
        }
        return w.toByteArray();
    }

    private static void header(BinaryWriter w, int type) {
        w.writeByte(type).writeByte(CURRENT_VERSION[type]);
    }

    /**
     * Null when this version can decode a payload starting with these bytes, else why not.
     * Recovery checks this before it truncates anything, so a log written by a newer
     * version is refused rather than cut short.
     */
    static String undecodableReason(byte[] payload) {
        if (payload.length < MIN_PAYLOAD) return "record of " + payload.length + " bytes has no type";
        int type = payload[0] & 0xFF;
        int version = payload[1] & 0xFF;
        if (type == 0 || type >= CURRENT_VERSION.length) return "unknown record type " + type;
        if (version == 0 || version > CURRENT_VERSION[type]) {
            return "record type " + type + " has version " + version + ", this version of Stillwater reads up to " + CURRENT_VERSION[type];
        }
        return null;
    }

    static LogRecord decode(byte[] payload) {
        String why = undecodableReason(payload);
        if (why != null) throw new CorruptDataException(why);
        BinaryReader r = new BinaryReader(payload, 2, payload.length - 2);
        LogRecord record = switch (payload[0]) {
            case CREATE_TABLE -> readCreateTable(r);
            case DROP_TABLE -> new DropTable(r.readVarLong());
            case TABLE_WRITE -> {
                long time = r.readVarLong();
                int n = r.readLength();
                if (n > r.remaining()) throw new CorruptDataException(n + " changes in " + r.remaining() + " bytes");
                List<TableChange> changes = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    long table = r.readVarLong();
                    long diff = r.readVarLong();
                    changes.add(new TableChange(table, RowCodec.readRow(r), diff));
                }
                yield new TableWrite(time, changes);
            }
            case CATALOG_ENTRY -> new CatalogEntry(r.readString(), r.readString(), r.readByteArray());
            case CATALOG_REMOVAL -> new CatalogRemoval(r.readString(), r.readString());
            default -> throw new AssertionError("checked by undecodableReason");
        };
        if (r.hasRemaining()) throw new CorruptDataException(r.remaining() + " unread bytes after a record of type " + payload[0]);
        return record;
    }

    /**
     * CREATE_TABLE version 1 body: id (varlong), name (string), column count, then per
     * column its name (string), type ({@link RowCodec#writeType}), NOT NULL (boolean) and
     * default ({@link RowCodec#writeDatum}); then, only when the table declares a primary
     * key, its column count and 0-based column positions (lengths). Records written before
     * primary keys were recorded end after the columns and read as tables without one.
     */
    private static void writeCreateTable(BinaryWriter w, CreateTable c) {
        w.writeVarLong(c.tableId()).writeString(c.name()).writeLength(c.columns().size());
        for (Column col : c.columns()) {
            w.writeString(col.name());
            RowCodec.writeType(w, col.type());
            w.writeBoolean(col.notNull());
            RowCodec.writeDatum(w, col.defaultValue());
        }
        if (!c.primaryKey().isEmpty()) {
            w.writeLength(c.primaryKey().size());
            for (int k : c.primaryKey()) w.writeLength(k);
        }
    }

    private static CreateTable readCreateTable(BinaryReader r) {
        long id = r.readVarLong();
        String name = r.readString();
        int n = r.readLength();
        if (n > r.remaining()) throw new CorruptDataException("table of " + n + " columns in " + r.remaining() + " bytes");
        List<Column> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            columns.add(new Column(r.readString(), RowCodec.readType(r), r.readBoolean(), RowCodec.readDatum(r)));
        }
        List<Integer> primaryKey = new ArrayList<>();
        if (r.hasRemaining()) {
            int keys = r.readLength();
            if (keys > r.remaining()) throw new CorruptDataException("primary key of " + keys + " columns in " + r.remaining() + " bytes");
            for (int i = 0; i < keys; i++) {
                int k = r.readLength();
                if (k >= n) throw new CorruptDataException("primary key column " + k + " of a table of " + n + " columns");
                primaryKey.add(k);
            }
        }
        return new CreateTable(id, name, columns, primaryKey);
    }
}
