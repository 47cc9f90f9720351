package io.stillwater.pgwire;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.PgDecoder;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL v3 wire protocol server over {@link SessionFactory} sessions.
 *
 * <pre>{@code
 * try (PgServer server = new PgServer(engine::connect).start("127.0.0.1", 0)) {
 *     int port = server.boundPort();
 * }
 * }</pre>
 *
 * Per connection the pipeline is {@link PgDecoder} (bytes to frontend messages),
 * {@link BackendEncoder} (backend messages to bytes) and a {@link PgConnectionHandler}.
 * A failure on one connection closes that connection only.
 */
public final class PgServer implements AutoCloseable {
    private final SessionFactory sessions;
    private final int maxMessageLength;
    private final CancelRegistry registry = new CancelRegistry();
    /** Connection worker threads still running; close() waits for them so sessions close before it returns. */
    private final java.util.Set<java.util.concurrent.ExecutorService> liveWorkers =
            java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ChannelGroup channels = new DefaultChannelGroup("pgwire", GlobalEventExecutor.INSTANCE);
    private EventLoopGroup acceptors;
    private EventLoopGroup workers;
    private Channel serverChannel;
    private boolean closed;

    public PgServer(SessionFactory sessions) { this(sessions, PgDecoder.DEFAULT_MAX_MESSAGE_LENGTH); }

    /** {@code maxMessageLength}: the largest regular message accepted, in bytes. */
    public PgServer(SessionFactory sessions, int maxMessageLength) {
        this.sessions = sessions;
        this.maxMessageLength = maxMessageLength;
    }

    /**
     * Binds {@code host:port} (port 0 picks a free port) and starts accepting. Returns
     * this server; throws {@link UncheckedIOException} if the address cannot be bound.
     */
    public synchronized PgServer start(String host, int port) {
        if (serverChannel != null || closed) throw new IllegalStateException("server already started");
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new UncheckedIOException("could not listen on " + host + ":" + port + ": unknown host",
                    new java.net.UnknownHostException(host));
        }
        acceptors = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(64 << 10, 256 << 10))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ch.pipeline()
                                .addLast("decoder", new PgDecoder(maxMessageLength))
                                .addLast("encoder", BackendEncoder.INSTANCE)
                                .addLast("handler", new PgConnectionHandler(sessions, registry, liveWorkers));
                    }
                });
        try {
            serverChannel = bootstrap.bind(address).syncUninterruptibly().channel();
        } catch (Exception e) { // Netty rethrows the bind's checked IOException undeclared
            shutdownGroups();
            if (e instanceof java.io.IOException io) {
                throw new UncheckedIOException("could not listen on " + host + ":" + port + ": " + e.getMessage(), io);
            }
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
        return this;
    }

    /** The address actually bound (the real port when started with port 0). */
    public InetSocketAddress boundAddress() {
        if (serverChannel == null) throw new IllegalStateException("server not started");
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public int boundPort() { return boundAddress().getPort(); }

    /** The registry of live sessions' cancel keys. */
    public CancelRegistry cancelRegistry() { return registry; }

    /**
     * Stops accepting, closes every connection, waits (up to {@link #CLOSE_TIMEOUT_SECONDS}
     * seconds) until their running statements are cancelled and sessions closed, and
     * stops the event loops. Safe to call more than once.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        channels.close().awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_TIMEOUT_SECONDS);
        for (java.util.concurrent.ExecutorService worker : java.util.List.copyOf(liveWorkers)) {
            try {
                worker.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        shutdownGroups();
    }

    public static final int CLOSE_TIMEOUT_SECONDS = 10;

    private void shutdownGroups() {
        if (acceptors != null) acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        if (workers != null) workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        acceptors = null;
        workers = null;
    }
}
