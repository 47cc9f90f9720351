package io.stillwater.pgwire;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * How the wire server does socket I/O: Java NIO, or Netty's native epoll transport (Linux
 * x86-64), which calls epoll and the socket system calls directly, without NIO's selector
 * bookkeeping and its wake-up pipe. {@link #AUTO} takes epoll where it loads, else NIO.
 */
public enum Transport {
    AUTO, NIO, EPOLL;

    /**
     * The transport to use: this one, with {@link #AUTO} resolved.
     *
     * @throws IllegalStateException for {@link #EPOLL} when it cannot load here, with the reason
     */
    public Transport resolve() {
        return switch (this) {
            case NIO -> NIO;
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("the native epoll transport is not available here: "
                            + Epoll.unavailabilityCause());
                }
                yield EPOLL;
            }
            case AUTO -> Epoll.isAvailable() ? EPOLL : NIO;
        };
    }

    /** Why epoll cannot be used here, or null when it can. */
    public static String epollUnavailability() {
        return Epoll.isAvailable() ? null : String.valueOf(Epoll.unavailabilityCause());
    }

    /** The event loops' I/O handler; for a resolved transport. */
    IoHandlerFactory ioHandlers() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /** The listening socket's channel class; for a resolved transport. */
    Class<? extends ServerChannel> serverChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
