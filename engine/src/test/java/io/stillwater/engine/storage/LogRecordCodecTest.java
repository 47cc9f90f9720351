package io.stillwater.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stillwater.engine.data.Row;
import io.stillwater.engine.storage.LogRecord.CatalogEntry;
import io.stillwater.engine.storage.LogRecord.CatalogRemoval;
import io.stillwater.engine.storage.LogRecord.Column;
import io.stillwater.engine.storage.LogRecord.CreateTable;
import io.stillwater.engine.storage.LogRecord.DropTable;
import io.stillwater.engine.storage.LogRecord.TableChange;
import io.stillwater.engine.storage.LogRecord.TableWrite;
import io.stillwater.engine.types.SqlType;
import io.stillwater.engine.types.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class LogRecordCodecTest {

    static List<LogRecord> samples() {
        return List.of(
                orders(),
                new TableWrite(1_700_000_000_000L, List.of(
                        new TableChange(7, Row.of(1L, new BigDecimal("9.99"), null), 1),
                        new TableChange(7, Row.of(2L, new BigDecimal("-1.50"), "x"), -3))),
                new TableWrite(5, List.of()),
                new CatalogEntry("view", "v1", new byte[] {1, 2, 3}),
                new CatalogEntry("system_parameter", "max_result_size", new byte[0]),
                new CatalogRemoval("view", "v1"),
                new DropTable(7));
    }

    /** A three-column table with a NOT NULL column and two defaults. */
    static CreateTable orders() {
        return new CreateTable(7, "orders", List.of(
                new Column("id", SqlType.BIGINT, true, null),
                new Column("amount", SqlType.numeric(10, 2), false, new BigDecimal("0.00")),
                new Column("note", SqlType.varchar(20), false, "none")));
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

    @Property(tries = 300)
    void createTableRecordsRoundTrip(@ForAll @Size(max = 12) List<@From("types") SqlType> types,
                                     @ForAll("datums") Object defaultValue, @ForAll long id, @ForAll String name) {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            columns.add(new Column("c" + i + name, types.get(i), i % 2 == 0, i == 0 ? defaultValue : null));
        }
        CreateTable back = (CreateTable) LogRecordCodec.decode(LogRecordCodec.encode(new CreateTable(id, name, columns)));
        assertThat(back.tableId()).isEqualTo(id);
        assertThat(back.name()).isEqualTo(name);
        assertThat(back.types()).isEqualTo(types);
        for (int i = 0; i < columns.size(); i++) {
            assertThat(back.columns().get(i).name()).isEqualTo(columns.get(i).name());
            assertThat(back.columns().get(i).notNull()).isEqualTo(columns.get(i).notNull());
            RowCodecTest.assertSameDatum(back.columns().get(i).defaultValue(), columns.get(i).defaultValue());
        }
    }

    /**
     * The CREATE_TABLE layout is on disk: a record written by earlier versions (which
     * encoded the catalog's table definition directly) is these bytes, built here field by
     * field, and must keep decoding to the same table.
     */
    @Test
    void createTableKeepsItsVersionOneLayout() {
        BinaryWriter w = new BinaryWriter();
        w.writeByte(LogRecordCodec.CREATE_TABLE).writeByte(1);
        w.writeVarLong(7).writeString("orders").writeLength(3);
        w.writeString("id").writeByte(RowCodec.kindCode(TypeKind.BIGINT)).writeVarLong(-1).writeVarLong(-1).writeBoolean(true);
        RowCodec.writeDatum(w, null);
        w.writeString("amount").writeByte(RowCodec.kindCode(TypeKind.NUMERIC)).writeVarLong(10).writeVarLong(2).writeBoolean(false);
        RowCodec.writeDatum(w, new BigDecimal("0.00"));
        w.writeString("note").writeByte(RowCodec.kindCode(TypeKind.VARCHAR)).writeVarLong(20).writeVarLong(-1).writeBoolean(false);
        RowCodec.writeDatum(w, "none");
        byte[] versionOne = w.toByteArray();

        assertThat(LogRecordCodec.decode(versionOne)).isEqualTo(orders());
        assertThat(LogRecordCodec.encode(orders())).isEqualTo(versionOne);
    }

    /** A declared primary key follows the columns; a record without one keeps the version-one bytes above. */
    @Test
    void primaryKeyRoundTripsAfterTheColumns() {
        CreateTable keyed = new CreateTable(7, "orders", orders().columns(), List.of(2, 0));
        CreateTable back = (CreateTable) LogRecordCodec.decode(LogRecordCodec.encode(keyed));
        assertThat(back).isEqualTo(keyed);
        assertThat(back.primaryKey()).containsExactly(2, 0);
        assertThat(((CreateTable) LogRecordCodec.decode(LogRecordCodec.encode(orders()))).primaryKey()).isEmpty();
        byte[] bytes = LogRecordCodec.encode(keyed);
        bytes[bytes.length - 1] = 9; // a key column past the last column
        assertThatThrownBy(() -> LogRecordCodec.decode(bytes)).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("primary key column 9");
    }

    @Provide
    Arbitrary<Row> rows() { return RowCodecTest.rows(); }

    @Provide
    Arbitrary<SqlType> types() { return RowCodecTest.types(); }

    @Provide
    Arbitrary<Object> datums() { return RowCodecTest.datums(); }

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
        byte[] longer = Arrays.copyOf(trailing, trailing.length + 1);
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
