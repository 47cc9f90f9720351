package io.stillwater.bench.gate;

import io.stillwater.bench.stats.ActionStatistics;
import io.stillwater.bench.stats.Direction;
import io.stillwater.bench.stats.Stat;
import java.util.Optional;

/**
 * An absolute bound on one stat of one action, checked on every run of this side (also for
 * loops with {@code reportRegressions(false)}). The bound's direction follows the stat:
 * {@code qps >= limit}, every other stat {@code <= limit} (latencies in ms).
 */
public record Guarantee(Stat stat, double limit) {

    public Guarantee {
        if (Double.isNaN(limit)) {
            throw new IllegalArgumentException("a guarantee needs a numeric limit");
        }
    }

    /** A violation if the stat is worse than the limit or missing (no successful query). */
    public Optional<GuaranteeViolation> check(ActionStatistics stats) {
        double v = stats.value(stat);
        boolean ok = !Double.isNaN(v)
                && (stat.direction() == Direction.LOWER_IS_WORSE ? v >= limit : v <= limit);
        return ok ? Optional.empty() : Optional.of(new GuaranteeViolation(stats.action(), this, v));
    }

    @Override
    public String toString() {
        return stat.key() + (stat.direction() == Direction.LOWER_IS_WORSE ? " >= " : " <= ") + limit;
    }
}
