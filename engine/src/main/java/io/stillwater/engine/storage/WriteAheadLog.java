package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.RecoveryReport.Reason;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: the durable source of truth for the catalog and every table.
 *
 * <h2>Files</h2>
 * The log is a sequence of segment files {@code wal-<20-digit sequence>.log} in the data
 * directory. Each starts with a 16-byte {@link SegmentHeader} ({@code "STILLWAL"}, format
 * version, the segment's sequence number) followed by frames {@code [int length][int
 * CRC32C(payload)][payload]} (big-endian). When a segment reaches the configured size
 * (64 MiB by default) after a commit, the next commit goes to a new segment, and the
 * control file {@code wal.control} ({@link WalControl}) is replaced to name it before any
 * record goes there. A checkpoint (coord {@code Checkpointer})
 * starts a new segment N ({@link #startNewSegment}) and, once its checkpoint file is
 * durable, deletes the segments before N ({@link #deleteSegmentsBefore}), oldest first so
 * the remaining sequence never has a gap; {@link #open} with {@code firstRequiredSegment}
 * N finishes an interrupted deletion. A lock file {@code wal.lock} keeps a second process
 * (or a second open in this process) off the directory.
 *
 * <h2>Group commit</h2>
 * Any number of threads call {@link #appendAsync}/{@link #append}. They encode and
 * checksum their record on their own thread and queue it. A single committer thread owns
 * the segment {@link FileChannel}: it takes every queued record, writes them with one
 * gathering write, fsyncs once, and then completes their futures in log order. So the
 * order of records in the log is the order in which their appends complete, and a record
 * whose append has completed precedes every record appended afterwards. A future
 * completes only after the fsync ({@code fsync == true}); with {@code fsync == false}
 * (tests that do not test durability) only after the write to the OS.
 *
 * <h2>Failure</h2>
 * An I/O error while writing or syncing fails every waiting future with an {@link
 * SqlException} ({@code 58030 io_error}) and poisons the log: every later append fails,
 * because after a failed fsync nothing can be known about what reached the disk. A write
 * that is never acknowledged may still turn out durable (its bytes may have reached the
 * disk before the error); an acknowledged one is always durable.
 *
 * <h2>Recovery</h2>
 * {@link #open} validates the whole log first ({@link SegmentValidator}). The only damage
 * it repairs is what a crash leaves: a torn final write in the newest segment (bytes after
 * the last intact record with no intact frame among them), or a newest segment whose
 * header never reached the disk. Those bytes are saved to a side file {@code
 * <segment>.torn-at-<offset>}, cut off, and reported with a WARN line; they were never
 * acknowledged. Any other damage (a bad frame followed by intact ones, damage in an older
 * segment, a bad header, a missing segment) makes open fail with a {@link
 * LogDamageException} naming the file and offset, and nothing is changed: records after
 * the damage may be acknowledged writes, and cutting them is the operator's decision
 * ({@link LogCut}, {@code stillwater serve --recover-truncate-at}). A frame with a valid
 * checksum whose record type or version this code does not know (a log written by a
 * newer version) also makes open fail; a known record whose body does not decode (a bug)
 * makes {@link #replay} fail. Neither is ever skipped.
 *
 * <p>Thread-safe: {@code append*}, {@code replay}, {@code recoveryReport} and {@code close}
 * may be called from any thread.
 */
public final class WriteAheadLog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);

    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
    /** Largest record payload; larger records are refused (and longer lengths are damage). */
    public static final int MAX_PAYLOAD = 1 << 30;
    static final int FRAME_HEADER = 8;
    static final int SEGMENT_HEADER = SegmentHeader.SIZE;
    static final String LOCK_FILE = "wal.lock";

    /** A queued record: its complete frame and the future its appender waits on. */
    private record Pending(ByteBuffer frame, CompletableFuture<Void> done) {}

    private final Path dir;
    private final boolean fsync;
    private final long segmentBytes;
    private final RecoveryReport report;
    private final List<SegmentValidator.Extent> recovered; // immutable after open: what replay() reads
    private final FileChannel lockChannel;
    private final FileLock dirLock;

    // The queue between appenders and the committer: queue, closing, poisonCause and holds are guarded by queueLock.
    private final ReentrantLock queueLock = new ReentrantLock();
    private final Condition workAvailable = queueLock.newCondition();
    private ArrayList<Pending> queue = new ArrayList<>();
    private boolean closing;
    private Throwable poisonCause; // non-null once an I/O error made the log unusable
    private int holds; // test hook: while > 0 the committer leaves the queue alone

    // Owned by the committer thread (handed over by Thread.start in the constructor).
    private FileChannel channel;
    private long segmentSeq;
    private long position; // end of the current segment = where the next frame goes
    private final Thread committer;
    /** The sequence number of the segment appends go to (the committer's {@code segmentSeq}, published). */
    private volatile long currentSegment;
    /** A checkpoint's request for a new segment, taken by the committer with the next batch. Guarded by queueLock. */
    private CompletableFuture<Long> segmentRequested;
    /** Bytes of frames written since open, plus the recovered log's: what checkpoint_wal_size measures. */
    private final AtomicLong bytesWritten = new AtomicLong();

    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong commits = new AtomicLong();
    // Test hook: an I/O error the committer raises at its next write, as a failing disk would.
    private final AtomicReference<IOException> injectedFailure = new AtomicReference<>();

    private WriteAheadLog(Path dir, boolean fsync, long segmentBytes, FileChannel lockChannel, FileLock dirLock,
                          RecoveryReport report, List<SegmentValidator.Extent> recovered, FileChannel channel, long segmentSeq, long position) {
        this.dir = dir;
        this.fsync = fsync;
        this.segmentBytes = segmentBytes;
        this.lockChannel = lockChannel;
        this.dirLock = dirLock;
        this.report = report;
        this.recovered = List.copyOf(recovered);
        this.channel = channel;
        this.segmentSeq = segmentSeq;
        this.position = position;
        this.currentSegment = segmentSeq;
        for (SegmentValidator.Extent e : recovered) bytesWritten.addAndGet(e.end() - SEGMENT_HEADER);
        this.committer = new Thread(this::runCommitter, "wal-committer " + dir.getFileName());
        committer.setDaemon(true); // acknowledged records are already durable; never keep the JVM up
        committer.start();
    }

    /** Opens (creating it if needed) the log in {@code dir} with 64 MiB segments; see {@link #open(Path, boolean, long)}. */
    public static WriteAheadLog open(Path dir, boolean fsync) {
        return open(dir, fsync, DEFAULT_SEGMENT_BYTES);
    }

    /**
     * Opens the log in {@code dir}, creating the directory and an empty log if needed, and
     * recovers it: scans every record, cuts off a damaged tail (see the class comment) and
     * positions new appends after the last intact record. The outcome is in {@link
     * #recoveryReport()}; the records are read with {@link #replay}.
     *
     * @param fsync        fsync before acknowledging appends; false only for tests that do not test durability
     * @param segmentBytes start a new segment file once the current one reaches this size
     * @throws SqlException {@code 58030} on I/O errors or when another process holds the directory;
     *                      {@code XX001} when the log holds a record this version cannot read
     */
    public static WriteAheadLog open(Path dir, boolean fsync, long segmentBytes) {
        return open(dir, fsync, segmentBytes, 1);
    }

    /**
     * As {@link #open(Path, boolean, long)}, for a log whose segments before {@code
     * firstRequiredSegment} may have been deleted (after a checkpoint): the log must hold
     * every segment from {@code firstRequiredSegment} (values below 1 mean 1) to the newest.
     * Older ones are deleted first: a deletion the checkpoint started and a crash
     * interrupted.
     *
     * @throws LogDamageException {@code XX001} when the log is damaged other than by a torn final write
     */
    public static WriteAheadLog open(Path dir, boolean fsync, long segmentBytes, long firstRequiredSegment) {
        if (segmentBytes <= SEGMENT_HEADER) throw new IllegalArgumentException("segmentBytes " + segmentBytes);
        FileChannel lockChannel = null;
        try {
            Files.createDirectories(dir);
            lockChannel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = tryLock(lockChannel);
            if (lock == null) {
                throw new SqlException(SqlState.IO_ERROR,
                        "data directory \"" + dir + "\" is already in use by another Stillwater log",
                        null, "Is another server running on this data directory?");
            }
            try {
                deleteSegments(dir, firstRequiredSegment, fsync);
                return recover(dir, fsync, segmentBytes, firstRequiredSegment, lockChannel, lock);
            } catch (RuntimeException | IOException e) {
                lock.release();
                throw e;
            }
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new SqlException(SqlState.IO_ERROR, "could not open write-ahead log in \"" + dir + "\": " + e, null, null, e);
        } catch (RuntimeException e) {
            closeQuietly(lockChannel);
            throw e;
        }
    }

    /**
     * The exclusive lock on a data directory's {@code wal.lock} (opened by the caller), or
     * null when another process, or another open in this process, holds it. The log holds
     * it while open; {@link LogCut} while it cuts.
     */
    static FileLock tryLock(FileChannel lockChannel) throws IOException {
        try {
            return lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    private static WriteAheadLog recover(Path dir, boolean fsync, long segmentBytes, long firstRequiredSegment,
                                         FileChannel lockChannel, FileLock lock) throws IOException {
        SegmentValidator.ValidLog log = SegmentValidator.validate(dir, firstRequiredSegment);
        if (log.segments().isEmpty()) {
            FileChannel ch = createSegment(segmentPath(dir, 1), 1, fsync);
            try {
                if (fsync) syncDirectory(dir);
                WalControl.write(dir, 1, fsync);
            } catch (IOException | RuntimeException e) {
                closeQuietly(ch);
                throw e;
            }
            RecoveryReport report = new RecoveryReport(0, 1, 0, Reason.CLEAN, null, -1, null);
            return new WriteAheadLog(dir, fsync, segmentBytes, lockChannel, lock, report, List.of(), ch, 1, SEGMENT_HEADER);
        }

        // Only a torn final write is cut here (SegmentValidator refused everything else).
        SegmentValidator.TornTail torn = log.torn();
        Path savedTail = null;
        if (torn != null) {
            long size = torn.offset() + torn.bytes();
            if (torn.bytes() > 0) savedTail = saveTail(torn.file(), torn.offset(), size);
            if (torn.reason() == Reason.TORN_SEGMENT_HEADER) {
                Files.delete(torn.file()); // recreated below with a complete header
            } else {
                try (FileChannel ch = FileChannel.open(torn.file(), StandardOpenOption.WRITE)) {
                    ch.truncate(torn.offset());
                    if (fsync) ch.force(true);
                }
            }
        }
        RecoveryReport report = torn == null
                ? new RecoveryReport(log.records(), log.segments().size(), 0, Reason.CLEAN, null, -1, null)
                : new RecoveryReport(log.records(), log.segments().size(), torn.bytes(), torn.reason(), torn.file(),
                        torn.offset(), savedTail);
        if (!report.clean()) LOG.warn("{}", report.describe());
        else LOG.info("{}", report.describe());

        Path last = log.segments().get(log.segments().size() - 1);
        long seq = SegmentValidator.sequenceOf(last);
        FileChannel ch = null;
        long position;
        try {
            if (torn != null && torn.reason() == Reason.TORN_SEGMENT_HEADER) {
                ch = createSegment(last, seq, fsync);
                position = SEGMENT_HEADER;
            } else {
                ch = FileChannel.open(last, StandardOpenOption.WRITE);
                position = log.extents().get(log.extents().size() - 1).end();
                ch.position(position);
            }
            if (fsync && torn != null) syncDirectory(dir);
            // Rewritten when it lags (a crash while rotating) or is missing (a log from before it existed).
            if (log.control().isEmpty() || log.control().getAsLong() != seq) WalControl.write(dir, seq, fsync);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
        return new WriteAheadLog(dir, fsync, segmentBytes, lockChannel, lock, report, log.extents(), ch, seq, position);
    }

    // ---------------------------------------------------------------- appending

    /**
     * Queues {@code record} for the next group commit. The future completes when the record
     * is durable (written and, with fsync on, fsynced), or fails with an {@link
     * SqlException}: {@code 58030} after an I/O error, {@code 57P01} once the log is closed,
     * {@code 54000} if the record is too large. Dependent actions attached with non-async
     * methods run on the committer thread: keep them short and never block there.
     *
     * @throws IllegalArgumentException if the record holds a value that is not a datum (an engine bug)
     */
    public CompletableFuture<Void> appendAsync(LogRecord record) {
        byte[] payload = LogRecordCodec.encode(record);
        if (payload.length > MAX_PAYLOAD) {
            return CompletableFuture.failedFuture(new SqlException(SqlState.PROGRAM_LIMIT_EXCEEDED,
                    "write-ahead log record of " + payload.length + " bytes exceeds the maximum of " + MAX_PAYLOAD + " bytes",
                    null, "Write fewer or smaller rows per transaction."));
        }
        ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER + payload.length);
        frame.putInt(payload.length).putInt(SegmentScanner.crc32c(payload)).put(payload).flip();
        CompletableFuture<Void> done = new CompletableFuture<>();
        queueLock.lock();
        try {
            if (poisonCause != null) return CompletableFuture.failedFuture(poisoned());
            if (closing) return CompletableFuture.failedFuture(closed());
            queue.add(new Pending(frame, done));
            workAvailable.signal();
        } finally {
            queueLock.unlock();
        }
        return done;
    }

    /**
     * Appends {@code record} and returns once it is durable: after the fsync that covers
     * it when fsync is on. Uninterruptible: the outcome of a write is always awaited.
     *
     * @throws SqlException as {@link #appendAsync} fails its future
     * @throws IllegalStateException when called on the committer thread (it would wait for itself)
     */
    public void append(LogRecord record) {
        if (Thread.currentThread() == committer) {
            throw new IllegalStateException("append would deadlock on the write-ahead log's committer thread; use appendAsync");
        }
        try {
            appendAsync(record).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw e;
        }
    }

    // ---------------------------------------------------------------- the committer thread

    private void runCommitter() {
        ArrayList<Pending> batch = new ArrayList<>();
        CompletableFuture<Long> newSegment = null;
        try {
            while (true) {
                queueLock.lock();
                try {
                    while (!closing && ((queue.isEmpty() && segmentRequested == null) || holds > 0)) {
                        workAvailable.awaitUninterruptibly();
                    }
                    if (queue.isEmpty() && segmentRequested == null) break; // closing, and everything queued is done
                    ArrayList<Pending> taken = queue;
                    queue = batch; // reuse the drained list; appenders add to it from now on
                    batch = taken;
                    newSegment = segmentRequested;
                    segmentRequested = null;
                } finally {
                    queueLock.unlock();
                }
                if (!batch.isEmpty()) commit(batch);
                batch.clear();
                // Records queued before the request are in the old segment, later ones in the new.
                if (newSegment != null) startRequestedSegment(newSegment);
                newSegment = null;
            }
        } catch (Throwable t) { // never leave a waiter hanging, whatever happened
            poison(t, batch);
            if (newSegment != null) newSegment.completeExceptionally(ioError(t));
            if (t instanceof Error e) throw e;
        } finally {
            closeQuietly(channel);
            try {
                dirLock.release();
            } catch (IOException e) {
                LOG.warn("could not release the lock on {}", dir.resolve(LOCK_FILE), e);
            }
            closeQuietly(lockChannel);
        }
    }

    /** Writes, syncs and acknowledges one batch. Runs on the committer thread only. */
    private void commit(List<Pending> batch) {
        if (poisonCause != null) { // read without the lock: only this thread sets it
            for (Pending p : batch) p.done().completeExceptionally(poisoned());
            return;
        }
        ByteBuffer[] frames = new ByteBuffer[batch.size()];
        long total = 0;
        for (int i = 0; i < frames.length; i++) {
            frames[i] = batch.get(i).frame();
            total += frames[i].remaining();
        }
        try {
            IOException injected = injectedFailure.getAndSet(null);
            if (injected != null) throw injected;
            long written = 0;
            while (written < total) written += channel.write(frames);
            // force(false) is fdatasync: it also persists the file length, which reading the data back needs.
            if (fsync) {
                channel.force(false);
                syncs.incrementAndGet();
            }
        } catch (IOException | RuntimeException e) {
            poison(e, batch);
            return;
        }
        position += total;
        bytesWritten.addAndGet(total);
        commits.incrementAndGet();
        for (Pending p : batch) p.done().complete(null);
        if (position >= segmentBytes) {
            try {
                rotate();
            } catch (IOException | RuntimeException e) {
                poison(e, List.of());
            }
        }
    }

    /** Starts the next segment. The new file is complete and synced before any record goes to it. */
    private void rotate() throws IOException {
        Path next = segmentPath(dir, segmentSeq + 1);
        FileChannel fresh = createSegment(next, segmentSeq + 1, fsync);
        try {
            if (fsync) syncDirectory(dir);
            WalControl.write(dir, segmentSeq + 1, fsync); // only now may records go to it (WalControl's invariant)
        } catch (IOException | RuntimeException e) {
            closeQuietly(fresh);
            throw e;
        }
        channel.close();
        channel = fresh;
        segmentSeq++;
        currentSegment = segmentSeq;
        position = SEGMENT_HEADER;
        LOG.debug("write-ahead log moved to segment {}", next);
    }

    /** A requested new segment (see {@link #startNewSegment}). Committer thread. */
    private void startRequestedSegment(CompletableFuture<Long> request) {
        if (poisonCause != null) {
            request.completeExceptionally(poisoned());
            return;
        }
        try {
            rotate();
            request.complete(segmentSeq);
        } catch (IOException | RuntimeException e) {
            poison(e, List.of());
            request.completeExceptionally(ioError(e));
        }
    }

    /** Makes the log unusable after an I/O error and fails {@code batch} and everything queued. */
    private void poison(Throwable cause, List<Pending> batch) {
        List<Pending> queued;
        queueLock.lock();
        try {
            if (poisonCause == null) poisonCause = cause;
            queued = new ArrayList<>(queue);
            queue.clear();
        } finally {
            queueLock.unlock();
        }
        LOG.error("write-ahead log in {} failed; no further writes are accepted", dir, cause);
        for (Pending p : batch) p.done().completeExceptionally(ioError(cause));
        for (Pending p : queued) p.done().completeExceptionally(ioError(cause));
    }

    private SqlException ioError(Throwable cause) {
        return new SqlException(SqlState.IO_ERROR,
                "could not write to write-ahead log file \"" + segmentPath(dir, segmentSeq) + "\": " + cause.getMessage(),
                null, "The write was not acknowledged. Check the disk, then restart the server to recover.", cause);
    }

    private SqlException poisoned() {
        return new SqlException(SqlState.IO_ERROR,
                "the write-ahead log in \"" + dir + "\" stopped accepting writes after an I/O error: " + poisonCause.getMessage(),
                null, "Check the disk, then restart the server to recover.", poisonCause);
    }

    private static SqlException closed() {
        return new SqlException(SqlState.ADMIN_SHUTDOWN, "the write-ahead log is closed because the server is shutting down");
    }

    // ---------------------------------------------------------------- checkpoints

    /**
     * Starts a new segment now, even if the current one is not full, and returns its
     * sequence number N once the new file (and the directory entry) is durable. Every
     * record whose append was queued before this call lies in a segment before N; every
     * record queued after it in N or later. A checkpoint calls it while no record can be
     * queued (it holds the pipeline's write lock), so the split is exactly at its time.
     *
     * @throws SqlException 58030 on an I/O error (the log is poisoned then), 57P01 once closed
     */
    public long startNewSegment() {
        if (Thread.currentThread() == committer) throw new IllegalStateException("startNewSegment on the committer thread");
        CompletableFuture<Long> request = new CompletableFuture<>();
        queueLock.lock();
        try {
            if (poisonCause != null) throw poisoned();
            if (closing) throw closed();
            if (segmentRequested != null) request = segmentRequested; // one rotation serves both callers
            else segmentRequested = request;
            workAvailable.signal();
        } finally {
            queueLock.unlock();
        }
        try {
            return request.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw e;
        }
    }

    /** The segment appends go to now. */
    public long currentSegment() { return currentSegment; }

    /** Bytes of records in the log since it was opened, counting the recovered ones: what a checkpoint trigger measures. */
    public long bytesWritten() { return bytesWritten.get(); }

    /**
     * Deletes every segment before {@code firstKept} (which must not be after the current
     * segment), oldest first, so that a crash half-way leaves a contiguous log; then
     * syncs the directory. Only once a checkpoint that covers them is durable. Returns how
     * many files were deleted.
     *
     * @throws SqlException 58030 on an I/O error
     */
    public int deleteSegmentsBefore(long firstKept) {
        if (firstKept > currentSegment) {
            throw new IllegalArgumentException("segment " + firstKept + " is after the current segment " + currentSegment);
        }
        try {
            return deleteSegments(dir, firstKept, fsync);
        } catch (IOException e) {
            throw new SqlException(SqlState.IO_ERROR, "could not delete write-ahead log segments before " + firstKept
                    + " in \"" + dir + "\": " + e, null, null, e);
        }
    }

    private static int deleteSegments(Path dir, long firstKept, boolean fsync) throws IOException {
        List<Path> old = new ArrayList<>(SegmentValidator.listSegments(dir).stream()
                .filter(p -> SegmentValidator.sequenceOf(p) < firstKept).toList());
        for (Path p : old) {
            Files.delete(p);
        }
        if (!old.isEmpty()) {
            if (fsync) syncDirectory(dir);
            LOG.info("deleted {} write-ahead log segment(s) before {}", old.size(), segmentPath(dir, firstKept).getFileName());
        }
        return old.size();
    }

    // ---------------------------------------------------------------- reading

    /**
     * Feeds every record recovered at {@link #open} to {@code sink}, in log order. Records
     * appended since open are not included. May be called more than once, from any thread,
     * also while appends go on.
     *
     * @throws SqlException {@code 58030} on a read error; {@code XX001} if a recovered record
     *                      no longer reads back (the file changed under the log)
     */
    public void replay(Consumer<LogRecord> sink) {
        for (SegmentValidator.Extent e : recovered) {
            try (SegmentScanner scanner = new SegmentScanner(e.file(), SEGMENT_HEADER, e.end())) {
                for (SegmentScanner.Frame f = scanner.next(); f != null; f = scanner.next()) {
                    LogRecord record;
                    try {
                        record = LogRecordCodec.decode(f.payload());
                    } catch (CorruptDataException ex) {
                        throw new SqlException(SqlState.DATA_CORRUPTED, "could not decode write-ahead log record at byte offset "
                                + f.offset() + " of \"" + e.file() + "\": " + ex.getMessage(), null, null, ex);
                    }
                    sink.accept(record);
                }
                if (scanner.stopReason() != Reason.CLEAN) {
                    throw new SqlException(SqlState.DATA_CORRUPTED, "write-ahead log file \"" + e.file()
                            + "\" changed after recovery: " + scanner.stopReason() + " at byte offset " + scanner.goodEnd());
                }
            } catch (IOException ex) {
                throw new SqlException(SqlState.IO_ERROR, "could not read write-ahead log file \"" + e.file() + "\": " + ex, null, null, ex);
            }
        }
    }

    /** What recovery found when this log was opened. */
    public RecoveryReport recoveryReport() { return report; }

    /** Number of fsyncs issued so far (one per group commit with fsync on): for tests and introspection. */
    public long syncCount() { return syncs.get(); }

    /** Number of group commits (batches written) so far. */
    public long commitCount() { return commits.get(); }

    public Path directory() { return dir; }

    /**
     * Commits everything already queued, stops the committer thread and releases the
     * directory. Appends after close fail. Idempotent.
     */
    @Override
    public void close() {
        queueLock.lock();
        try {
            closing = true;
            workAvailable.signalAll();
        } finally {
            queueLock.unlock();
        }
        if (Thread.currentThread() == committer) return; // it exits after the current callback
        boolean interrupted = false;
        while (committer.isAlive()) {
            try {
                committer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    // ---------------------------------------------------------------- test hooks

    /** While the returned handle is open, the committer takes nothing from the queue (tests only). */
    AutoCloseable holdCommits() {
        queueLock.lock();
        try {
            holds++;
        } finally {
            queueLock.unlock();
        }
        return () -> {
            queueLock.lock();
            try {
                holds--;
                workAvailable.signalAll();
            } finally {
                queueLock.unlock();
            }
        };
    }

    /** Makes the committer's next write fail with {@code failure}, as a failing disk would (tests only). */
    void failNextWrite(IOException failure) { injectedFailure.set(failure); }

    /** Records queued and not yet taken by the committer (tests only). */
    int queuedRecords() {
        queueLock.lock();
        try {
            return queue.size();
        } finally {
            queueLock.unlock();
        }
    }

    // ---------------------------------------------------------------- files

    static Path segmentPath(Path dir, long seq) { return dir.resolve(String.format("wal-%020d.log", seq)); }

    /** Creates a segment holding just its header, synced when {@code fsync}; positioned after the header. */
    private static FileChannel createSegment(Path file, long seq, boolean fsync) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            ByteBuffer header = SegmentHeader.encode(seq);
            while (header.hasRemaining()) ch.write(header);
            if (fsync) ch.force(true);
            return ch;
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    /** Copies the bytes about to be cut off to a side file, so damage can be inspected later. */
    private static Path saveTail(Path file, long from, long to) throws IOException {
        Path side = file.resolveSibling(file.getFileName() + ".torn-at-" + from);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
             OutputStream out = Files.newOutputStream(side)) {
            in.position(from);
            Channels.newInputStream(in).transferTo(out);
        }
        return side;
    }

    /** Makes file creations, renames and deletions in {@code dir} durable. */
    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("ignored error while closing", e);
        }
    }
}
