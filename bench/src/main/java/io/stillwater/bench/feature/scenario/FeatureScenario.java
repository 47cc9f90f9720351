package io.stillwater.bench.feature.scenario;

import io.stillwater.bench.scenario.Capability;
import java.util.Map;
import java.util.Set;

/**
 * A feature-benchmark scenario: one concrete subclass per scenario; abstract subclasses are the
 * groups {@code --root-scenario} selects (every concrete class below the named one).
 *
 * <pre>{@code
 * public final class FastPathFilterIndex extends FastPath {
 *     public String init() {
 *         return "CREATE TABLE t (f1 int);"
 *              + "INSERT INTO t SELECT g FROM generate_series(1, " + n() + ") g;"
 *              + "CREATE DEFAULT INDEX ON t";
 *     }
 *     public Body benchmark() {
 *         return Body.script(repeatTimed(100, "SELECT * FROM t WHERE f1 = 1"));
 *     }
 * }
 * }</pre>
 *
 * <p>Life cycle on one side of one run: the runner launches the target, runs {@link #cleanup()} (so
 * a shared url server starts clean), {@link #shared()} (once per target), {@link #init()} (once per
 * instance), then for each measurement {@link #before()} and {@link #benchmark()} on a fresh
 * connection, then {@link #cleanup()} again. Scripts are statements separated by {@code ;} (see
 * {@link Scripts}).
 *
 * <p>Scale: {@link #scale()} is the effective SCALE of this instance, {@link #n()} = 10^scale rows.
 * The framework sets it once ({@link #applyScale}) before any other method is called; scenarios
 * read it, never set it.
 */
public abstract class FeatureScenario {
    /** SCALE when a scenario does not say otherwise: 10^5 rows. */
    public static final double DEFAULT_SCALE = 5;

    private double scale = Double.NaN;

    /** The scenario's name in reports and history: the class's simple name. */
    public final String name() {
        return getClass().getSimpleName();
    }

    /** Bump when what the scenario measures changes, so history never compares different workloads. */
    public String version() {
        return "1.0.0";
    }

    /** SCALE: the scenario's default scale (rows = 10^SCALE). */
    public double defaultScale() {
        return DEFAULT_SCALE;
    }

    /** FIXED_SCALE: when true, {@code --scale} does not change this scenario's scale. */
    public boolean fixedScale() {
        return false;
    }

    /** What the target must offer; a target lacking one skips the scenario with the reason. */
    public Set<Capability> requires() {
        return Set.of();
    }

    /** Whether the body restarts the target ({@link FeatureContext#restart()}): skipped on url targets. */
    public boolean restarts() {
        return false;
    }

    /**
     * The system parameters whose effective value this scenario depends on: the report prints each
     * one's value read back from each side (with the parameters either side sets).
     */
    public Set<String> dependsOnParams() {
        return Set.of();
    }

    /** Relative threshold per metric; the default is the metric's ({@link Metric#defaultThreshold()}). */
    public Map<Metric, Double> thresholds() {
        return Map.of();
    }

    /** The threshold this scenario uses for {@code metric}. */
    public final double threshold(Metric metric) {
        return thresholds().getOrDefault(metric, metric.defaultThreshold());
    }

    /** Setup common to many scenarios, run once per target (deduplicated by text on a shared url target). */
    public String shared() {
        return "";
    }

    /** Setup of this scenario, run once per instance (per side and run), untimed. */
    public String init() {
        return "";
    }

    /** Run before every measurement, untimed. */
    public String before() {
        return "";
    }

    /** The work of one measurement; see {@link Body}. */
    public abstract Body benchmark();

    /**
     * Drops what {@link #shared()} and {@link #init()} create ({@code DROP ... IF EXISTS ...}): run
     * before {@code shared()} and after the last measurement, so a shared url target is left as found.
     */
    public String cleanup() {
        return "";
    }

    /** The effective SCALE; valid once the framework applied it. */
    public final double scale() {
        if (Double.isNaN(scale)) {
            throw new IllegalStateException(name() + ": scale() read before the framework applied the scale");
        }
        return scale;
    }

    /** Rows at the effective scale: {@code round(10^scale)}, at least 1. */
    public final long n() {
        return Math.max(1, Math.round(Math.pow(10, scale())));
    }

    /**
     * Sets the effective scale from the command line's {@code --scale} (the framework calls this
     * once, before anything else).
     */
    public final void applyScale(ScaleOption option) {
        if (!Double.isNaN(scale)) {
            throw new IllegalStateException(name() + ": the scale is already applied");
        }
        scale = option.effective(defaultScale(), fixedScale());
    }

    /**
     * {@code statement} repeated {@code times} times, separated by {@code ;}, the first copy marked
     * A and the last marked B: repetition inside the timed span, for statements too quick to time
     * one at a time.
     */
    protected static String repeatTimed(int times, String statement) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1, got " + times);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < times; i++) {
            sb.append(statement);
            if (i == 0) {
                sb.append(" ").append(Scripts.MARK_A);
            }
            if (i == times - 1) {
                sb.append(" ").append(Scripts.MARK_B);
            }
            sb.append(";\n");
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return name();
    }
}
