package io.stillwater.bench.arrival;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

/**
 * When an open loop issues its events. {@link #schedule} fixes every event's offset before the
 * phase starts, so the number of events depends only on the arrival and the duration, never on
 * how fast the machine (or the target) is: a late dispatch is still issued and its latency is
 * measured from its scheduled offset.
 */
public sealed interface Arrival permits Arrival.Periodic, Arrival.Poisson, Arrival.Gaussian {

    /** Offsets in nanoseconds from the phase start, ascending, all {@code < duration}. */
    long[] schedule(Duration duration, RandomGenerator random);

    /** Events at {@code k / perSecond} for k = 0, 1, ...; fractional rates allowed. */
    record Periodic(double perSecond) implements Arrival {
        public Periodic {
            requirePositive(perSecond, "rate");
        }

        @Override
        public long[] schedule(Duration duration, RandomGenerator random) {
            long total = duration.toNanos();
            double gap = 1e9 / perSecond;
            // ceil(rate * duration) events, computed without accumulating rounding error
            long count = (long) Math.ceil(total / gap - 1e-9);
            long[] out = new long[Math.toIntExact(Math.max(0, count))];
            for (int k = 0; k < out.length; k++) {
                out[k] = Math.round(k * gap);
            }
            return out;
        }
    }

    /** Exponentially distributed gaps with mean {@code 1 / perSecond}; first event at 0. */
    record Poisson(double perSecond) implements Arrival {
        public Poisson {
            requirePositive(perSecond, "rate");
        }

        @Override
        public long[] schedule(Duration duration, RandomGenerator random) {
            return fromGaps(duration, () -> -Math.log(1 - random.nextDouble()) * 1e9 / perSecond);
        }
    }

    /** Gaps of {@code max(0, N(meanGap, stddev))}; first event at 0. */
    record Gaussian(Duration meanGap, Duration stddev) implements Arrival {
        public Gaussian {
            if (meanGap.isNegative() || meanGap.isZero()) {
                throw new IllegalArgumentException("a Gaussian arrival needs a positive mean gap, got " + meanGap);
            }
            if (stddev.isNegative()) {
                throw new IllegalArgumentException("a Gaussian arrival needs a non-negative stddev, got " + stddev);
            }
        }

        @Override
        public long[] schedule(Duration duration, RandomGenerator random) {
            double mean = meanGap.toNanos();
            double sd = stddev.toNanos();
            return fromGaps(duration, () -> Math.max(0, random.nextGaussian(mean, sd)));
        }
    }

    private static long[] fromGaps(Duration duration, DoubleSupplier gapNanos) {
        long total = duration.toNanos();
        long[] out = new long[16];
        int n = 0;
        double t = 0;
        while (t < total) {
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            out[n++] = (long) t;
            t += gapNanos.getAsDouble();
        }
        return Arrays.copyOf(out, n);
    }

    private static void requirePositive(double rate, String what) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("an arrival needs a positive finite " + what + ", got " + rate);
        }
    }
}
