package io.stillwater.pgwire;

import io.netty.channel.Channel;
import io.stillwater.pgwire.protocol.BackendMessage;

/**
 * The worker thread's way to send messages on its channel, with backpressure: when the
 * channel's outbound buffer passes its high-water mark the worker blocks until the
 * client has read enough (or the channel closes), so a slow reader of a large result
 * cannot make the server buffer it all.
 *
 * <p>Writes go through Netty, which hands them to the event loop in call order; the
 * single worker thread per connection therefore keeps messages in protocol order.
 */
final class Outbound {
    private final Channel channel;
    private final Object writable = new Object();

    Outbound(Channel channel) { this.channel = channel; }

    void send(BackendMessage message) {
        channel.write(message, channel.voidPromise());
    }

    /** Sends a data row, waiting for the client to drain if the buffer is full. */
    void sendRow(BackendMessage.DataRow row) {
        send(row);
        if (!channel.isWritable()) {
            channel.flush();
            awaitWritable();
        }
    }

    void flush() { channel.flush(); }

    boolean isOpen() { return channel.isActive(); }

    void close() { channel.close(); }

    /** Called on the event loop when writability changes or the channel goes inactive. */
    void wakeUp() {
        synchronized (writable) {
            writable.notifyAll();
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
