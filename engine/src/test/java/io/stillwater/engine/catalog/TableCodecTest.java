package io.stillwater.engine.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.engine.storage.LogRecord;
import io.stillwater.engine.types.SqlType;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableCodecTest {
    private final TableDef orders = new TableDef(7, "orders", List.of(
            new ColumnDef("id", SqlType.BIGINT, true, null),
            new ColumnDef("amount", SqlType.numeric(10, 2), false, new BigDecimal("0.00"))));

    @Test
    void theLogRecordCarriesIdNameAndEveryColumnField() {
        LogRecord.CreateTable record = TableCodec.encode(orders);
        assertThat(record.tableId()).isEqualTo(7);
        assertThat(record.name()).isEqualTo("orders");
        assertThat(record.columns()).containsExactly(
                new LogRecord.Column("id", SqlType.BIGINT, true, null),
                new LogRecord.Column("amount", SqlType.numeric(10, 2), false, new BigDecimal("0.00")));
        assertThat(record.types()).isEqualTo(orders.types());
    }

    @Test
    void decodingTheRecordGivesTheSameTable() {
        assertThat(TableCodec.decode(TableCodec.encode(orders))).isEqualTo(orders);
        TableDef keyed = new TableDef(7, "orders", orders.columns(), List.of(0));
        assertThat(TableCodec.encode(keyed).primaryKey()).containsExactly(0);
        assertThat(TableCodec.decode(TableCodec.encode(keyed))).isEqualTo(keyed);
    }
}
