package io.stillwater.bench.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The scenario loop both benches share: every selected scenario in order, one after another, each
 * announced and its result reported to a {@link Listener}, and whatever escapes one scenario turned
 * into that scenario's failed result, so that one scenario never ends the run. What running a
 * scenario means (how many runs per side, interleaved how, re-run when, compared how) is the bench's
 * own {@code one} function. Stateless; everything runs on the calling thread.
 */
public final class ScenarioLoop {
    private ScenarioLoop() {
    }

    /** Told about each scenario of the loop, on the loop's thread. */
    public interface Listener<S, R> {
        /** Scenario {@code index} (1-based) of {@code total} is about to run. */
        default void started(int index, int total, S scenario) {
        }

        /** A scenario's result, as the loop returns it. */
        default void finished(R result) {
        }
    }

    /**
     * Runs {@code one} on every scenario in order.
     *
     * @param failed the result of a scenario whose run threw (an exception or an error)
     * @return one result per scenario, in order
     */
    public static <S, R> List<R> each(List<S> scenarios, Listener<S, R> listener, Function<S, R> one,
            BiFunction<S, Throwable, R> failed) {
        List<R> out = new ArrayList<>();
        int index = 0;
        for (S scenario : scenarios) {
            index++;
            listener.started(index, scenarios.size(), scenario);
            R r;
            try {
                r = one.apply(scenario);
            } catch (RuntimeException | Error e) {
                r = failed.apply(scenario, e);
            }
            listener.finished(r);
            out.add(r);
        }
        return out;
    }
}
