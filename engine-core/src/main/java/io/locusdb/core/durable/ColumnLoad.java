package io.locusdb.core.durable;

import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.locusdb.core.durable.DataDirectoryException.Problem;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * The reading of one column from its part file's mapping into the part's memory, shared by every thread that wants
 * the column at the same time. The column's segments are cut into pieces; a thread takes the next piece nobody has
 * taken, copies it, and checksums it where it landed while it is still in the cache (the copy is what queries will
 * read, and the file may have changed since the start). A piece of a compressed segment is one of its LZ4 blocks:
 * copied into a scratch buffer, checksummed there, then decompressed from there into the part's memory, so the
 * bytes decompressed are the bytes checked. Whoever finishes the last piece combines the pieces' checksums and
 * compares them with the file's table of contents. The scan tasks of a query that all need a column just after a
 * restart thus read it together, and a background reader can take a few pieces at a time.
 */
final class ColumnLoad {
    /** Bytes of a piece: a few hundred microseconds of copying. */
    static final long PIECE = 1L << 20;
    /** A piece is copied and checksummed in steps that stay in a core's L2 cache. */
    private static final long STEP = 256L << 10;
    private static final int WHOLE_PIECE = SegmentChecksums.zeros(PIECE);
    /**
     * Decompressors with the scratch a stored block is checked in before it is decompressed: taken for one block and
     * given back, so that a machine with hundreds of worker threads keeps about as many as read at once, not one each.
     */
    private static final ConcurrentLinkedQueue<Unpacker> UNPACKERS = new ConcurrentLinkedQueue<>();
    /** Unpackers kept between blocks; more are made when more threads read at once, and dropped afterwards. */
    private static final int UNPACKERS_KEPT = Math.max(2, Runtime.getRuntime().availableProcessors());
    private static final AtomicInteger UNPACKERS_IDLE = new AtomicInteger();

    private final Path file;
    private final int column;
    private final MemorySegment[] sources;
    private final MemorySegment[] targets;
    private final long[] expectedCrcs;
    /** Per segment: its LZ4 blocks, or null when it is stored as it is in memory. */
    private final StoredSegment.Blocks[] blocks;
    /**
     * Piece {@code i} is bytes {@code pieceOffsets[i]..} of segment {@code pieceSegments[i]} in memory; of a
     * compressed segment it is block {@code pieceBlocks[i]}.
     */
    private final int[] pieceSegments;
    private final long[] pieceOffsets;
    private final int[] pieceBlocks;
    private final long[] pieceCrcs;
    private final AtomicInteger nextPiece = new AtomicInteger();
    private final AtomicInteger donePieces = new AtomicInteger();
    /** Set under this object's lock, which waiters wait on. */
    private volatile boolean complete;
    private volatile Failure failure;

    /** Why the column cannot be read; each caller gets its own exception from it. */
    private record Failure(Problem problem, String detail, Throwable cause) {
    }

    private static final class Unpacker {
        final Lz4Decompressor decompressor = Lz4Decompressor.create();
        final MemorySegment scratch = Arena.ofAuto().allocate(StoredSegment.scratchBytes(), 8);
    }

