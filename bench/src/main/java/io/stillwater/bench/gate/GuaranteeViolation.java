package io.stillwater.bench.gate;

/** A guarantee an action missed; {@code actual} is NaN when the action had no successful query. */
public record GuaranteeViolation(String action, Guarantee guarantee, double actual) {
    @Override
    public String toString() {
        return action + ": guaranteed " + guarantee + ", got " + actual;
    }
}
