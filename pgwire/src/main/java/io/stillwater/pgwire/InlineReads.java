package io.stillwater.pgwire;

import java.util.concurrent.atomic.LongAdder;

/**
 * The server's setting and counters for reads answered on the event loop ({@link
 * PgConnectionHandler}'s class comment): whether it may, how many Executes it answered
 * there, and how many went to the connection's thread instead (the engine could not finish
 * them at once, or the worker was busy with earlier messages). Counters: any thread.
 */
final class InlineReads {
    private final boolean enabled;
    private final LongAdder answered = new LongAdder();
    private final LongAdder handedOff = new LongAdder();

    InlineReads(boolean enabled) { this.enabled = enabled; }

    boolean enabled() { return enabled; }

    void answered() { answered.increment(); }

    void handedOff() { handedOff.increment(); }

    long answeredCount() { return answered.sum(); }

    long handedOffCount() { return handedOff.sum(); }
}
