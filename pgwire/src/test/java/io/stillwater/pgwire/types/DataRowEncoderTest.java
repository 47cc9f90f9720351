package io.stillwater.pgwire.types;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.FormatCode;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The direct row encoder writes exactly what the message encoder writes for the same values. */
class DataRowEncoderTest {

    /** One column: its type, its format and a value of it (null allowed). */
    record Column(SqlType type, FormatCode format, Object value) {}

    /** The reference: values encoded one by one with PgTypes, then the DataRow message. */
    private static String viaMessage(List<Column> columns, List<FormatCode> formats) {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            values.add(c.value() == null ? null : PgTypes.encode(c.type(), c.value(), FormatCode.of(formats, i)));
        }
        ByteBuf buf = Unpooled.buffer();
        BackendEncoder.encode(new BackendMessage.DataRow(values), buf);
        return ByteBufUtil.hexDump(buf);
    }

    private static String direct(List<Column> columns, List<FormatCode> formats) {
        DataRowEncoder encoder = new DataRowEncoder(columns.stream().map(Column::type).toList(), formats);
        ByteBuf buf = Unpooled.buffer(4); // small: the encoder must grow it
        encoder.encode(Row.of(columns.stream().map(Column::value).toArray()), buf);
        return ByteBufUtil.hexDump(buf);
    }

    @Property(tries = 500)
    void sameBytesAsTheMessageEncoder(@ForAll("rows") List<Column> columns) {
        // Per-column formats, as the columns ask.
        List<FormatCode> formats = columns.stream().map(Column::format).toList();
        assertThat(direct(columns, formats)).isEqualTo(viaMessage(columns, formats));
    }

    @Property(tries = 200)
    void sameBytesWithOneOrNoFormat(@ForAll("rows") List<Column> columns, @ForAll boolean binary) {
        List<FormatCode> all = List.of(binary ? FormatCode.BINARY : FormatCode.TEXT);
        assertThat(direct(columns, all)).isEqualTo(viaMessage(columns, all));
        assertThat(direct(columns, List.of())).isEqualTo(viaMessage(columns, List.of()));
    }

    @Test
    void integerExtremesInText() {
        for (long v : new long[] {0, 7, -7, 10, -10, 99, 100, Integer.MAX_VALUE, Integer.MIN_VALUE,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1}) {
            List<Column> row = List.of(new Column(SqlType.BIGINT, FormatCode.TEXT, v));
            assertThat(direct(row, List.of())).as("%d", v).isEqualTo(viaMessage(row, List.of()));
        }
    }

    @Provide
    Arbitrary<List<Column>> rows() {
        return column().list().ofMinSize(0).ofMaxSize(8);
    }

    private Arbitrary<Column> column() {
        Arbitrary<FormatCode> format = Arbitraries.of(FormatCode.class);
        Arbitrary<Column> smallint = Combinators.combine(format, Arbitraries.shorts().injectNull(0.1))
                .as((f, v) -> new Column(SqlType.SMALLINT, f, v));
        Arbitrary<Column> integer = Combinators.combine(format, Arbitraries.integers().injectNull(0.1))
                .as((f, v) -> new Column(SqlType.INTEGER, f, v));
        Arbitrary<Column> bigint = Combinators.combine(format, Arbitraries.longs().injectNull(0.1))
                .as((f, v) -> new Column(SqlType.BIGINT, f, v));
        // Any chars, unpaired surrogates included: both paths must replace them alike.
        Arbitrary<String> strings = Arbitraries.strings().all().ofMaxLength(40);
        Arbitrary<Column> text = Combinators.combine(format, strings.injectNull(0.1))
                .as((f, v) -> new Column(SqlType.TEXT, f, v));
        Arbitrary<Column> varchar = Combinators.combine(format, strings)
                .as((f, v) -> new Column(SqlType.of(io.stillwater.engine.types.TypeKind.VARCHAR), f, v));
        Arbitrary<Column> bool = Combinators.combine(format, Arbitraries.of(true, false))
                .as((f, v) -> new Column(SqlType.BOOLEAN, f, v));
        Arbitrary<Column> numeric = Combinators.combine(format, Arbitraries.bigDecimals()
                        .between(new BigDecimal("-1e12"), new BigDecimal("1e12")).ofScale(3))
                .as((f, v) -> new Column(SqlType.of(io.stillwater.engine.types.TypeKind.NUMERIC), f, v));
        Arbitrary<Column> date = Combinators.combine(format, Arbitraries.integers().between(-100_000, 100_000))
                .as((f, d) -> new Column(SqlType.of(io.stillwater.engine.types.TypeKind.DATE), f,
                        LocalDate.ofEpochDay(d)));
        Arbitrary<Column> unknown = Combinators.combine(format, strings)
                .as((f, v) -> new Column(SqlType.of(io.stillwater.engine.types.TypeKind.UNKNOWN), f, v));
        return Arbitraries.oneOf(smallint, integer, bigint, text, varchar, bool, numeric, date, unknown);
    }
}
