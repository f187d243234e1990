package io.locusdb.core.durable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * The write-ahead log: numbered segment files of checksummed records. {@link #append} writes a record to the
 * operating system (so a killed process loses nothing) and returns its log position; {@link #awaitDurable} waits
 * until the position is on disk as the {@link FsyncPolicy} says. Under {@link FsyncPolicy.EveryCommit} the first
 * waiter forces the file for everyone who appended before it, so concurrent commits share one fsync.
 *
 * <p>Segment layout: {@link LogFormat#SEGMENT_MAGIC}, the segment number (long), then records of {@code int length,
 * int crc32c(payload), payload}, big-endian.
 */
final class WriteAheadLog implements AutoCloseable {
    private final Path directory;
    private final FsyncPolicy policy;
    private final Object appendLock = new Object();
    private final Object syncLock = new Object();
    private final ScheduledExecutorService groupSync;
    private FileChannel channel;
    private long segment;
    private long segmentBytes;
    /** Bytes appended since the log was opened: the position of the end of the last record. */
    private long written;
    private final AtomicLong durable = new AtomicLong();
    /** Whether the current segment's directory entry is on disk (see {@link #openSegment}). */
    private volatile boolean listed;
    private boolean closed;

    private WriteAheadLog(Path directory, FsyncPolicy policy, long firstSegment) throws IOException {
        this.directory = directory;
        this.policy = policy;
        openSegment(firstSegment, false);
        if (policy instanceof FsyncPolicy.Grouped grouped) {
            groupSync = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("locus-wal-sync").daemon().factory());
            groupSync.scheduleWithFixedDelay(this::syncQuietly, grouped.millis(), grouped.millis(),
                    TimeUnit.MILLISECONDS);
        } else {
            groupSync = null;
        }
    }

    /** Starts writing at a new segment {@code firstSegment} (older segments are the recovery's to read). */
    static WriteAheadLog open(Path directory, FsyncPolicy policy, long firstSegment) throws IOException {
        Files.createDirectories(directory);
        return new WriteAheadLog(directory, policy, firstSegment);
    }

    static Path segmentFile(Path directory, long segment) {
        return directory.resolve(String.format("%016d.log", segment));
    }

    /**
     * Creates segment {@code number}. With {@code durableNow} false (the start's segment) nothing is forced yet: a
     * segment holding no record is lost harmlessly by a crash, and the first sync of a record also syncs the
     * segment's directory entry ({@link #makeListed}). A start then waits for no fsync.
     */
    private void openSegment(long number, boolean durableNow) throws IOException {
        Path file = segmentFile(directory, number);
        FileChannel next = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        ByteBuffer header = ByteBuffer.allocate(LogFormat.SEGMENT_HEADER).order(ByteOrder.BIG_ENDIAN);
        header.put(LogFormat.SEGMENT_MAGIC).putLong(number).flip();
        while (header.hasRemaining()) {
            next.write(header);
        }
        if (durableNow) {
            next.force(true);
            LogFormat.syncDirectory(directory);
        }
        listed = durableNow;
        channel = next;
        segment = number;
        segmentBytes = LogFormat.SEGMENT_HEADER;
    }

    /** Writes one record; returns the log position to pass to {@link #awaitDurable}. */
    long append(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        ByteBuffer record = ByteBuffer.allocate(8 + payload.length).order(ByteOrder.BIG_ENDIAN);
        record.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        synchronized (appendLock) {
            if (closed) {
                throw new IllegalStateException("the write-ahead log is closed");
            }
            try {
                while (record.hasRemaining()) {
                    channel.write(record);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("write-ahead log " + segmentFile(directory, segment) + ": "
                        + e.getMessage(), e);
            }
            segmentBytes += 8 + payload.length;
            written += 8 + payload.length;
            return written;
        }
    }

    /** Returns once {@code position} is on disk as the policy promises (at once under grouped or no fsync). */
    void awaitDurable(long position) {
        if (!(policy instanceof FsyncPolicy.EveryCommit)) {
            return;
        }
        // Group commit: whoever holds the lock forces everything appended so far; those who appended meanwhile
        // wait here and usually find their record already on disk when they get the lock.
        synchronized (syncLock) {
            if (durable.get() >= position) {
                return;
            }
            long target;
            FileChannel file;
            synchronized (appendLock) {
                target = written;
                file = channel;
            }
            force(file);
            makeListed();
            durable.accumulateAndGet(target, Math::max);
        }
    }

    /**
     * Syncs the log directory once after the start, so that the segment the start created (and with it every record
     * just forced) survives a crash of the machine. Later segments are synced as they are created.
     */
    private void makeListed() {
        if (listed) {
            return;
        }
        synchronized (appendLock) {
            if (listed) {
                return;
            }
            LogFormat.syncDirectory(directory);
            listed = true;
        }
    }

    private void force(FileChannel file) {
        try {
            file.force(false);
        } catch (ClosedChannelException e) {
            // A roll forced and closed this segment meanwhile: what it held is on disk.
        } catch (IOException e) {
            throw new UncheckedIOException("fsync of the write-ahead log failed: " + e.getMessage(), e);
        }
    }

    private void syncQuietly() {
        try {
            FileChannel file;
            synchronized (appendLock) {
                if (closed) {
                    return;
                }
                file = channel;
            }
            force(file);
            makeListed();
        } catch (RuntimeException e) {
            System.getLogger(WriteAheadLog.class.getName()).log(System.Logger.Level.WARNING, e.getMessage());
        }
    }

    /**
     * Forces the current segment and continues in a new one; returns the new segment's number. A checkpoint calls it
     * while writers wait: what the checkpoint holds is exactly the segments before the returned one.
     */
    long roll() {
        synchronized (appendLock) {
            try {
                channel.force(true);
                channel.close();
                // The next segment may survive a crash only if this one does: list it first.
                if (!listed) {
                    LogFormat.syncDirectory(directory);
                }
                openSegment(segment + 1, true);
            } catch (IOException e) {
                throw new UncheckedIOException("write-ahead log roll: " + e.getMessage(), e);
            }
            durable.accumulateAndGet(written, Math::max);
            return segment;
        }
    }

    /** Bytes in the current segment (the checkpoint trigger's measure). */
    long segmentBytes() {
        synchronized (appendLock) {
            return segmentBytes;
        }
    }

    long currentSegment() {
        synchronized (appendLock) {
            return segment;
        }
    }

    @Override
    public void close() {
        if (groupSync != null) {
            groupSync.shutdownNow();
        }
        synchronized (appendLock) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                channel.force(true);
                channel.close();
                if (!listed) {
                    LogFormat.syncDirectory(directory);
                    listed = true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("closing the write-ahead log: " + e.getMessage(), e);
            }
        }
    }
}
