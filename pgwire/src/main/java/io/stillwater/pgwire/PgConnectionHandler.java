package io.stillwater.pgwire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.FrontendMessage;
import io.stillwater.pgwire.protocol.ProtocolViolation;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * dedicated thread keeps one connection's slow statement from stalling any other.
 *
 * <p>Input backpressure: when a client pipelines more than {@link #HIGH_WATER} messages
 * ahead of execution, reading from its socket pauses until the queue drains.
 */
final class PgConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PgConnectionHandler.class);
    private static final AtomicInteger CONNECTIONS = new AtomicInteger();
    static final int HIGH_WATER = 1024;
    static final int LOW_WATER = 256;

    private final SessionFactory sessions;
    private final CancelRegistry registry;
    private final java.util.Set<ExecutorService> liveWorkers;
    private final AtomicInteger pending = new AtomicInteger();
    /** Like PostgreSQL's authentication_timeout: a connection must finish startup within this time. */
    static final long STARTUP_TIMEOUT_SECONDS = 60;

    private ExecutorService executor;
    private io.netty.util.concurrent.ScheduledFuture<?> startupTimer;
    private Outbound out;
    private ConnectionWorker worker;

    /** {@code liveWorkers}: the server's set of connection threads, so it can wait for them on close. */
    PgConnectionHandler(SessionFactory sessions, CancelRegistry registry, java.util.Set<ExecutorService> liveWorkers) {
        this.sessions = sessions;
        this.registry = registry;
        this.liveWorkers = liveWorkers;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        out = new Outbound(ctx.channel());
        worker = new ConnectionWorker(sessions, registry, out);
        executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                .name("pgwire-conn-" + CONNECTIONS.incrementAndGet()).factory());
        liveWorkers.add(executor);
        startupTimer = ctx.executor().schedule(
                () -> sendFatalAndClose(ctx, SqlState.PROTOCOL_VIOLATION, "timeout expired during startup"),
                STARTUP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        FrontendMessage message = (FrontendMessage) msg;
        switch (message) {
            case FrontendMessage.SslRequest m -> ctx.writeAndFlush(BackendMessage.EncryptionResponse.REFUSED);
            case FrontendMessage.GssEncRequest m -> ctx.writeAndFlush(BackendMessage.EncryptionResponse.REFUSED);
            case FrontendMessage.CancelRequest m -> {
                // PostgreSQL never answers a cancel request, whether or not it matched.
                boolean matched = registry.cancel(new BackendKey(m.processId(), m.secretKey()));
                LOG.debug("cancel request for pid {}: {}", m.processId(), matched ? "cancelled" : "no such session");
                ctx.close();
            }
            default -> {
                if (message instanceof FrontendMessage.Startup) startupTimer.cancel(false);
                submit(ctx, message);
            }
        }
    }

    private void submit(ChannelHandlerContext ctx, FrontendMessage message) {
        if (pending.incrementAndGet() >= HIGH_WATER) {
            ctx.channel().config().setAutoRead(false);
            // The worker may have drained the queue between the increment and the line above.
            if (pending.get() <= LOW_WATER) ctx.channel().config().setAutoRead(true);
        }
        try {
            executor.execute(() -> {
                try {
                    worker.handle(message);
                } catch (RuntimeException e) {
                    LOG.error("unexpected failure handling {}", message.getClass().getSimpleName(), e);
                    worker.close();
                } finally {
                    if (pending.decrementAndGet() <= LOW_WATER && !ctx.channel().config().isAutoRead()) {
                        ctx.channel().config().setAutoRead(true);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet(); // the connection is closing; drop the message
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        out.wakeUp();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        // Stop whatever runs now, then release the session on the worker thread, after
        // any queued messages (which see the closed channel and do nothing).
        startupTimer.cancel(false);
        worker.cancelRunning();
        out.wakeUp();
        ExecutorService exec = executor;
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
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (root instanceof ProtocolViolation v) {
            LOG.debug("protocol violation from {}: {}", ctx.channel().remoteAddress(), v.getMessage());
            sendFatalAndClose(ctx, v.state(), v.getMessage());
        } else if (root instanceof IOException) {
            LOG.debug("connection {} failed: {}", ctx.channel().remoteAddress(), root.toString());
            ctx.close();
        } else {
            LOG.error("unexpected error on connection {}", ctx.channel().remoteAddress(), root);
            sendFatalAndClose(ctx, SqlState.INTERNAL_ERROR, "internal error: " + root);
        }
    }

    private static void sendFatalAndClose(ChannelHandlerContext ctx, SqlState state, String message) {
        if (!ctx.channel().isActive()) return;
        ctx.writeAndFlush(new BackendMessage.ErrorResponse(new BackendMessage.Diagnostic(
                        BackendMessage.Severity.FATAL, state.code(), message, null, null)))
                .addListener(f -> ctx.close());
    }
}
