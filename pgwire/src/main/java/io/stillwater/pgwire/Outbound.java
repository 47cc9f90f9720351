package io.stillwater.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.BackendMessage;

/**
 * The worker thread's way to send messages on its channel.
 *
 * <p>Batching: messages are encoded (by {@link BackendEncoder#encode}, the one encoder)
 * into a buffer owned by the worker thread and handed to Netty in chunks of about
 * {@link #CHUNK} bytes or at a flush, so a large result costs one event-loop task per
 * chunk rather than one per row. Netty keeps chunks in call order, and a connection has
 * exactly one worker thread, so messages stay in protocol order.
 *
 * <p>Backpressure: when the channel's outbound buffer passes its high-water mark the
 * worker blocks until the client has read enough (or the channel closes), so a slow
 * reader of a large result cannot make the server buffer all of it.
 */
final class Outbound {
    static final int CHUNK = 16 << 10;

    private final Channel channel;
    private final Object writable = new Object();
    /** Encoded but not yet written; touched only by the worker thread. */
    private ByteBuf pending;

    Outbound(Channel channel) { this.channel = channel; }

    void send(BackendMessage message) {
        if (pending == null) pending = channel.alloc().buffer(CHUNK + 512);
        BackendEncoder.encode(message, pending);
        if (pending.readableBytes() >= CHUNK) writePending();
    }

    /** Sends a data row, waiting for the client to drain if the channel's buffer is full. */
    void sendRow(BackendMessage.DataRow row) {
        send(row);
        if (!channel.isWritable()) {
            flush();
            awaitWritable();
        }
    }

    void flush() {
        writePending();
        channel.flush();
    }

    boolean isOpen() { return channel.isActive(); }

    /** Sends what is pending, then closes the channel. */
    void close() {
        flush();
        channel.close();
    }

    /** Called on the event loop when writability changes or the channel goes inactive. */
    void wakeUp() {
        synchronized (writable) {
            writable.notifyAll();
        }
    }

    private void writePending() {
        ByteBuf buf = pending;
        pending = null;
        if (buf == null) return;
        if (buf.isReadable()) {
            channel.write(buf, channel.voidPromise()); // Netty releases it once written or failed
        } else {
            buf.release();
        }
    }

    private void awaitWritable() {
        synchronized (writable) {
            while (channel.isActive() && !channel.isWritable()) {
                try {
                    writable.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
