package io.stillwater.bench.runner;

import io.stillwater.bench.scenario.Scenario;
import java.lang.reflect.InvocationTargetException;
import java.util.function.Supplier;

/**
 * How the runner gets a scenario: its name (known before construction, for reports and
 * sharding) and a constructor the runner calls itself, so an exception in construction is the
 * scenario's failure, not the run's.
 */
public record ScenarioSource(String name, Supplier<? extends Scenario> constructor) {

    /** The scenario class's public no-argument constructor; the name is its simple name. */
    public static ScenarioSource of(Class<? extends Scenario> type) {
        return new ScenarioSource(type.getSimpleName(), () -> {
            try {
                return type.getDeclaredConstructor().newInstance();
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException r ? r
                        : new IllegalStateException(e.getCause().toString(), e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot construct scenario " + type.getName()
                        + ": it needs a public no-argument constructor (" + e + ")", e);
            }
        });
    }
}
