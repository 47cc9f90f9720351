package io.stillwater.micro;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.stillwater.engine.data.Row;
import io.stillwater.engine.types.SqlType;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.FormatCode;
import io.stillwater.pgwire.types.PgTypes;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The wire encoder: a result row {@code (int, bigint, text, numeric, timestamp, boolean)} turned
 * into a DataRow message's bytes, in the text or the binary format. The steps are those of
 * {@code ConnectionWorker.dataRow} (each datum through {@link PgTypes#encode}, a
 * {@link BackendMessage.DataRow}) followed by {@link BackendEncoder#encode} into a buffer, as the
 * Netty pipeline writes it; the buffer is reused so allocation by the encoder itself shows in
 * {@code -prof gc}. Time per row, over {@value #ROWS} distinct rows.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WireEncoderBenchmark {
    static final int ROWS = 256;
    static final List<SqlType> TYPES = List.of(SqlType.INTEGER, SqlType.BIGINT, SqlType.TEXT, SqlType.NUMERIC,
            SqlType.TIMESTAMP, SqlType.BOOLEAN);

    @Param({"TEXT", "BINARY"})
    public FormatCode format;

    private Row[] rows;
    private ByteBuf out;

    @Setup(Level.Trial)
    public void build() {
        rows = new Row[ROWS];
        LocalDateTime base = LocalDateTime.of(2026, 12, 3, 14, 0);
        for (int i = 0; i < ROWS; i++) {
            rows[i] = Row.of(i, 1_000_000L * i, "customer-" + i, new BigDecimal(i).movePointLeft(2).add(BigDecimal.TEN),
                    base.plusSeconds(i), i % 2 == 0);
        }
        out = Unpooled.buffer(64 * 1024);
    }

    @TearDown(Level.Trial)
    public void release() {
        out.release();
    }

    /** The DataRow of {@code row}: each non-null datum encoded in the format, NULL as a null value. */
    BackendMessage.DataRow dataRow(Row row) {
        List<byte[]> values = new ArrayList<>(TYPES.size());
        for (int i = 0; i < TYPES.size(); i++) {
            Object v = row.get(i);
            values.add(v == null ? null : PgTypes.encode(TYPES.get(i), v, format));
        }
        return new BackendMessage.DataRow(values);
    }

    /** Encodes every row into the buffer; returns the bytes written (for the smoke test). */
    int encodeAll() {
        out.clear();
        for (Row r : rows) BackendEncoder.encode(dataRow(r), out);
        return out.readableBytes();
    }

    /** The buffer {@link #encodeAll} wrote (for the smoke test). */
    ByteBuf encoded() {
        return out;
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int encodeDataRows() {
        return encodeAll();
    }
}
