package io.stillwater.engine.storage;

import io.stillwater.engine.error.SqlException;
import io.stillwater.engine.error.SqlState;
import io.stillwater.engine.storage.RecoveryReport.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log: the durable source of truth for the catalog and every table.
 *
 * <h2>Files</h2>
 * The log is a sequence of segment files {@code wal-<20-digit sequence>.log} in the data
 * directory. Each starts with a 16-byte header ({@code "STILLWAL"}, format version,
 * reserved) followed by frames {@code [int length][int CRC32C(payload)][payload]}
 * (big-endian). When a segment reaches the configured size (64 MiB by default) after a
 * commit, the next commit goes to a new segment. A checkpoint (coord {@code Checkpointer})
 * starts a new segment N ({@link #startNewSegment}) and, once its checkpoint file is
 * durable, deletes the segments before N ({@link #deleteSegmentsBefore}); {@link #open}
 * with {@code firstRequiredSegment} N finishes an interrupted deletion and refuses a log
 * that does not reach back to N. A lock file {@code wal.lock} keeps a second process (or a
 * second open in this process) off the directory.
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
 * {@link #open} scans every segment and stops at the first frame that is not intact
 * (partial header, impossible length, length past the end of the file, or CRC mismatch).
 * Everything from there on is cut off: the damaged segment is truncated (the cut bytes
 * are first saved to a side file {@code <segment>.torn-at-<offset>}) and any later
 * segments are renamed to {@code <segment>.discarded}; new appends follow the last intact
 * record. This is deliberate also when intact records follow the damage (corruption in
 * the middle of the log): records after a hole cannot be applied without the records in
 * it, so the valid log is the prefix before the damage. That case is reported (ERROR
 * log line and {@link RecoveryReport#intactRecordsDiscarded()}), never skipped silently.
 * A frame with a valid checksum whose record type or version this code does not know (a
 * log written by a newer version) makes open fail instead, before anything is truncated;
 * a known record whose body does not decode (a bug) makes {@link #replay} fail. Neither
 * is ever skipped.
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
    static final int SEGMENT_HEADER = 16;
    static final int FORMAT_VERSION = 1;
    private static final byte[] MAGIC = "STILLWAL".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern SEGMENT_NAME = Pattern.compile("wal-(\\d{20})\\.log");
    private static final String LOCK_FILE = "wal.lock";

    /** A recovered segment and where its valid records end. */
    private record Extent(Path file, long end) {}

    /** A queued record: its complete frame and the future its appender waits on. */
    private record Pending(ByteBuffer frame, CompletableFuture<Void> done) {}

    private final Path dir;
    private final boolean fsync;
    private final long segmentBytes;
    private final RecoveryReport report;
    private final List<Extent> recovered; // immutable after open: what replay() reads
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
                          RecoveryReport report, List<Extent> recovered, FileChannel channel, long segmentSeq, long position) {
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
        for (Extent e : recovered) bytesWritten.addAndGet(e.end() - SEGMENT_HEADER);
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
     * {@link #open(Path, boolean, long)} after a checkpoint that covers every segment before
     * {@code firstRequiredSegment}: those segments are deleted first (a deletion the
     * checkpoint started and a crash interrupted), and a log that does not start at
     * {@code firstRequiredSegment} is refused ({@code XX001}), since the records between
     * the checkpoint and the oldest segment present would be missing. With {@code
     * firstRequiredSegment} 1 (no checkpoint) a log whose first segment is missing is refused.
     */
    public static WriteAheadLog open(Path dir, boolean fsync, long segmentBytes, long firstRequiredSegment) {
        if (segmentBytes <= SEGMENT_HEADER) throw new IllegalArgumentException("segmentBytes " + segmentBytes);
        FileChannel lockChannel = null;
        try {
            Files.createDirectories(dir);
            lockChannel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new SqlException(SqlState.IO_ERROR,
                        "data directory \"" + dir + "\" is already in use by another Stillwater log",
                        null, "Is another server running on this data directory?");
            }
            try {
                deleteSegments(dir, firstRequiredSegment, fsync);
                requireFirstSegment(dir, firstRequiredSegment);
                return recover(dir, fsync, segmentBytes, lockChannel, lock, firstRequiredSegment);
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

    private static WriteAheadLog recover(Path dir, boolean fsync, long segmentBytes, FileChannel lockChannel, FileLock lock,
                                         long firstSegment) throws IOException {
        List<Path> segments = listSegments(dir);
        if (segments.isEmpty()) {
            Path first = segmentPath(dir, firstSegment);
            FileChannel ch = createSegment(first, fsync);
            if (fsync) syncDirectory(dir);
            RecoveryReport report = new RecoveryReport(0, 1, 0, Reason.CLEAN, null, -1, false, null);
            return new WriteAheadLog(dir, fsync, segmentBytes, lockChannel, lock, report, List.of(), ch, firstSegment, SEGMENT_HEADER);
        }

        List<Extent> extents = new ArrayList<>();
        long records = 0;
        Reason reason = Reason.CLEAN;
        long cutAt = -1;
        boolean intactAfterDamage = false;
        int damaged = -1; // index of the segment where the valid log ends early
        for (int i = 0; i < segments.size() && damaged < 0; i++) {
            Path file = segments.get(i);
            long size = Files.size(file);
            // A short header, or (in the newest segment only) a header of zeros, is a crash
            // while the segment was being created: no record can be in it, because records
            // go to a segment only after its header is synced.
            byte[] header = size < SEGMENT_HEADER ? null : readHeader(file);
            if (header == null || (i == segments.size() - 1 && isAllZero(header))) {
                damaged = i;
                reason = Reason.TORN_SEGMENT_HEADER;
                cutAt = 0;
                break;
            }
            checkSegmentHeader(file, header);
            try (SegmentScanner scanner = new SegmentScanner(file, SEGMENT_HEADER, size)) {
                for (SegmentScanner.Frame f = scanner.next(); f != null; f = scanner.next()) {
                    String why = LogRecordCodec.undecodableReason(f.payload());
                    if (why != null) {
                        throw new SqlException(SqlState.DATA_CORRUPTED,
                                "write-ahead log file \"" + file + "\" holds a record this version cannot read at byte offset "
                                        + f.offset() + ": " + why,
                                null, "Was the data directory written by a newer version of Stillwater?");
                    }
                    records++;
                }
                extents.add(new Extent(file, scanner.goodEnd()));
                if (scanner.stopReason() != Reason.CLEAN) {
                    damaged = i;
                    reason = scanner.stopReason();
                    cutAt = scanner.goodEnd();
                    intactAfterDamage = scanner.intactFrameFollowsDamage();
                }
            }
        }

        long truncated = 0;
        Path savedTail = null;
        Path cutFile = null;
        int lastIndex = segments.size() - 1;
        if (damaged >= 0) {
            cutFile = segments.get(damaged);
            long size = Files.size(cutFile);
            truncated += size - cutAt;
            for (int j = damaged + 1; j < segments.size(); j++) {
                long later = Files.size(segments.get(j));
                truncated += later;
                if (later > SEGMENT_HEADER) intactAfterDamage = true; // conservatively: a later segment had content
            }
            if (size > cutAt) savedTail = saveTail(cutFile, cutAt, size);
            // Set later segments aside before cutting: a crash in between must never leave a
            // log whose damaged segment is clean again while records after the hole remain.
            for (int j = damaged + 1; j < segments.size(); j++) {
                Path later = segments.get(j);
                Files.move(later, later.resolveSibling(later.getFileName() + ".discarded"), StandardCopyOption.REPLACE_EXISTING);
            }
            if (fsync && damaged + 1 < segments.size()) syncDirectory(dir);
            if (reason == Reason.TORN_SEGMENT_HEADER) {
                Files.delete(cutFile); // recreated below with a complete header
            } else {
                try (FileChannel ch = FileChannel.open(cutFile, StandardOpenOption.WRITE)) {
                    ch.truncate(cutAt);
                    if (fsync) ch.force(true);
                }
            }
            lastIndex = damaged;
        }
        RecoveryReport report = new RecoveryReport(records, lastIndex + 1, truncated, reason, cutFile, cutAt, intactAfterDamage, savedTail);
        if (report.intactRecordsDiscarded()) LOG.error("{}", report.describe());
        else if (!report.clean()) LOG.warn("{}", report.describe());
        else LOG.info("{}", report.describe());

        Path last = segments.get(lastIndex);
        long seq = sequenceOf(last);
        FileChannel ch = null;
        long position;
        try {
            if (reason == Reason.TORN_SEGMENT_HEADER) {
                ch = createSegment(last, fsync);
                position = SEGMENT_HEADER;
            } else {
                ch = FileChannel.open(last, StandardOpenOption.WRITE);
                position = extents.get(extents.size() - 1).end();
                ch.position(position);
            }
            if (fsync && damaged >= 0) syncDirectory(dir);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
        return new WriteAheadLog(dir, fsync, segmentBytes, lockChannel, lock, report, extents, ch, seq, position);
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
        FileChannel fresh = createSegment(next, fsync);
        if (fsync) syncDirectory(dir);
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
        List<Path> old;
        try (Stream<Path> files = Files.list(dir)) {
            old = new ArrayList<>(files.filter(p -> SEGMENT_NAME.matcher(p.getFileName().toString()).matches())
                    .filter(p -> sequenceOf(p) < firstKept).toList());
        }
        old.sort((a, b) -> Long.compare(sequenceOf(a), sequenceOf(b)));
        for (Path p : old) {
            Files.delete(p);
        }
        if (!old.isEmpty()) {
            if (fsync) syncDirectory(dir);
            LOG.info("deleted {} write-ahead log segment(s) before {}", old.size(), segmentPath(dir, firstKept).getFileName());
        }
        return old.size();
    }

    /** Refuses a log that does not start at {@code first} (segments after a checkpoint, or from the beginning, are missing). */
    private static void requireFirstSegment(Path dir, long first) throws IOException {
        long oldest;
        try (Stream<Path> files = Files.list(dir)) {
            oldest = files.filter(p -> SEGMENT_NAME.matcher(p.getFileName().toString()).matches())
                    .mapToLong(WriteAheadLog::sequenceOf).min().orElse(-1);
        }
        if (oldest == first) return;
        if (oldest < 0 && first == 1) return; // a new, empty data directory
        String missing = oldest < 0 ? "every segment from " + segmentPath(dir, first).getFileName()
                : "segments " + segmentPath(dir, first).getFileName() + " to " + segmentPath(dir, oldest - 1).getFileName();
        throw new SqlException(SqlState.DATA_CORRUPTED, "write-ahead log in \"" + dir + "\" is incomplete: " + missing
                + " " + (oldest < 0 ? "is" : "are") + " missing"
                + (first == 1 ? " and no checkpoint covers them" : " (they follow the newest checkpoint)"),
                null, first == 1
                        ? "Restore the missing checkpoint-*.ckpt file or segments from a backup; starting without them would lose data."
                        : "Restore the missing segment files from a backup; starting without them would lose committed writes.");
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
        for (Extent e : recovered) {
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

    private static long sequenceOf(Path segment) {
        Matcher m = SEGMENT_NAME.matcher(segment.getFileName().toString());
        if (!m.matches()) throw new IllegalArgumentException(segment.toString());
        return Long.parseLong(m.group(1));
    }

    /** The segments in sequence order; a gap in the sequence is refused rather than guessed around. */
    private static List<Path> listSegments(Path dir) throws IOException {
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = new ArrayList<>(files.filter(p -> SEGMENT_NAME.matcher(p.getFileName().toString()).matches()).toList());
        }
        segments.sort((a, b) -> Long.compare(sequenceOf(a), sequenceOf(b)));
        for (int i = 1; i < segments.size(); i++) {
            if (sequenceOf(segments.get(i)) != sequenceOf(segments.get(i - 1)) + 1) {
                throw new SqlException(SqlState.DATA_CORRUPTED, "write-ahead log segment missing between \""
                        + segments.get(i - 1) + "\" and \"" + segments.get(i) + "\"", null,
                        "Restore the missing segment file; the log cannot be replayed across a gap.");
            }
        }
        return segments;
    }

    private static byte[] readHeader(Path file) throws IOException {
        byte[] header = new byte[SEGMENT_HEADER];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(header, 0, SEGMENT_HEADER) != SEGMENT_HEADER) throw new IOException("short read of " + file);
        }
        return header;
    }

    private static boolean isAllZero(byte[] bytes) {
        for (byte b : bytes) if (b != 0) return false;
        return true;
    }

    private static void checkSegmentHeader(Path file, byte[] header) {
        if (!Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new SqlException(SqlState.DATA_CORRUPTED, "file \"" + file + "\" is not a Stillwater write-ahead log segment",
                    null, "Remove the file from the data directory if it does not belong there.");
        }
        int version = ByteBuffer.wrap(header, MAGIC.length, 4).getInt();
        if (version != FORMAT_VERSION) {
            throw new SqlException(SqlState.DATA_CORRUPTED, "write-ahead log segment \"" + file + "\" has format version "
                    + version + "; this version of Stillwater reads version " + FORMAT_VERSION, null,
                    "Was the data directory written by a different version of Stillwater?");
        }
    }

    /** Creates a segment holding just its header, synced when {@code fsync}; positioned after the header. */
    private static FileChannel createSegment(Path file, boolean fsync) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER).put(MAGIC).putInt(FORMAT_VERSION).putInt(0).flip();
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
    private static void syncDirectory(Path dir) throws IOException {
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
