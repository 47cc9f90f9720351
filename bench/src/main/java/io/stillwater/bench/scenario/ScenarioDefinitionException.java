package io.stillwater.bench.scenario;

/** A scenario declared something inconsistent; the message names what and what is valid. */
public final class ScenarioDefinitionException extends IllegalArgumentException {
    public ScenarioDefinitionException(String message) {
        super(message);
    }
}
