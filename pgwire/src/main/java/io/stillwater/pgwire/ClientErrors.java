package io.stillwater.pgwire;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a client is told when serving one of its messages fails, whatever was thrown.
 *
 * <ul>
 *   <li>A {@link SqlException} is the engine's answer: its SQLSTATE, message, detail and hint.
 *   <li>An {@link OutOfMemoryError} (anywhere in the cause chain) is 53200 {@code out of memory}
 *       with a detail that says what to do.
 *   <li>Anything else (a bug: NullPointerException, AssertionError, StackOverflowError, ...)
 *       is XX000 {@code internal error (error id <id>)}; the server log has the stack trace
 *       under the same id, logged once, here.
 * </ul>
 *
 * <p>Invariant: no Java class name, exception text or stack trace reaches a client. An
 * internal-class SqlException (XX000, 58xxx) that wraps a Java exception is treated like
 * that exception: logged with an id, and its message cut before the wrapped exception's text.
 *
 * <p>Thread-safe (stateless).
 */
final class ClientErrors {
    private static final Logger LOG = LoggerFactory.getLogger(ClientErrors.class);

    private ClientErrors() {}

    /** The diagnostic for {@code failure}, logging it with an error id if it is not the client's doing. */
    static Diagnostic diagnose(Throwable failure, Severity severity) {
        if (outOfMemory(failure)) {
            String id = newId();
            log("out of memory", id, failure);
            return new Diagnostic(severity, SqlState.OUT_OF_MEMORY.code(), "out of memory",
                    "The server ran out of memory while serving this request (error id " + id + ").",
                    "Retry when the server is less busy, or make the query need less memory: fewer or narrower "
                            + "result rows (LIMIT, fewer columns), or fewer rows joined, grouped or sorted.");
        }
        if (stackOverflow(failure)) {
            // A statement nested too deeply to evaluate: PostgreSQL's 54001, the client's to fix.
            return new Diagnostic(severity, SqlState.STATEMENT_TOO_COMPLEX.code(), "stack depth limit exceeded", null,
                    "The statement is nested too deeply; simplify it (fewer nested parentheses, subqueries or "
                            + "operator terms).");
        }
        if (failure instanceof SqlException e && !wrapsJavaFailure(e)) {
            return new Diagnostic(severity, e.state().code(),
                    e.getMessage() == null ? "error without a message" : e.getMessage(), e.detail(), e.hint(),
                    e.context());
        }
        String id = newId();
        log("internal error", id, failure);
        String hint = "The server log has the details under this error id.";
        if (failure instanceof SqlException e) {
            return new Diagnostic(severity, e.state().code(), withoutJavaText(e) + " (error id " + id + ")",
                    e.detail(), hint);
        }
        return new Diagnostic(severity, SqlState.INTERNAL_ERROR.code(), "internal error (error id " + id + ")", null, hint);
    }

    /** A short id that ties what the client saw to the server log's entry. */
    static String newId() {
        return String.format("%08x", ThreadLocalRandom.current().nextInt());
    }

    private static boolean stackOverflow(Throwable t) {
        for (int depth = 0; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof StackOverflowError) return true;
        }
        return false;
    }

    private static boolean outOfMemory(Throwable t) {
        for (int depth = 0; t != null && depth < 32; t = t.getCause(), depth++) {
            if (t instanceof OutOfMemoryError) return true;
        }
        return false;
    }

    /** An internal or system error (XX, 58) made from a Java exception rather than a user-facing one. */
    private static boolean wrapsJavaFailure(SqlException e) {
        String cls = e.state().code().substring(0, 2);
        return (cls.equals("XX") || cls.equals("58")) && e.getCause() != null && !(e.getCause() instanceof SqlException);
    }

    /** The message up to where the wrapped exception's text starts ("internal error: java.lang.X: y" → "internal error"). */
    private static String withoutJavaText(SqlException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        Throwable cause = e.getCause();
        String causeText = cause.getMessage();
        int cut = message.indexOf(cause.getClass().getName());
        if (cut < 0 && causeText != null && !causeText.isEmpty() && message.endsWith(causeText)) {
            cut = message.length() - causeText.length(); // "prefix: " + cause.getMessage()
        }
        if (cut >= 0) message = message.substring(0, cut);
        message = message.strip();
        while (message.endsWith(":")) message = message.substring(0, message.length() - 1).strip();
        return message.isEmpty() ? "internal error" : message;
    }

    private static void log(String what, String id, Throwable failure) {
        try {
            LOG.error("{} (error id {}) while serving a client", what, id, failure);
        } catch (Throwable ignored) {
            // Logging itself failed (no memory left for it); the client still gets its id.
        }
    }
}
