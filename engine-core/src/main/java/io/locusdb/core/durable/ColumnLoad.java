package io.locusdb.core.durable;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * The reading of one column from its part file's mapping into the part's memory, shared by every thread that wants
 * the column at the same time. The column's segments are cut into pieces; a thread takes the next piece nobody has
 * taken, copies it, and checksums it where it landed while it is still in the cache (the copy is what queries will
 * read, and the file may have changed since the start). Whoever finishes the last piece combines the pieces'
 * checksums and compares them with the file's table of contents. The scan tasks of a query that all need a column
 * just after a restart thus read it together, and a background reader can take a few pieces at a time.
 */
final class ColumnLoad {
    /** Bytes of a piece: a few hundred microseconds of copying. */
    static final long PIECE = 1L << 20;
    /** A piece is copied and checksummed in steps that stay in a core's L2 cache. */
    private static final long STEP = 256L << 10;
    private static final int WHOLE_PIECE = SegmentChecksums.zeros(PIECE);

    private final Path file;
    private final int column;
    private final MemorySegment[] sources;
    private final MemorySegment[] targets;
    private final long[] expectedCrcs;
    /** Piece {@code i} is bytes {@code pieceOffsets[i]..} of segment {@code pieceSegments[i]}. */
    private final int[] pieceSegments;
    private final long[] pieceOffsets;
    private final long[] pieceCrcs;
    private final AtomicInteger nextPiece = new AtomicInteger();
    private final AtomicInteger donePieces = new AtomicInteger();
    /** Set under this object's lock, which waiters wait on. */
    private volatile boolean complete;
    private volatile Failure failure;

    /** Why the column cannot be read; each caller gets its own exception from it. */
    private record Failure(Problem problem, String detail, Throwable cause) {
    }

    /**
     * @param sources      the segments in the file's mapping
     * @param targets      the part's memory for them, same sizes
     * @param expectedCrcs the CRC-32C of each segment, as the table of contents records it
     */
    ColumnLoad(Path file, int column, MemorySegment[] sources, MemorySegment[] targets, long[] expectedCrcs) {
        this.file = file;
        this.column = column;
        this.sources = sources;
        this.targets = targets;
        this.expectedCrcs = expectedCrcs;
        int pieces = 0;
        for (MemorySegment source : sources) {
            pieces += (int) ((source.byteSize() + PIECE - 1) / PIECE);
        }
        pieceSegments = new int[pieces];
        pieceOffsets = new long[pieces];
        pieceCrcs = new long[pieces];
        int p = 0;
        for (int s = 0; s < sources.length; s++) {
            for (long at = 0; at < sources[s].byteSize(); at += PIECE) {
                pieceSegments[p] = s;
                pieceOffsets[p++] = at;
            }
        }
        if (pieces == 0) {
            finish();
        }
    }

    /**
     * Copies pieces nobody has taken until about {@code maxBytes} are copied or none is left. Once none is left it
     * waits for the pieces other threads are copying (each is short) and returns true: the column is readable.
     * Returns false when pieces are still untaken. Throws, naming the file, when the column's bytes are damaged.
     */
    boolean copy(long maxBytes) {
        if (complete) {
            return true;
        }
        throwIfFailed();
        long copied = 0;
        int total = pieceCrcs.length;
        while (copied < maxBytes && nextPiece.get() < total) {
            int piece = nextPiece.getAndIncrement();
            if (piece >= total) {
                break;
            }
            copied += copyPiece(piece);
            if (donePieces.incrementAndGet() == total) {
                finish();
            }
        }
        if (nextPiece.get() < total) {
            return false;
        }
        awaitPieces();
        throwIfFailed();
        return true;
    }

    private long copyPiece(int piece) {
        int s = pieceSegments[piece];
        long from = pieceOffsets[piece];
        long end = Math.min(sources[s].byteSize(), from + PIECE);
        try {
            CRC32C crc = new CRC32C();
            for (long at = from; at < end; at += STEP) {
                long n = Math.min(STEP, end - at);
                MemorySegment.copy(sources[s], at, targets[s], at, n);
                crc.update(targets[s].asSlice(at, n).asByteBuffer());
            }
            pieceCrcs[piece] = crc.getValue();
        } catch (RuntimeException | Error e) {
            // The file shrank under its mapping, say: the column fails for everyone rather than leave waiters.
            fail(new Failure(Problem.IO, "cannot read column " + column + ": " + e, e));
        }
        return end - from;
    }

    /** The last piece is done: checks every segment's combined checksum, then lets the waiters go. */
    private void finish() {
        Failure damage = null;
        int p = 0;
        for (int s = 0; s < sources.length && damage == null && failure == null; s++) {
            long size = sources[s].byteSize();
            long crc = SegmentChecksums.ofSlices(pieceCrcs, p, size, PIECE, WHOLE_PIECE);
            p += (int) ((size + PIECE - 1) / PIECE);
            if (crc != expectedCrcs[s]) {
                damage = new Failure(Problem.CORRUPT_FILE, "checksum mismatch in column " + column + " segment " + s
                        + ": the file was damaged after the start", null);
            }
        }
        if (damage != null) {
            fail(damage);
            return;
        }
        synchronized (this) {
            if (failure == null) {
                complete = true;
            }
            notifyAll();
        }
    }

    private void fail(Failure e) {
        synchronized (this) {
            if (failure == null) {
                failure = e;
            }
            notifyAll();
        }
    }

    /**
     * Waits for pieces that other threads are copying. Not interruptibly: a cancelled statement's thread may be
     * among the waiters, and the wait is short; its interrupt is kept for its caller.
     */
    private void awaitPieces() {
        boolean interrupted = false;
        synchronized (this) {
            while (!complete && failure == null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void throwIfFailed() {
        Failure e = failure;
        if (e != null) {
            throw new DataDirectoryException(e.problem(), file, e.detail(), e.cause());
        }
    }
}
