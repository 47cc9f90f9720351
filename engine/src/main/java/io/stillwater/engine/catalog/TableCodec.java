package io.stillwater.engine.catalog;

import io.stillwater.engine.storage.LogRecord;
import java.util.List;

/**
 * A table's definition as the log records it: {@link LogRecord.CreateTable} carries the
 * id, name and columns as plain values (storage knows no catalog types), and this class
 * converts between that record and {@link TableDef}. The two hold the same information,
 * so {@code decode(encode(t)).equals(t)}.
 */
public final class TableCodec {
    private TableCodec() {}

    public static LogRecord.CreateTable encode(TableDef table) {
        List<LogRecord.Column> columns = table.columns().stream()
                .map(c -> new LogRecord.Column(c.name(), c.type(), c.notNull(), c.defaultValue()))
                .toList();
        return new LogRecord.CreateTable(table.id(), table.name(), columns, table.primaryKey());
    }

    public static TableDef decode(LogRecord.CreateTable record) {
        List<ColumnDef> columns = record.columns().stream()
                .map(c -> new ColumnDef(c.name(), c.type(), c.notNull(), c.defaultValue()))
                .toList();
        return new TableDef(record.tableId(), record.name(), columns, record.primaryKey());
    }
}
