package io.stillwater.bench.action;

/**
 * A query answered, but not with its {@link ExpectedRows}: counted as a failed query under
 * {@link #getMessage()}, like any SQL error.
 */
public final class WrongResultException extends Exception {
    public WrongResultException(String message) {
        super(message);
    }
}
