package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.measure.MetricSamples;
import io.stillwater.bench.feature.measure.StopReason;
import io.stillwater.bench.feature.scenario.Metric;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one side of one run of a scenario produced.
 *
 * @param side "this" or "other"
 * @param runNumber 1-based, per side
 * @param samples per metric measured on this target (a target that exposes no memory has only
 *     WALLCLOCK)
 * @param stop why measuring stopped
 * @param effectiveParams every parameter the scenario depends on plus those the side sets, as
 *     {@code SHOW} reported them on this target (a parameter the target lacks maps to "(absent)")
 * @param messages what a reader should see (parameters applied, memory not available, ...)
 * @param elapsed the whole side run: launch, setup, measurements, cleanup
 */
public record SideRun(String side, int runNumber, Map<Metric, MetricSamples> samples, StopReason stop,
        Map<String, String> effectiveParams, List<String> messages, Duration elapsed) {
    public SideRun {
        var copy = new EnumMap<Metric, MetricSamples>(Metric.class);
        copy.putAll(samples);
        samples = Collections.unmodifiableMap(copy);
        effectiveParams = Collections.unmodifiableMap(new LinkedHashMap<>(effectiveParams));
        messages = List.copyOf(messages);
    }
}
