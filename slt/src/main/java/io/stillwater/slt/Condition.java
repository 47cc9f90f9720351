package io.stillwater.slt;

import java.util.Locale;

/** A {@code skipif <engine>} or {@code onlyif <engine>} line guarding the record after it. */
public record Condition(Kind kind, String engine) {
    public enum Kind { SKIPIF, ONLYIF }

    /** True when this condition lets the record run on an engine of the given name. */
    public boolean allows(String engineName) {
        boolean same = engine.equalsIgnoreCase(engineName);
        return kind == Kind.SKIPIF ? !same : same;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + " " + engine;
    }
}
