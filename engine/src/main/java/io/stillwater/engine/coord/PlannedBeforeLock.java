package io.stillwater.engine.coord;

import io.stillwater.engine.catalog.Catalog;
import java.util.Objects;
import java.util.function.Function;

/**
 * DDL planning done before the write lock is taken, so Calcite never runs while every
 * write waits: the plan (or the planning error) made against the catalog current then,
 * with what else it depended on ({@code context}: the resolved cluster, for instance).
 *
 * <p>Under the lock, {@link #against} returns it only if the catalog published now is
 * the very one it was planned on (every DDL publishes a new immutable {@code Catalog}, so
 * identity is the catalog version) and the context is equal; otherwise a DDL committed in
 * between and it plans again, under the lock, against the catalog its records will apply
 * to. A planning error is deferred the same way, so the statement's own checks under the
 * lock (name taken, wrong kind) still come first, as when everything ran under the lock.
 *
 * <p>Owned by one session thread from construction to {@link #against}.
 */
final class PlannedBeforeLock<P> {
    private final Catalog planned;
    private final Object context;
    private final P plan;
    private final RuntimeException failure;

    private PlannedBeforeLock(Catalog planned, Object context, P plan, RuntimeException failure) {
        this.planned = planned;
        this.context = context;
        this.plan = plan;
        this.failure = failure;
    }

    /** Plans against {@code catalog} now (no lock held); a failure is kept for {@link #against}. */
    static <P> PlannedBeforeLock<P> plan(Catalog catalog, Object context, Function<Catalog, P> planning) {
        try {
            return new PlannedBeforeLock<>(catalog, context, planning.apply(catalog), null);
        } catch (RuntimeException e) {
            return new PlannedBeforeLock<>(catalog, context, null, e);
        }
    }

    /**
     * Under the write lock: the plan for {@code current} and {@code context}, made before
     * when they are unchanged (its error thrown now), else made now by {@code planning}.
     */
    P against(Catalog current, Object context, Function<Catalog, P> planning) {
        if (current != planned || !Objects.equals(context, this.context)) return planning.apply(current);
        if (failure != null) throw failure;
        return plan;
    }
}
