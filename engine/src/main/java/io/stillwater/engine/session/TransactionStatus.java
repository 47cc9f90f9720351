package io.stillwater.engine.session;

/** A session's transaction state, as ReadyForQuery reports it ('I', 'T', 'E'). */
public enum TransactionStatus {
    IDLE('I'), IN_TRANSACTION('T'), FAILED('E');

    private final char indicator;

    TransactionStatus(char indicator) { this.indicator = indicator; }

    /** The ReadyForQuery status byte. */
    public char indicator() { return indicator; }
}
