package io.stillwater.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.types.DataRowEncoder;
import io.stillwater.engine.data.Row;
import java.util.function.BooleanSupplier;

/**
 * The worker thread's way to send messages on its channel.
 *
 * <p>Batching: messages are encoded (by {@link BackendEncoder#encode}, the one encoder)
 * into a buffer owned by the worker thread and handed to Netty in chunks of about
 * {@link #CHUNK} bytes or at a flush, so a large result costs one event-loop task per
 * chunk rather than one per row. Netty keeps chunks in call order, and a connection has
 * exactly one worker thread, so messages stay in protocol order.
 *
 * <p>Backpressure: when the channel's outbound buffer passes its high-water mark
 * ({@link PgServer}'s {@code WRITE_BUFFER_WATER_MARK}) {@link #sendRow} blocks until the
 * client has read enough, the channel closes, or the caller gives up (a cancel), so a
 * slow reader of a large result cannot make the server buffer all of it. Bound: what
 * this connection holds for sending is at most the high-water mark plus one chunk plus
 * one row ({@link #bufferedBytes}).
 */
final class Outbound {
    static final int CHUNK = 16 << 10;

    private final Channel channel;
    private final Object writable = new Object();
    /** Encoded but not yet written; touched only by the worker thread. */
    private ByteBuf pending;
    /** Size of {@link #pending}, written by the worker, read by anyone ({@link #bufferedBytes}). */
    private volatile int pendingBytes;
    /** Whether the worker is blocked in {@link #awaitWritable}; for observation only. */
    private volatile boolean waiting;

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
        if (!channel.isWritable()) {
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
            channel.writeAndFlush(buf, channel.voidPromise()); // Netty releases it once written or failed
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
        if (buf != null) channel.write(buf, channel.voidPromise()); // Netty releases it once written or failed
    }

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
