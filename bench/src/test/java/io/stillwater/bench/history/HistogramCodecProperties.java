package io.stillwater.bench.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.stillwater.bench.stats.LatencyRecorder;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.HdrHistogram.Histogram;

class HistogramCodecProperties {
    /** Reference model: the recorder's own histogram. The history's, rebuilt from the samples, must equal it. */
    @Property(tries = 200)
    void theHistogramRebuiltFromSamplesEqualsTheRecordersAndSurvivesEncoding(
            @ForAll @Size(max = 300) List<@LongRange(min = 0, max = 60_000_000_000L) Long> latencyNanos) {
        LatencyRecorder r = new LatencyRecorder("a");
        long offset = 0;
        for (long l : latencyNanos) {
            r.recordSuccess(offset, l);
            offset += 1_000_000;
        }
        r.recordFailure(offset, 5, "08006: connection failure");
        Histogram fromSamples = HistogramCodec.fromSamples(r.samples());
        assertThat(fromSamples).isEqualTo(r.histogram());
        assertThat(HistogramCodec.decode(HistogramCodec.encode(fromSamples))).isEqualTo(r.histogram());
    }
}
