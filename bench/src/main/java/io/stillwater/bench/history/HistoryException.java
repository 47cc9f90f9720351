package io.stillwater.bench.history;

/** The history file cannot be opened, read or written; the message says which file and what to do. */
public final class HistoryException extends RuntimeException {
    public HistoryException(String message, Throwable cause) {
        super(message, cause);
    }

    public HistoryException(String message) {
        super(message);
    }
}
