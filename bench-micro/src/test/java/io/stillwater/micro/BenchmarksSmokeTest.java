package io.stillwater.micro;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.stillwater.engine.data.Row;
import io.stillwater.pgwire.protocol.FormatCode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The benchmarks are not run by the tests (docs/bench.md says how to run them); this checks that
 * each one works: every benchmark of the module runs once through JMH itself (in this JVM, one
 * short iteration, no warm-up) and reports a score, and each benchmark's operation computes the
 * right thing. Never a duration assertion.
 */
class BenchmarksSmokeTest {
    /** Every benchmark method with each of its parameter values: what the JMH run must report. */
    private static final Set<String> EXPECTED = new TreeSet<>(List.of(
            "CursorBenchmark.scanAll batches=1", "CursorBenchmark.scanAll batches=7",
            "CursorBenchmark.seekPointLookup batches=1", "CursorBenchmark.seekPointLookup batches=7",
            "CursorBenchmark.stepKeys batches=1", "CursorBenchmark.stepKeys batches=7",
            "ExpressionBenchmark.filterProject",
            "PlannerBenchmark.prepare shape=AGGREGATE", "PlannerBenchmark.prepare shape=JOIN",
            "PlannerBenchmark.prepare shape=POINT_LOOKUP",
            "SpineBenchmark.compactAndMerge", "SpineBenchmark.insertBatches", "SpineBenchmark.sealBatch",
            "WireEncoderBenchmark.encodeDataRows format=BINARY", "WireEncoderBenchmark.encodeDataRows format=TEXT"));

    @Test
    void everyBenchmarkRunsOnceThroughJmhAndReportsAScore() throws Exception {
        Options options = new OptionsBuilder()
                .include(SpineBenchmark.class.getPackageName() + "\\..*Benchmark\\..*")
                .param("rows", "10000") // CursorBenchmark: a smaller index, for a faster setup
                .forks(0) // in this JVM: the tests take no separate one
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50))
                .verbosity(VerboseMode.SILENT)
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();

        Set<String> ran = new TreeSet<>();
        for (RunResult r : results) {
            var params = r.getParams();
            String name = params.getBenchmark().substring(SpineBenchmark.class.getPackageName().length() + 1);
            StringBuilder label = new StringBuilder(name);
            for (String key : params.getParamsKeys()) {
                if (!key.equals("rows")) label.append(' ').append(key).append('=').append(params.getParam(key));
            }
            ran.add(label.toString());
            double score = r.getPrimaryResult().getScore();
            assertThat(score).as(label.toString()).isPositive().isFinite();
        }
        assertThat(ran).isEqualTo(EXPECTED);
    }

    @Test
    void theSpineMergesEveryBatchAndCompactionConsolidatesRepeatedKeys() {
        SpineBenchmark spine = new SpineBenchmark();
        spine.build();
        long inserted = (long) SpineBenchmark.BATCHES * SpineBenchmark.BATCH_SIZE;
        // every update of every batch is in the trace (random keys repeat across batches, never within
        // one time: a batch is consolidated per (key, val, time))
        long stored = spine.insertBatches();
        assertThat(stored).isLessThanOrEqualTo(inserted).isGreaterThan(inserted / 2);
        SpineBenchmark.SpineToCompact toCompact = new SpineBenchmark.SpineToCompact();
        toCompact.fill(spine);
        long compacted = spine.compactAndMerge(toCompact);
        // at one time, a repeated (key, val) is one update: about 1 - 1/e of the keys are distinct
        assertThat(compacted).isLessThan(stored).isGreaterThan(inserted / 2);
        assertThat(spine.sealBatch().size()).isPositive().isLessThanOrEqualTo(SpineBenchmark.BATCH_SIZE);
    }

    @Test
    void cursorsFindEveryKeyAndScanEveryRow() {
        CursorBenchmark c = new CursorBenchmark();
        c.rows = 5000;
        c.batches = 7;
        c.build();
        Blackhole bh = blackhole();
        assertThat(c.scanAll()).isEqualTo(5000);
        assertThat(c.stepKeys(bh)).isEqualTo(5000);
        for (int i = 0; i < 100; i++) c.seekPointLookup(bh); // random existing keys: must not throw
    }

    @Test
    void theFilterKeepsExactlyTheRowsThatMatchAndProjectsThem() {
        ExpressionBenchmark e = new ExpressionBenchmark();
        e.build();
        assertThat(e.applyAll(blackhole())).isEqualTo(e.expectedKept());
        Row out = e.applyOne(Row.of(600, 9, "abc"));
        assertThat(out).isEqualTo(Row.of(609, "ABC"));
        assertThat(e.applyOne(Row.of(600, 10, "abc"))).isNull();
        assertThat(e.applyOne(Row.of(500, 9, "abc"))).isNull();
    }

    @Test
    void theEncoderWritesOneDataRowMessagePerRowWithEveryColumn() {
        for (FormatCode format : FormatCode.values()) {
            WireEncoderBenchmark w = new WireEncoderBenchmark();
            w.format = format;
            w.build();
            try {
                int bytes = w.encodeAll();
                ByteBuf buf = w.encoded();
                assertThat(buf.readableBytes()).isEqualTo(bytes);
                List<List<byte[]>> messages = new ArrayList<>();
                while (buf.isReadable()) {
                    assertThat(buf.readByte()).isEqualTo((byte) 'D');
                    int end = buf.readerIndex() + buf.readInt();
                    List<byte[]> columns = new ArrayList<>();
                    for (int n = buf.readShort(); n > 0; n--) {
                        byte[] value = new byte[buf.readInt()];
                        buf.readBytes(value);
                        columns.add(value);
                    }
                    assertThat(buf.readerIndex()).isEqualTo(end);
                    messages.add(columns);
                }
                assertThat(messages).hasSize(WireEncoderBenchmark.ROWS).allSatisfy(m -> assertThat(m).hasSize(6));
                List<byte[]> second = messages.get(1);
                if (format == FormatCode.TEXT) {
                    assertThat(second.stream().map(v -> new String(v, StandardCharsets.UTF_8)).toList())
                            .containsExactly("1", "1000000", "customer-1", "10.01", "2026-12-03 14:00:01", "f");
                } else {
                    assertThat(ByteBuffer.wrap(second.get(0)).getInt()).isEqualTo(1);
                    assertThat(ByteBuffer.wrap(second.get(1)).getLong()).isEqualTo(1_000_000L);
                    assertThat(new String(second.get(2), StandardCharsets.UTF_8)).isEqualTo("customer-1");
                    assertThat(second.get(5)).containsExactly(0);
                }
            } finally {
                w.release();
            }
        }
    }

    private static Blackhole blackhole() {
        return new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    }
}
