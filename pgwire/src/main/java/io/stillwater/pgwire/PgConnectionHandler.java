package io.stillwater.pgwire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.pgwire.auth.Authentication;
import io.stillwater.pgwire.protocol.BackendMessage;
import io.stillwater.pgwire.protocol.BackendMessage.Diagnostic;
import io.stillwater.pgwire.protocol.BackendMessage.Severity;
import io.stillwater.pgwire.protocol.FrontendMessage;
import io.stillwater.pgwire.protocol.InputRefused;
import io.stillwater.pgwire.protocol.ProtocolViolation;
import io.stillwater.pgwire.tls.ServerTls;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
 * where {@link ConnectionWorker} runs it against the engine: the messages of one socket
 * read go as one task ({@link #submitBurst}).
 *
 * <p><b>Inline reads.</b> A prepared point read (Bind, Describe, Execute, Sync of a
 * fast-path lookup) is answered here, on the event loop, without waking the worker: two
 * thread hand-offs (futex wake-ups and context switches) per execution otherwise. Who runs
 * the connection's messages (its <em>runner</em>, which owns the {@link ConnectionWorker}
 * and {@link Outbound} state) is decided per socket read: the event loop while the worker
 * has no message queued or running ({@code pending} is 0) and none of the worker's replies
 * is still queued to the event loop ({@link Outbound#workerWritesQueued}), so replies stay
 * in order; else the worker. The event loop runs a burst's leading messages as long as
 * {@link ConnectionWorker#handleNow} takes them, and hands the rest, in order, to the
 * worker. Hand-offs are ordered: to the worker by the executor's queue, back by the
 * worker's decrement of {@code pending} after its last message (read here before running
 * inline). Only reads that finish at once run here (the engine refuses any other: {@link
 * io.stillwater.engine.session.Session#executeImmediate}), so an expensive or waiting
 * read never blocks the event loop; cancellation and statement timeouts work as on the
 * worker. Off with {@code stillwater serve --inline-reads=false}.
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
 * reads them after the executor's hand-off, the server's gauges read {@code out}; {@code burst} is the event loop's alone. {@code pending}, {@code pendingBytes} and
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
    /** The server's TLS set-up, or null when it offers none. */
    private final ServerTls tls;
    /** Whether bounded reads may run on the event loop (see the class comment), and their counts. */
    private final InlineReads inlineReads;
    /** Whether an SSLRequest was answered (a second one is a protocol violation). Event loop only. */
    private boolean sslNegotiated;

    private ExecutorService executor;
    /** Messages decoded from the current socket read, not yet handed to the worker; event loop only. */
    private List<FrontendMessage> burst;
    private io.netty.util.concurrent.ScheduledFuture<?> startupTimer;
    /** Volatile: the server's gauges read it from other threads. */
    private volatile Outbound out;
    private ConnectionWorker worker;

    /**
     * {@code starting}: the server's bound on connections in startup; {@code liveWorkers}:
     * the server's set of connection threads, so it can wait for them on close; {@code
     * tls}: the server's TLS set-up, or null when SSLRequest is answered {@code N}.
     */
    PgConnectionHandler(SessionFactory sessions, CancelRegistry registry, StartingConnections starting,
                        Set<ExecutorService> liveWorkers, ServerTls tls, Authentication authentication,
                        InlineReads inlineReads) {
        this.sessions = sessions;
        this.inlineReads = inlineReads;
        this.tls = tls;
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
        // A TLS connection has finished its handshake by the time its StartupMessage arrives.
        worker = new ConnectionWorker(sessions, registry, out, this::leaveStartup, authentication,
                () -> ServerTls.encrypted(ctx.channel()));
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
            case FrontendMessage.SslRequest m -> {
                submitBurst(ctx); // what came before it goes first
                negotiateTls(ctx);
            }
            case FrontendMessage.GssEncRequest m -> {
                submitBurst(ctx);
                ctx.writeAndFlush(BackendMessage.EncryptionResponse.REFUSED);
            }
            case FrontendMessage.CancelRequest m -> {
                submitBurst(ctx);
                // PostgreSQL never answers a cancel request, whether or not it matched.
                boolean matched = registry.cancel(new BackendKey(m.processId(), m.secretKey()));
                LOG.debug("cancel request for pid {}: {}", m.processId(), matched ? "cancelled" : "no such session");
                ctx.close();
            }
            default -> {
                if (message instanceof FrontendMessage.Startup && refusedWithoutTls(ctx)) return;
                if (burst == null) burst = new ArrayList<>(4);
                burst.add(message);
            }
        }
    }

    /** The end of what one socket read decoded: its messages go to the worker as one task. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        submitBurst(ctx);
        super.channelReadComplete(ctx);
    }

    /**
     * Hands the messages of the current read burst to the worker thread as one task. A
     * client sends an extended-protocol execution (Bind, Describe, Execute, Sync) in one
     * packet: one task wakes the worker once, where a task per message could wake it
     * (a futex call and a context switch each) for every message. Event loop only.
     */
    private void submitBurst(ChannelHandlerContext ctx) {
        List<FrontendMessage> messages = burst;
        if (messages == null) return;
        burst = null;
        int ran = inlineReads.enabled() ? runInline(messages) : 0;
        if (ran == messages.size()) return;
        List<FrontendMessage> rest = ran == 0 ? messages : messages.subList(ran, messages.size());
        if (inlineReads.enabled()) {
            for (FrontendMessage m : rest) if (runsStatement(m)) inlineReads.handedOff();
        }
        submit(ctx, rest);
    }

    /** The messages the inline-read counters count: those that run a statement. */
    private static boolean runsStatement(FrontendMessage m) {
        return m instanceof FrontendMessage.Execute || m instanceof FrontendMessage.Query;
    }

    /**
     * Runs the leading messages of {@code messages} here, while {@link
     * ConnectionWorker#handleNow} takes them, if this thread may be the connection's runner
     * now (see the class comment); returns how many ran. Event loop only.
     */
    private int runInline(List<FrontendMessage> messages) {
        // The worker's decrement of pending follows its last message: reading 0 here sees all it did.
        if (pending.get() != 0 || out.workerWritesQueued()) return 0;
        for (int i = 0; i < messages.size(); i++) {
            FrontendMessage m = messages.get(i);
            try {
                if (!worker.handleNow(m)) return i;
                if (runsStatement(m)) inlineReads.answered();
            } catch (Throwable e) {
                // As on the worker: a failure around a statement ends the connection.
                worker.failed(e);
                return messages.size();
            }
        }
        return messages.size();
    }

    /**
     * Answers an SSLRequest: {@code N} without TLS; else {@code S}, sent in plaintext by
     * a new SslHandler put at the head of the pipeline, which encrypts everything after
     * it. The decoder has made sure no plaintext byte followed the request (it would be
     * injected by a man in the middle: CVE-2021-23214), so nothing read before the
     * handshake can reach the startup.
     */
    private void negotiateTls(ChannelHandlerContext ctx) {
        if (sslNegotiated) {
            sendFatalAndClose(ctx, new Diagnostic(Severity.FATAL, SqlState.PROTOCOL_VIOLATION.code(),
                    "SSL negotiation was already done on this connection", null, null));
            return;
        }
        sslNegotiated = true;
        if (tls == null) {
            ctx.writeAndFlush(BackendMessage.EncryptionResponse.REFUSED);
            return;
        }
        ctx.pipeline().addFirst("tls", tls.newHandler(ctx.alloc()));
        ctx.writeAndFlush(BackendMessage.EncryptionResponse.ACCEPTED);
    }

    /** Refuses (28000) a StartupMessage that came without TLS when the server requires it. */
    private boolean refusedWithoutTls(ChannelHandlerContext ctx) {
        if (tls == null || !tls.required() || ServerTls.encrypted(ctx.channel())) return false;
        LOG.info("refusing connection from {}: it did not request TLS, which the server requires",
                ctx.channel().remoteAddress());
        sendFatalAndClose(ctx, new Diagnostic(Severity.FATAL, SqlState.INVALID_AUTHORIZATION_SPECIFICATION.code(),
                "the server requires an encrypted connection (TLS)",
                "The connection did not send an SSLRequest; the server runs with --tls-mode=require.",
                "Connect with sslmode=require (or verify-full), e.g. psql \"host=... sslmode=require\", "
                        + "or pgjdbc's ssl=true&sslmode=require."));
        return true;
    }

    private void submit(ChannelHandlerContext ctx, List<FrontendMessage> messages) {
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon()
                    .name("pgwire-conn-" + CONNECTIONS.incrementAndGet()).factory());
            liveWorkers.add(executor);
        }
        long size = 0;
        for (FrontendMessage m : messages) size += m.approximateSize();
        int queued = pending.addAndGet(messages.size());
        long queuedBytes = pendingBytes.addAndGet(size);
        if (queued >= HIGH_WATER || queuedBytes >= HIGH_WATER_BYTES) {
            ctx.channel().config().setAutoRead(false);
            // The worker may have drained the queue between the increment and the line above.
            resumeIfDrained(ctx);
        }
        try {
            executor.execute(() -> {
                for (FrontendMessage message : messages) {
                    try {
                        worker.handle(message);
                    } catch (Throwable e) {
                        // handle() contains statement failures itself; this is a failure around them.
                        worker.failed(e);
                    } finally {
                        pending.decrementAndGet();
                        pendingBytes.addAndGet(-message.approximateSize());
                        resumeIfDrained(ctx);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            pending.addAndGet(-messages.size()); // the connection is closing; drop the messages
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
        submitBurst(ctx); // normally sent at channelReadComplete already
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
        if (worker != null) submitBurst(ctx); // the messages decoded before the failure, as before
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
            case SSLException tlsError -> {
                // A failed handshake (a client that does not trust our certificate, no
                // common protocol) or a broken record: this connection only.
                // (Not the message of a NotSslRecordException: it dumps the client's bytes.)
                LOG.info("TLS with {} failed: {}", ctx.channel().remoteAddress(),
                        tlsError instanceof io.netty.handler.ssl.NotSslRecordException
                                ? "the client sent plaintext instead of a TLS handshake" : tlsError.getMessage());
                ctx.close();
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
