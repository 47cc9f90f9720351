package io.stillwater.engine.error;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Named places in the engine where a test can make the next pass fail with a throwable
 * of its choosing (an {@link OutOfMemoryError}, a {@link RuntimeException}, ...), to
 * prove that a failure there is contained: the statement fails with an error, and the
 * coordinator, its locks and the replicas stay usable for every other statement.
 *
 * <p>In the spirit of Materialize's failpoints, but armed from Java only (tests of the
 * in-process engine), never from SQL. Disarmed, {@link #hit} costs one volatile read.
 *
 * <p>Thread-safety: any thread may arm, disarm or hit. An armed fault fires once, on
 * whichever thread reaches its point first, and is then disarmed.
 */
public final class FaultPoints {
    /** Where a fault can be injected. */
    public enum Point {
        /** The write path: under the coordinator's write lock, before the record is appended to the log. */
        WRITE,
        /** The apply path: a durable record being applied to the tables and handed to the replicas. */
        APPLY,
        /** A read: a peek about to run on its replica (any path but constants). */
        PEEK
    }

    private static final Map<Point, Supplier<? extends Throwable>> ARMED = new ConcurrentHashMap<>();
    /** True while anything is armed: the fast path of {@link #hit}. */
    private static volatile boolean anyArmed;

    private FaultPoints() {}

    /** Makes the next {@link #hit} of {@code point} throw {@code fault.get()} (once). */
    public static void arm(Point point, Supplier<? extends Throwable> fault) {
        ARMED.put(point, fault);
        anyArmed = true;
    }

    /** Disarms {@code point} if it has not fired yet. */
    public static void disarm(Point point) {
        ARMED.remove(point);
        anyArmed = !ARMED.isEmpty();
    }

    /** Disarms every point. */
    public static void disarmAll() {
        ARMED.clear();
        anyArmed = false;
    }

    /** Whether {@code point} is armed and has not fired yet. */
    public static boolean armed(Point point) { return ARMED.containsKey(point); }

    /** Throws the fault armed at {@code point}, if any, and disarms it. */
    public static void hit(Point point) {
        if (!anyArmed) return;
        Supplier<? extends Throwable> fault = ARMED.remove(point);
        anyArmed = !ARMED.isEmpty();
        if (fault != null) throw FaultPoints.<RuntimeException>sneaky(fault.get());
    }

    /** Throws any throwable (checked ones included) without declaring it. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
