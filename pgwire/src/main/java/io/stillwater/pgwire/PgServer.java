package io.stillwater.pgwire;

import java.io.IOException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.pgwire.protocol.BackendEncoder;
import io.stillwater.pgwire.protocol.InputBudget;
import io.stillwater.pgwire.protocol.PgDecoder;
import io.stillwater.pgwire.tls.ServerTls;
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
 *
 * <p>Memory and thread bounds, whatever clients do: a message larger than
 * {@link Limits#maxMessageSize} is refused from its header; incomplete messages of all
 * connections hold at most {@link Limits#maxBufferedInput} bytes; at most
 * {@link Limits#maxStartingConnections} sockets may be in startup, and only those that
 * sent a StartupMessage get a thread; a result being sent holds at most the outbound
 * high-water mark ({@link #WRITE_HIGH_WATER_MARK}) plus a chunk per connection. The
 * engine's {@code max_connections} bounds connections past startup.
 */
public final class PgServer implements AutoCloseable {
    /** A connection's outbound buffer above which its worker waits for the client to read. */
    public static final int WRITE_HIGH_WATER_MARK = 256 << 10;
    /** ... and below which it may write again. */
    public static final int WRITE_LOW_WATER_MARK = 64 << 10;

    /**
     * The server's own limits (connection counts past startup are the engine's
     * {@code max_connections}).
     *
     * @param maxMessageSize largest regular message accepted, in bytes, length field included
     * @param maxBufferedInput most bytes held for incomplete messages over all connections
     * @param maxStartingConnections most connections that may be in startup at once
     */
    public record Limits(int maxMessageSize, long maxBufferedInput, int maxStartingConnections) {
        public static final Limits DEFAULTS = new Limits(PgDecoder.DEFAULT_MAX_MESSAGE_LENGTH,
                InputBudget.DEFAULT_LIMIT, StartingConnections.DEFAULT_LIMIT);

        public Limits {
            if (maxMessageSize < 5) throw new IllegalArgumentException("the maximum message size must be at least 5 bytes");
            if (maxBufferedInput < maxMessageSize) {
                throw new IllegalArgumentException("the input buffer limit (" + maxBufferedInput
                        + " bytes) must hold at least one message of the maximum size (" + maxMessageSize + " bytes)");
            }
            if (maxStartingConnections < 1) {
                throw new IllegalArgumentException("the limit of starting connections must be at least 1");
            }
        }

        public Limits withMaxMessageSize(int bytes) { return new Limits(bytes, maxBufferedInput, maxStartingConnections); }

        public Limits withMaxBufferedInput(long bytes) { return new Limits(maxMessageSize, bytes, maxStartingConnections); }

        public Limits withMaxStartingConnections(int n) { return new Limits(maxMessageSize, maxBufferedInput, n); }
    }

    private final SessionFactory sessions;
    private final Limits limits;
    private final Authentication authentication;
    private final InputBudget inputBudget;
    private final StartingConnections starting;
    private final CancelRegistry registry = new CancelRegistry();
    /** Connection worker threads still running; close() waits for them so sessions close before it returns. */
    private final Set<ExecutorService> liveWorkers =
            ConcurrentHashMap.newKeySet();
    private final ChannelGroup channels = new DefaultChannelGroup("pgwire", GlobalEventExecutor.INSTANCE);
    /** TLS offered to clients, or null (SSLRequest answered N); set before start. */
    private ServerTls tls;
    /** Whether bounded reads run on the event loop ({@link PgConnectionHandler}); set before start. */
    private InlineReads inlineReads = new InlineReads(true);
    /** The socket I/O asked for; set before start. */
    private Transport transport = Transport.AUTO;
    /** The one in use once started (AUTO resolved). */
    private volatile Transport running;
    private EventLoopGroup acceptors;
    private EventLoopGroup workers;
    private Channel serverChannel;
    private boolean closed;

    public PgServer(SessionFactory sessions) { this(sessions, Limits.DEFAULTS); }

    /** {@code maxMessageLength}: the largest regular message accepted, in bytes; other limits default. */
    public PgServer(SessionFactory sessions, int maxMessageLength) {
        this(sessions, Limits.DEFAULTS.withMaxMessageSize(maxMessageLength));
    }

    /** Trust for every user name (each a login role), as a server without a role directory: for loopback use. */
    public PgServer(SessionFactory sessions, Limits limits) {
        this(sessions, limits, Authentication.trustEveryone());
    }

    /** {@code authentication}: the method, the roles it checks and how long startup may take. */
    public PgServer(SessionFactory sessions, Limits limits, Authentication authentication) {
        this.sessions = sessions;
        this.limits = limits;
        this.authentication = authentication;
        this.inputBudget = new InputBudget(limits.maxBufferedInput());
        this.starting = new StartingConnections(limits.maxStartingConnections());
    }

    public Limits limits() { return limits; }

    public Authentication authentication() { return authentication; }

    /**
     * Offers TLS ({@code null}: none, SSLRequest is answered {@code N}); call before
     * {@link #start}. Returns this server.
     */
    public synchronized PgServer withTls(ServerTls tls) {
        if (serverChannel != null) throw new IllegalStateException("TLS must be set before the server starts");
        this.tls = tls;
        return this;
    }

    /**
     * Binds {@code host:port} (port 0 picks a free port) and starts accepting. Returns
     * this server; throws {@link UncheckedIOException} if the address cannot be bound.
     */
    public synchronized PgServer start(String host, int port) {
        if (serverChannel != null || closed) throw new IllegalStateException("server already started");
        InetSocketAddress address = new InetSocketAddress(host, port);
        ServerTls tls = this.tls;
        InlineReads inlineReads = this.inlineReads;
        if (address.isUnresolved()) {
            throw new UncheckedIOException("could not listen on " + host + ":" + port + ": unknown host",
                    new UnknownHostException(host));
        }
        Transport resolved = transport.resolve();
        acceptors = new MultiThreadIoEventLoopGroup(1, resolved.ioHandlers());
        workers = new MultiThreadIoEventLoopGroup(resolved.ioHandlers());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptors, workers)
                .channel(resolved.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(WRITE_LOW_WATER_MARK, WRITE_HIGH_WATER_MARK))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ch.pipeline()
                                .addLast("decoder", new PgDecoder(limits.maxMessageSize(), inputBudget))
                                .addLast("encoder", BackendEncoder.INSTANCE)
                                .addLast("handler", new PgConnectionHandler(sessions, registry, starting, liveWorkers, tls,
                                        authentication, inlineReads));
                    }
                });
        try {
            serverChannel = bootstrap.bind(address).syncUninterruptibly().channel();
            running = resolved;
        } catch (Exception e) { // Netty rethrows the bind's checked IOException undeclared
            shutdownGroups();
            if (e instanceof IOException io) {
                throw new UncheckedIOException("could not listen on " + host + ":" + port + ": " + e.getMessage(), io);
            }
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
        return this;
    }

    /**
     * Whether prepared point reads may be answered on the event loop, without a hand-off
     * to the connection's thread (default true; see {@link PgConnectionHandler}). Call
     * before {@link #start}. Returns this server.
     */
    public synchronized PgServer withInlineReads(boolean inline) {
        if (serverChannel != null) throw new IllegalStateException("inline reads must be set before the server starts");
        this.inlineReads = new InlineReads(inline);
        return this;
    }

    /**
     * The socket I/O to use (default {@link Transport#AUTO}: native epoll where it loads,
     * else NIO). Call before {@link #start}. Returns this server.
     */
    public synchronized PgServer withTransport(Transport transport) {
        if (serverChannel != null) throw new IllegalStateException("the transport must be set before the server starts");
        this.transport = transport;
        return this;
    }

    /** The transport in use (NIO or EPOLL); only once started. */
    public Transport transport() {
        Transport t = running;
        if (t == null) throw new IllegalStateException("server not started");
        return t;
    }

    /** Whether prepared point reads may be answered on the event loop ({@link #withInlineReads}). */
    public synchronized boolean inlineReads() { return inlineReads.enabled(); }

    /** Statements (Executes and simple Queries) answered on the event loop so far (see {@link #withInlineReads}). */
    public long inlineExecutes() { return inlineReads.answeredCount(); }

    /** Executes and simple Queries the event loop handed to a connection's thread (not cached, or not finishable at once). */
    public long handedOffExecutes() { return inlineReads.handedOffCount(); }

    /** The TLS this server offers, or null. */
    public synchronized ServerTls tls() { return tls; }

    /** The address actually bound (the real port when started with port 0). */
    public InetSocketAddress boundAddress() {
        if (serverChannel == null) throw new IllegalStateException("server not started");
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public int boundPort() { return boundAddress().getPort(); }

    /** The registry of live sessions' cancel keys. */
    public CancelRegistry cancelRegistry() { return registry; }

    /** Bytes reserved now for incomplete client messages, over all connections (at most {@link Limits#maxBufferedInput}). */
    public long bufferedInputBytes() { return inputBudget.reserved(); }

    /**
     * Bytes held now for sending, over all connections: each worker's pending chunk plus
     * Netty's outbound buffers. A moment's snapshot, for monitoring and tests.
     */
    public long bufferedOutputBytes() {
        long total = 0;
        for (PgConnectionHandler h : handlers()) total += h.outboundBytes();
        return total;
    }

    /** Connections in startup now (at most {@link Limits#maxStartingConnections}). */
    public int startingConnections() { return starting.count(); }

    /** Connections whose TLS handshake has completed and that are still open: a moment's snapshot. */
    public int encryptedConnections() {
        int n = 0;
        for (Channel ch : channels) if (ServerTls.encrypted(ch)) n++;
        return n;
    }

    /** Connections whose worker waits now for its client to read a result. */
    int connectionsAwaitingWritability() {
        int n = 0;
        for (PgConnectionHandler h : handlers()) if (h.awaitingWritability()) n++;
        return n;
    }

    private List<PgConnectionHandler> handlers() {
        List<PgConnectionHandler> out = new ArrayList<>();
        for (Channel ch : channels) {
            PgConnectionHandler h = ch.pipeline().get(PgConnectionHandler.class);
            if (h != null) out.add(h);
        }
        return out;
    }

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
        for (ExecutorService worker : List.copyOf(liveWorkers)) {
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