    /**
     * @param sources      the segments as stored in the file's mapping
     * @param targets      the part's memory for them, their sizes in memory
     * @param expectedCrcs the CRC-32C of each stored segment, as the table of contents records it
     * @param blocks       per segment, its blocks when compressed, else null
     */
    ColumnLoad(Path file, int column, MemorySegment[] sources, MemorySegment[] targets, long[] expectedCrcs,
               StoredSegment.Blocks[] blocks) {
        this.file = file;
        this.column = column;
        this.sources = sources;
        this.targets = targets;
        this.expectedCrcs = expectedCrcs;
        this.blocks = blocks;
        int pieces = 0;
        for (MemorySegment target : targets) {
            pieces += (int) ((target.byteSize() + PIECE - 1) / PIECE);
        }
        pieceSegments = new int[pieces];
        pieceOffsets = new long[pieces];
        pieceBlocks = new int[pieces];
        pieceCrcs = new long[pieces];
        int p = 0;
        for (int s = 0; s < targets.length; s++) {
            int block = 0;
            for (long at = 0; at < targets[s].byteSize(); at += PIECE) {
                pieceSegments[p] = s;
                pieceBlocks[p] = block++;
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
        long end = Math.min(targets[s].byteSize(), from + PIECE);
        try {
            if (blocks[s] != null) {
                unpack(piece, s, from, end - from);
            } else {
                CRC32C crc = new CRC32C();
                for (long at = from; at < end; at += STEP) {
                    long n = Math.min(STEP, end - at);
                    MemorySegment.copy(sources[s], at, targets[s], at, n);
                    crc.update(targets[s].asSlice(at, n).asByteBuffer());
                }
                pieceCrcs[piece] = crc.getValue();
            }
        } catch (MalformedInputException e) {
            fail(new Failure(Problem.CORRUPT_FILE, "column " + column + " segment " + s + " holds a damaged block: "
                    + e.getMessage(), e));
        } catch (RuntimeException | Error e) {
            // The file shrank under its mapping, say: the column fails for everyone rather than leave waiters.
            fail(new Failure(Problem.IO, "cannot read column " + column + ": " + e, e));
        }
        return end - from;
    }

    /** One LZ4 block of segment {@code s}: checked in the scratch, then decompressed (or copied) from there. */
    private void unpack(int piece, int s, long to, long length) {
        StoredSegment.Blocks segmentBlocks = blocks[s];
        int block = pieceBlocks[piece];
        int stored = segmentBlocks.lengths()[block];
        Unpacker unpacker = UNPACKERS.poll();
        if (unpacker == null) {
            unpacker = new Unpacker();
        } else {
            UNPACKERS_IDLE.decrementAndGet();
        }
        try {
            MemorySegment scratch = unpacker.scratch.asSlice(0, stored);
            MemorySegment.copy(sources[s], segmentBlocks.offsets()[block], scratch, 0, stored);
            CRC32C crc = new CRC32C();
            crc.update(scratch.asByteBuffer());
            pieceCrcs[piece] = crc.getValue();
            MemorySegment target = targets[s].asSlice(to, length);
            if (segmentBlocks.form() == StoredSegment.Form.DELTA_BLOCKS) {
                if (!DeltaBlock.decode(scratch, target)) {
                    throw new MalformedInputException(0, "block " + block + " does not hold " + length + " bytes");
                }
            } else if (stored == length) {
                MemorySegment.copy(scratch, 0, target, 0, length);
            } else if (unpacker.decompressor.decompress(scratch, target) != length) {
                throw new MalformedInputException(0, "block " + block + " does not hold " + length + " bytes");
            }
        } finally {
            if (UNPACKERS_IDLE.incrementAndGet() <= UNPACKERS_KEPT) {
                UNPACKERS.offer(unpacker);
            } else {
                UNPACKERS_IDLE.decrementAndGet();
            }
        }
    }

    /** The last piece is done: checks every segment's combined checksum, then lets the waiters go. */
    private void finish() {
        Failure damage = null;
        int p = 0;
        for (int s = 0; s < targets.length && damage == null && failure == null; s++) {
            long size = targets[s].byteSize();
            int pieces = (int) ((size + PIECE - 1) / PIECE);
            long crc;
            if (blocks[s] != null) {
                crc = blocks[s].indexCrc();
                for (int k = 0; k < pieces; k++) {
                    crc = SegmentChecksums.combine(crc, pieceCrcs[p + k], blocks[s].lengths()[k]);
                }
            } else {
                crc = SegmentChecksums.ofSlices(pieceCrcs, p, size, PIECE, WHOLE_PIECE);
            }
            p += pieces;
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
