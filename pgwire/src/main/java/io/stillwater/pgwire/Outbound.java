package io.stillwater.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import java.util.concurrent.atomic.AtomicInteger;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.types.DataRowEncoder;
import io.stillwater.engine.data.Row;
import java.util.function.BooleanSupplier;

/**
 * The connection runner's way to send messages on its channel: the worker thread's, or
 * the event loop's while it runs a read inline ({@link PgConnectionHandler}: one of them
 * at a time, never both).
 *
 * <p>Batching: messages are encoded (by {@link BackendEncoder#encode}, the one encoder)
 * into a buffer owned by the worker thread and handed to Netty in chunks of about
 * {@link #CHUNK} bytes or at a flush, so a large result costs one event-loop task per
 * chunk rather than one per row. Netty keeps chunks in call order, and a connection has
 * exactly one runner at a time, so messages stay in protocol order. The worker's chunks
 * reach the channel as event-loop tasks ({@link #offLoopWrites} counts those not yet
 * completed); the event loop writes its own directly, so it may run a read inline only once
 * every write of the worker's has completed ({@link #workerWritesQueued}), or its reply
 * could overtake them.
 *
 * <p>Backpressure: when the channel's outbound buffer passes its high-water mark
 * ({@link PgServer}'s {@code WRITE_BUFFER_WATER_MARK}) {@link #sendRow} blocks until the
 * client has read enough, the channel closes, or the caller gives up (a cancel), so a
 * slow reader of a large result cannot make the server buffer all of it. Bound: what
 * this connection holds for sending is at most the high-water mark plus one chunk plus
 * one row ({@link #bufferedBytes}). The event loop never waits for writability (it would
 * wait for itself): it runs only bounded reads, whose few rows it buffers.
 */
final class Outbound {
    static final int CHUNK = 16 << 10;

    private final Channel channel;
    private final Object writable = new Object();
    /** Encoded but not yet written; touched only by the connection's runner. */
    private ByteBuf pending;
    /** Size of {@link #pending}, written by the worker, read by anyone ({@link #bufferedBytes}). */
    private volatile int pendingBytes;
    /** Whether the worker is blocked in {@link #awaitWritable}; for observation only. */
    private volatile boolean waiting;
    /** Chunks the worker thread wrote whose write has not completed yet. */
    private final AtomicInteger offLoopWrites = new AtomicInteger();

    Outbound(Channel channel) { this.channel = channel; }

    void send(BackendMessage message) {
        BackendEncoder.encode(message, pendingBuffer());
        encoded();
    }

    /** Like {@link #sendRow}, for a result row written straight into the buffer by {@code encoder}. */
    void sendDataRow(DataRowEncoder encoder, Row row, BooleanSupplier giveUp) {
        encoder.encode(row, pendingBuffer());
        encoded();
        awaitIfUnwritable(giveUp);
    }

    private ByteBuf pendingBuffer() {
        if (pending == null) pending = channel.alloc().buffer(CHUNK + 512);
        return pending;
    }

    /** After a message was appended to the pending buffer: hands a full chunk to Netty. */
    private void encoded() {
        pendingBytes = pending.readableBytes();
        if (pendingBytes >= CHUNK) writePending();
    }

    /**
     * Sends a data row (or a CopyData line), waiting while the channel's buffer is past its high-water mark
     * until the client drains it, the channel closes, or {@code giveUp} turns true (the
     * waker must call {@link #wakeUp} after setting what {@code giveUp} reads).
     */
    void sendRow(BackendMessage row, BooleanSupplier giveUp) {
        send(row);
        awaitIfUnwritable(giveUp);
    }

    private void awaitIfUnwritable(BooleanSupplier giveUp) {
        if (!channel.isWritable() && !channel.eventLoop().inEventLoop()) {
            flush();
            awaitWritable(giveUp);
        }
    }

    /**
     * Hands what is pending to Netty and flushes: one event-loop task (a write-and-flush),
     * not a write task followed by a flush task, since each task from this thread may
     * wake the event loop.
     */
    void flush() {
        ByteBuf buf = takePending();
        if (buf != null) {
            write(buf, true);
        } else {
            channel.flush(); // earlier chunks may be written and not yet flushed
        }
    }

    boolean isOpen() { return channel.isActive(); }

    /** Sends what is pending, then closes the channel. */
    void close() {
        flush();
        channel.close();
    }

    /** Called when writability changes, the channel goes inactive, or a waiter should give up. */
    void wakeUp() {
        synchronized (writable) {
            writable.notifyAll();
        }
    }

    /**
     * Bytes this connection holds for sending: the worker's pending chunk plus Netty's
     * outbound buffer (including writes still queued to the event loop). Any thread; a
     * moment's snapshot.
     */
    long bufferedBytes() {
        ChannelOutboundBuffer netty = channel.unsafe().outboundBuffer();
        return pendingBytes + (netty == null ? 0 : netty.totalPendingWriteBytes());
    }

    /** Whether the worker is blocked waiting for the client to read. */
    boolean awaitingWritability() { return waiting; }

    private void writePending() {
        ByteBuf buf = takePending();
        if (buf != null) write(buf, false);
    }

    /**
     * Hands {@code buf} to the channel (which releases it once written or failed): on the
     * event loop with no promise to complete; from the worker through Netty's own
     * cross-thread write (which counts the bytes against writability at once), counted in
     * {@link #offLoopWrites} until the write completes (written to the socket, or failed).
     */
    private void write(ByteBuf buf, boolean flush) {
        if (channel.eventLoop().inEventLoop()) {
            if (flush) channel.writeAndFlush(buf, channel.voidPromise());
            else channel.write(buf, channel.voidPromise());
            return;
        }
        offLoopWrites.incrementAndGet();
        ChannelPromise done = channel.newPromise();
        done.addListener(writeCompleted);
        if (flush) channel.writeAndFlush(buf, done);
        else channel.write(buf, done);
    }

    /** Ends the count of one of the worker's writes (runs on the event loop, or at once if the channel is gone). */
    private final ChannelFutureListener writeCompleted = f -> offLoopWrites.decrementAndGet();

    /**
     * Whether writes of the worker thread have not completed yet. Asked on the event
     * loop: false means every byte the worker sent is written (or its channel failed), so
     * nothing the event loop writes now can overtake it.
     */
    boolean workerWritesQueued() { return offLoopWrites.get() != 0; }

    /** The pending buffer if it holds bytes (null otherwise, an empty one released); pending is empty after. */
    private ByteBuf takePending() {
        ByteBuf buf = pending;
        pending = null;
        pendingBytes = 0;
        if (buf == null) return null;
        if (buf.isReadable()) return buf;
        buf.release();
        return null;
    }

    private void awaitWritable(BooleanSupplier giveUp) {
        synchronized (writable) {
            waiting = true;
            try {
                while (channel.isActive() && !channel.isWritable() && !giveUp.getAsBoolean()) {
                    writable.wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                waiting = false;
            }
        }
    }
}
