package io.stillwater.bench.feature.run;

import io.stillwater.bench.feature.scenario.Metric;
import io.stillwater.bench.runner.TargetLauncher;
import java.util.Map;

/**
 * Memory of a launched target after a measurement, per metric, in MiB:
 * <ul>
 *   <li>in-process (embedded): {@link Metric#MEMORY_HEAP}, heap used after {@code System.gc()};
 *   <li>jar: MEMORY_HEAP after asking the process to collect ({@code jcmd PID GC.run}) read from
 *       {@code mz_internal.mz_process_memory}, and {@link Metric#MEMORY_RSS} from
 *       {@code /proc/PID/status} (VmRSS);
 *   <li>url: MEMORY_HEAP (heap after the last GC) when the target exposes
 *       {@code mz_internal.mz_process_memory}, else nothing.
 * </ul>
 * A metric the target does not expose is absent from the map, never 0.
 */
public final class MemoryProbe {
    private MemoryProbe() {
    }

    public static Map<Metric, Double> sample(TargetLauncher.LaunchedTarget target) {
        throw new UnsupportedOperationException("TODO");
    }
}
