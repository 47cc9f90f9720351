package io.stillwater.engine.sql.planner;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Plans statements too deeply nested for the caller's stack. Calcite's parser, validator
 * and converter recurse once per nesting level, so 5,000 parentheses, a chain of
 * thousands of {@code AND}/{@code OR} terms or 2,000 {@code UNION ALL}s overflow an
 * ordinary thread's stack even though PostgreSQL runs them. Planning runs on the
 * caller's thread first (no cost for ordinary statements); only when it overflowed is it
 * planned again, once, on a fresh thread with a {@link #DEEP_STACK_BYTES} stack (only
 * the pages touched are committed). If that overflows too the statement fails like
 * PostgreSQL's: 54001, stack depth limit exceeded.
 *
 * <p>Threading: the retry thread runs the supplier while the caller waits for it
 * (join), so the supplier sees exactly the state it would on the caller's thread.
 */
final class DeepStack {
    /** Stack of the retry thread: enough for ~20,000-term OR chains and 5,000 parentheses. */
    static final long DEEP_STACK_BYTES = 512L * 1024 * 1024;

    private DeepStack() {}

    /** Runs {@code planning}; reruns it on a deep stack if it overflowed the caller's. */
    static <T> T plan(Supplier<T> planning) {
        try {
            return planning.get();
        } catch (StackOverflowError e) {
            return onDeepStack(planning);
        } catch (RuntimeException e) {
            if (!overflowed(e)) throw e;
            return onDeepStack(planning);
        }
    }

    /** Whether a failure was caused by a stack overflow (Calcite wraps it in parse errors). */
    static boolean overflowed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StackOverflowError) return true;
        }
        return false;
    }

    private static <T> T onDeepStack(Supplier<T> planning) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread planner = new Thread(null, () -> {
            try {
                result.set(planning.get());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "deep-statement-planner", DEEP_STACK_BYTES);
        planner.setDaemon(true);
        planner.start();
        try {
            planner.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SqlException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        }
        Throwable t = failure.get();
        if (t == null) return result.get();
        if (overflowed(t)) throw tooDeep();
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error err) throw err;
        throw new IllegalStateException(t);
    }

    static SqlException tooDeep() {
        return new SqlException(SqlState.STATEMENT_TOO_COMPLEX, "stack depth limit exceeded", null,
                "the statement is nested too deeply; simplify it (fewer nested parentheses, "
                        + "subqueries or operator terms)", null);
    }
}
