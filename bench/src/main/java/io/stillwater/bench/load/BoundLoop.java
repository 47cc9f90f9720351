package io.stillwater.bench.load;

import io.stillwater.bench.stats.LatencyRecorder;

/** A loop ready to run: what executes the action, and where its samples go. */
public record BoundLoop(Loop loop, InvokerFactory invokers, LatencyRecorder recorder) {
}
