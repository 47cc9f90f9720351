package io.stillwater.bench.history;

import io.stillwater.bench.stats.Sample;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * HdrHistograms as text: base64 of HdrHistogram's compressed encoding, the form the history file
 * stores. Histograms are of successful latencies in microseconds with 3 significant digits, as
 * {@link io.stillwater.bench.stats.LatencyRecorder} records them.
 */
public final class HistogramCodec {
    private HistogramCodec() {
    }

    public static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[n];
        buf.flip();
        buf.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    public static Histogram decode(String text) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(text)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new HistoryException("a stored histogram is corrupt: " + e.getMessage(), e);
        }
    }

    /**
     * The success histogram of a time series: the same histogram the recorder kept, because a
     * sample's latency is the recorder's nanoseconds / 1000 and the recorder recorded
     * floor(nanoseconds / 1000) microseconds. (ScenarioResult carries the series, not the
     * recorder's histogram, so history rebuilds it here.)
     */
    public static Histogram fromSamples(Collection<Sample> samples) {
        Histogram h = new Histogram(3);
        for (Sample s : samples) {
            if (s.ok()) {
                h.recordValue((long) Math.floor(Math.max(0, s.latencyMicros())));
            }
        }
        return h;
    }
}
