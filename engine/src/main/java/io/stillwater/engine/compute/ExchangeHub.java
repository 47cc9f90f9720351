package io.stillwater.engine.compute;

import io.stillwater.engine.data.Changes;
import io.stillwater.engine.dataflow.Exchange;
import java.util.Arrays;
import java.util.concurrent.Phaser;

/**
 * The exchange channel of one data-parallel dataflow: the mailboxes and barrier its
 * {@code W} worker copies meet at. Every worker processes the same command sequence and
 * steps its copy through the same nodes in the same order, so the n-th exchange call of
 * every worker is the same round (see {@link Exchange}).
 *
 * <p>Mailboxes are double-buffered by round parity: worker {@code w} writes
 * {@code mail[parity][w][*]}, arrives at the barrier, then reads {@code mail[parity][*][w]}.
 * A worker can only write the same parity again two rounds later, after passing the next
 * barrier, which needs every peer to have finished reading this one: one barrier per
 * round suffices. The {@link Phaser} gives the happens-before between writes and reads.
 *
 * <p>Failure: {@link #abort} (an operator failed on some worker, the dataflow is torn
 * down, or the replica closes) terminates the phaser, which releases every worker
 * waiting now or later; they throw {@link Aborted} and fail their copy. So a failure in
 * one worker never leaves the others blocked.
 */
final class ExchangeHub {
    /** Thrown in a worker whose exchange partner aborted the dataflow. */
    static final class Aborted extends RuntimeException {
        Aborted(Throwable cause) {
            super("dataflow aborted: " + cause, cause);
        }
    }

    private final int peers;
    private final Phaser phaser;
    private final Object[][][] mail;
    /** Round counters, element {@code w} owned by worker {@code w}. */
    private final long[] rounds;
    private volatile Throwable failure;

    ExchangeHub(int peers) {
        this.peers = peers;
        this.phaser = new Phaser(peers);
        this.mail = new Object[2][peers][peers];
        this.rounds = new long[peers];
    }

    int peers() { return peers; }

    boolean isAborted() { return failure != null; }

    Throwable failure() { return failure; }

    /** Fails the dataflow for every worker; idempotent (the first cause wins). */
    void abort(Throwable cause) {
        synchronized (this) {
            if (failure == null) failure = cause;
        }
        phaser.forceTermination();
    }

    /** One all-to-all round for worker {@code self}: returns what each peer sent it, by peer. */
    Object[] allToAll(int self, Object[] outgoing) {
        if (failure != null) throw new Aborted(failure);
        int parity = (int) (rounds[self]++ & 1);
        Object[][] box = mail[parity];
        for (int p = 0; p < peers; p++) box[self][p] = outgoing[p];
        int phase = phaser.arriveAndAwaitAdvance();
        if (phase < 0 || failure != null) throw new Aborted(failure == null ? new IllegalStateException("terminated") : failure);
        Object[] in = new Object[peers];
        for (int p = 0; p < peers; p++) {
            in[p] = box[p][self];
            box[p][self] = null; // only self reads this slot; free it for the GC
        }
        return in;
    }

    /** The maximum of every worker's {@code value}. A round like any other. */
    long allMax(int self, long value) {
        Object[] out = new Object[peers];
        Arrays.fill(out, value);
        long max = Long.MIN_VALUE;
        for (Object o : allToAll(self, out)) max = Math.max(max, (Long) o);
        return max;
    }

    /** Worker {@code self}'s end, as the dataflow package's {@link Exchange}. */
    Exchange endpoint(int self) {
        return new Exchange() {
            @Override
            public int peers() { return peers; }

            @Override
            public int self() { return self; }

            @Override
            public Changes exchange(Changes[] outgoing) {
                Object[] in = allToAll(self, outgoing);
                int total = 0;
                int nonEmpty = -1;
                for (int p = 0; p < peers; p++) {
                    Changes c = (Changes) in[p];
                    if (!c.isEmpty()) {
                        total += c.size();
                        nonEmpty = nonEmpty == -1 ? p : -2;
                    }
                }
                if (nonEmpty >= 0) return (Changes) in[nonEmpty]; // one sender: no copy
                Changes merged = new Changes(total);
                for (Object c : in) merged.addAll((Changes) c);
                return merged;
            }
        };
    }
}
