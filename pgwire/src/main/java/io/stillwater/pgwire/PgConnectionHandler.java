package io.stillwater.pgwire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;
import io.stillwater.pgwire.protocol.FrontendMessage;
import io.stillwater.pgwire.protocol.InputRefused;
import io.stillwater.pgwire.protocol.ProtocolViolation;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-loop side of one connection. Answers what must not wait behind a running
 * statement (SSLRequest, GSSENCRequest, CancelRequest, protocol violations) right here,
 * and queues every other message, in order, to the connection's own worker thread,
 * where {@link ConnectionWorker} runs it against the engine.
 *
 * <p>Why a platform thread per connection: the engine is synchronous and may block
 * (including inside {@code synchronized}, which pins virtual threads on JDK 21), and a
 * dedicated thread keeps one connection's slow statement from stalling any other. The
 * thread is created with the first message that needs it (the StartupMessage), and a
 * socket beyond the server's {@link StartingConnections} bound is refused at once, so
 * sockets that never start up cost no thread.
 *
 * <p>Input backpressure: when a client pipelines more than {@link #HIGH_WATER} messages
 * or {@link #HIGH_WATER_BYTES} bytes ahead of execution, reading from its socket pauses
 * until the queue drains.
 *
 * <p>Threads: {@code executor}, {@code out}, {@code worker} and {@code startupTimer} are
 * written on the event loop only (channelActive, the first submit); the worker thread
 * reads them after the executor's hand-off, the server's gauges read {@code out}. {@code pending}, {@code pendingBytes} and
 * {@code startupSlot} are touched by both threads.
 */
final class PgConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PgConnectionHandler.class);
    private static final AtomicInteger CONNECTIONS = new AtomicInteger();
    static final int HIGH_WATER = 1024;
    static final int LOW_WATER = 256;
    static final long HIGH_WATER_BYTES = 1 << 20;
    static final long LOW_WATER_BYTES = 256 << 10;
    private final SessionFactory sessions;
    private final CancelRegistry registry;
    private final StartingConnections starting;
    /** The server's authentication; its timeout is PostgreSQL's authentication_timeout (socket to session). */
    private final Authentication authentication;
    private final Set<ExecutorService> liveWorkers;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong pendingBytes = new AtomicLong();
    /** True while this connection holds a {@link StartingConnections} slot. */
    private final AtomicBoolean startupSlot = new AtomicBoolean();

    private ExecutorService executor;
    private io.netty.util.concurrent.ScheduledFuture<?> startupTimer;
    /** Volatile: the server's gauges read it from other threads. */
    private volatile Outbound out;
    private ConnectionWorker worker;

    /**
     * {@code starting}: the server's bound on connections in startup; {@code liveWorkers}:
     * the server's set of connection threads, so it can wait for them on close.
     */
    PgConnectionHandler(SessionFactory sessions, CancelRegistry registry, StartingConnections starting,
                        Set<ExecutorService> liveWorkers, Authentication authentication) {
        this.sessions = sessions;
        this.authentication = authentication;
        this.registry = registry;
        this.starting = starting;
        this.liveWorkers = liveWorkers;
    }

    /** What this connection holds for sending (0 before it is accepted); any thread. */
    long outboundBytes() {
        Outbound o = out;
        return o == null ? 0 : o.bufferedBytes();
    }

    /** Whether this connection's worker waits for its client to read; any thread. */
    boolean awaitingWritability() {
        Outbound o = out;
        return o != null && o.awaitingWritability();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (!starting.tryEnter()) {
            LOG.debug("refusing connection from {}: {} connections are starting up", ctx.channel().remoteAddress(),
                    starting.limit());
            sendFatalAndClose(ctx, new Diagnostic(Severity.FATAL, SqlState.TOO_MANY_CONNECTIONS.code(),
                    "sorry, too many clients already",
                    starting.limit() + " connections are already starting up, the most the server accepts at once.",
                    "Retry shortly. The limit is set with stillwater serve --max-starting-connections."));
            return;
        }
        startupSlot.set(true);
        out = new Outbound(ctx.channel());
        // A TLS connection has an SslHandler in its pipeline by the time its StartupMessage arrives.
        worker = new ConnectionWorker(sessions, registry, out, this::leaveStartup, authentication,
                () -> ctx.pipeline().get(SslHandler.class) != null);
        // Covers the whole startup, authentication included: a client that stops mid-exchange is closed.
        startupTimer = ctx.executor().schedule(
                () -> sendFatalAndClose(ctx, new Diagnostic(Severity.FATAL, SqlState.PROTOCOL_VIOLATION.code(),
                        "timeout expired during startup", null, null)),
                authentication.timeout().toNanos(), TimeUnit.NANOSECONDS);
        super.channelActive(ctx);
    }

    /** Startup ended (a session exists, or the connection closed): any thread. */
    private void leaveStartup() {
        startupTimer.cancel(false);
        if (startupSlot.compareAndSet(true, false)) starting.leave();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        FrontendMessage message = (FrontendMessage) msg;
        if (worker == null) return; // refused in channelActive; closing
        switch (message) {
            case FrontendMessage.SslRequest m -> ctx.writeAndFlush(BackendMessage.EncryptionResponse.REFUSED);
            case FrontendMessage.GssEncRequest m -> ctx.writeAndFlush(BackendMessage.EncryptionResponse.REFUSED);
            case FrontendMessage.CancelRequest m -> {
                // PostgreSQL never answers a cancel request, whether or not it matched.
                boolean matched = registry.cancel(new BackendKey(m.processId(), m.secretKey()));
                LOG.debug("cancel request for pid {}: {}", m.processId(), matched ? "cancelled" : "no such session");
                ctx.close();
            }
            default -> submit(ctx, message);
        }
    }

    private void submit(ChannelHandlerContext ctx, FrontendMessage message) {
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                    .name("pgwire-conn-" + CONNECTIONS.incrementAndGet()).factory());
            liveWorkers.add(executor);
        }
        long size = message.approximateSize();
        int queued = pending.incrementAndGet();
        long queuedBytes = pendingBytes.addAndGet(size);
        if (queued >= HIGH_WATER || queuedBytes >= HIGH_WATER_BYTES) {
            ctx.channel().config().setAutoRead(false);
            // The worker may have drained the queue between the increment and the line above.
            resumeIfDrained(ctx);
        }
        try {
            executor.execute(() -> {
                try {
                    worker.handle(message);
                } catch (Throwable e) {
                    // handle() contains statement failures itself; this is a failure around them.
                    worker.failed(e);
                } finally {
                    pending.decrementAndGet();
                    pendingBytes.addAndGet(-size);
                    resumeIfDrained(ctx);
                }
            });
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet(); // the connection is closing; drop the message
            pendingBytes.addAndGet(-size);
        }
    }

    private void resumeIfDrained(ChannelHandlerContext ctx) {
        if (pending.get() <= LOW_WATER && pendingBytes.get() <= LOW_WATER_BYTES
                && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (out != null) out.wakeUp();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        if (worker == null) return; // refused in channelActive
        // Stop whatever runs now, then release the session on the worker thread, after
        // any queued messages (which see the closed channel and do nothing).
        startupTimer.cancel(false);
        leaveStartup();
        worker.cancelRunning();
        ExecutorService exec = executor;
        if (exec == null) {
            worker.close(); // never started up: no session, nothing runs
            return;
        }
        try {
            exec.execute(() -> {
                try {
                    worker.close();
                } finally {
                    liveWorkers.remove(exec);
                }
            });
        } catch (RejectedExecutionException ignored) {
            liveWorkers.remove(exec); // already shut down
        }
        exec.shutdown();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        switch (root) {
            case ProtocolViolation v -> {
                LOG.debug("protocol violation from {}: {}", ctx.channel().remoteAddress(), v.getMessage());
                sendFatalAndClose(ctx, new Diagnostic(Severity.FATAL, v.state().code(), v.getMessage(), null, null));
            }
            case InputRefused r -> {
                LOG.warn("refusing input from {}: {} {}", ctx.channel().remoteAddress(), r.getMessage(), r.detail());
                sendFatalAndClose(ctx, new Diagnostic(Severity.FATAL, r.state().code(), r.getMessage(), r.detail(),
                        r.hint()));
            }
            case IOException io -> {
                LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), io.toString());
                ctx.close();
            }
            default -> sendFatalAndClose(ctx, ClientErrors.diagnose(root, Severity.FATAL));
        }
    }

    private static void sendFatalAndClose(ChannelHandlerContext ctx, Diagnostic diagnostic) {
        if (!ctx.channel().isActive()) return;
        ctx.writeAndFlush(new BackendMessage.ErrorResponse(diagnostic)).addListener(f -> ctx.close());
    }
}
