package io.stillwater.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.catalog.ColumnDef;
import io.stillwater.engine.catalog.TableDef;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.storage.LogRecord.CatalogEntry;
import io.stillwater.engine.storage.LogRecord.CatalogRemoval;
import io.stillwater.engine.storage.LogRecord.CreateTable;
import io.stillwater.engine.storage.LogRecord.DropTable;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.LogRecord.TableWrite;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class LogRecordCodecTest {

    static List<LogRecord> samples() {
        TableDef t = new TableDef(7, "orders", List.of(
                new ColumnDef("id", SqlType.BIGINT, true, null),
                new ColumnDef("amount", SqlType.numeric(10, 2), false, new BigDecimal("0.00")),
                new ColumnDef("note", SqlType.varchar(20), false, "none")));
        return List.of(
                new CreateTable(t),
                new TableWrite(1_700_000_000_000L, List.of(
                        new TableChange(7, Row.of(1L, new BigDecimal("9.99"), null), 1),
                        new TableChange(7, Row.of(2L, new BigDecimal("-1.50"), "x"), -3))),
                new TableWrite(5, List.of()),
                new CatalogEntry("view", "v1", new byte[] {1, 2, 3}),
                new CatalogEntry("system_parameter", "max_result_size", new byte[0]),
                new CatalogRemoval("view", "v1"),
                new DropTable(7));
    }

    @Test
    void everyRecordKindRoundTrips() {
        for (LogRecord r : samples()) assertThat(LogRecordCodec.decode(LogRecordCodec.encode(r))).isEqualTo(r);
    }

    @Property
    void tableWritesRoundTrip(@ForAll long time, @ForAll @Size(max = 10) List<@From("rows") Row> rows, @ForAll long table) {
        List<TableChange> changes = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) changes.add(new TableChange(table + i, rows.get(i), i % 2 == 0 ? i + 1 : -i));
        TableWrite back = (TableWrite) LogRecordCodec.decode(LogRecordCodec.encode(new TableWrite(time, changes)));
        assertThat(back.time()).isEqualTo(time);
        assertThat(back.changes()).hasSize(changes.size());
        for (int i = 0; i < changes.size(); i++) {
            assertThat(back.changes().get(i).tableId()).isEqualTo(changes.get(i).tableId());
            assertThat(back.changes().get(i).diff()).isEqualTo(changes.get(i).diff());
            RowCodecTest.assertSameRow(back.changes().get(i).row(), changes.get(i).row());
        }
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Row> rows() { return RowCodecTest.rows(); }

    @Test
    void payloadStartsWithTypeAndVersion() {
        byte[] p = LogRecordCodec.encode(new DropTable(3));
        assertThat(p[0]).isEqualTo((byte) LogRecordCodec.DROP_TABLE);
        assertThat(p[1]).isEqualTo((byte) 1);
    }

    @Test
    void unknownTypesAndNewerVersionsAreRefusedNotMisread() {
        assertThat(LogRecordCodec.undecodableReason(new byte[] {42, 1})).contains("unknown record type 42");
        assertThat(LogRecordCodec.undecodableReason(new byte[] {(byte) LogRecordCodec.TABLE_WRITE, 9}))
                .contains("version 9");
        assertThat(LogRecordCodec.undecodableReason(LogRecordCodec.encode(new DropTable(1)))).isNull();
        assertThatThrownBy(() -> LogRecordCodec.decode(new byte[] {42, 1})).isInstanceOf(CorruptDataException.class);
        byte[] trailing = LogRecordCodec.encode(new DropTable(1));
        byte[] longer = java.util.Arrays.copyOf(trailing, trailing.length + 1);
        assertThatThrownBy(() -> LogRecordCodec.decode(longer)).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("unread bytes");
    }

    @Test
    void catalogEntryPayloadIsImmutableAndComparedByContent() {
        byte[] bytes = {1, 2};
        CatalogEntry e = new CatalogEntry("index", "i", bytes);
        bytes[0] = 9;
        assertThat(e.payload()).containsExactly(1, 2);
        e.payload()[1] = 9;
        assertThat(e.payload()).containsExactly(1, 2);
        assertThat(e).isEqualTo(new CatalogEntry("index", "i", new byte[] {1, 2})).hasSameHashCodeAs(new CatalogEntry("index", "i", new byte[] {1, 2}));
    }
}
