package io.stillwater.engine.peek;

/**
 * Thrown by a read asked to run <em>immediately</em> (see {@link
 * io.stillwater.engine.session.Session#executeImmediate}) when it cannot: its read path
 * is not a bounded one (only a fast-path lookup on the caller's thread is), one of its
 * inputs is not yet readable at the chosen time (the read would have to wait), or it
 * visited more rows than an immediate read may. Nothing of the read is left behind: its
 * inputs and memory are released on the way out, and the caller runs the statement again
 * the ordinary way, on a thread that may block.
 *
 * <p>Control flow, not an error: no stack trace is taken, and it never reaches a client.
 */
public final class NotImmediate extends RuntimeException {
    public NotImmediate(String reason) {
        super(reason, null, false, false);
    }
}
