package io.locusdb.core.durable;

import io.airlift.compress.v3.lz4.Lz4Compressor;
import io.locusdb.core.durable.DataDirectoryException.Problem;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.ColumnLoader;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.PartMemory;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.memory.NodeMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.zip.CRC32C;

/**
 * A table part's main columns on disk: each column's dictionary segments and packed codes as they are in memory, or,
 * where that is worth it, as blocks of differences (sorted dictionaries, string offsets) or LZ4 blocks (string bytes)
 * ({@link StoredSegment}), so that loading is a read (and, for a compressed segment, a decoding pass) into node-bound
 * memory, block by block in parallel. A table of contents comes first, so that the
 * segments of one part can be read in parallel, each checked by its own checksum. Little-endian:
 *
 * <pre>
 * "LOCUSPF3"  int columns  long rows
 * per column: byte dictionary kind (0 long, 1 double, 2 string)  int dictionary size  long nulls
 *             int code bits  byte packing  long codes  int segments,
 *             per segment: long bytes in memory, long bytes stored, byte form (0 raw, 1 LZ4 blocks,
 *             2 delta blocks), long crc32c of the stored bytes
 * long crc32c of everything above
 * the segments' stored bytes, in table-of-contents order
 * </pre>
 *
 * Files of the previous version ("LOCUSPF2": every segment raw, per segment only its bytes and crc32c) still open.
 */
final class PartFile {
    private static final byte[] MAGIC = "LOCUSPF3".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MAGIC_V2 = "LOCUSPF2".getBytes(StandardCharsets.US_ASCII);
    private static final int SEGMENT_META = 8 + 8 + 1 + 8;
    private static final int SEGMENT_META_V2 = 8 + 8;
    /**
     * The start checks segments in slices of this size, one task each, so that a few large segments (string
     * dictionaries) do not leave all but one thread idle at the end.
     */
    static final long CHECK_SLICE = 4L << 20;
    private static final int WHOLE_SLICE = SegmentChecksums.zeros(CHECK_SLICE);
    private static final int COLUMN_META = 1 + 4 + 8 + 4 + 1 + 8 + 4;

    private PartFile() {
    }

    /**
     * Writes the part's main columns to {@code file} and forces them to disk. The segments stream out first, behind
     * room for the table of contents, which is written last, when their stored sizes and checksums are known.
     */
    static void write(Path file, TablePart part) throws IOException {
        List<List<MemorySegment>> segments = new ArrayList<>();
        // Per segment, the width of its elements when it is a sorted array of numbers (worth storing as
        // differences), else 0.
        List<int[]> sortedElementBytes = new ArrayList<>();
        int segmentCount = 0;
        for (Column column : part.columns()) {
            List<MemorySegment> list = new ArrayList<>(3);
            switch (column.dictionary()) {
                case LongDictionary d -> {
                    list.add(d.segment());
                    sortedElementBytes.add(new int[] {Long.BYTES, 0});
                }
                case DoubleDictionary d -> {
                    list.add(d.segment());
                    sortedElementBytes.add(new int[] {Long.BYTES, 0});
                }
                case StringDictionary d -> {
                    list.add(d.offsetsSegment());
                    list.add(d.bytesSegment());
                    sortedElementBytes.add(new int[] {Integer.BYTES, 0, 0});
                }
            }
            list.add(column.codes().words());
            segments.add(list);
            segmentCount += list.size();
        }
        int tocBytes = MAGIC.length + 12 + part.columns().size() * COLUMN_META + segmentCount * SEGMENT_META + 8;
        ByteBuffer toc = small(tocBytes);
        toc.put(MAGIC).putInt(part.columns().size()).putLong(part.rows());
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            Lz4Compressor compressor = Lz4Compressor.create();
            MemorySegment scratch = StoredSegment.scratch(arena);
            long position = tocBytes;
            for (int c = 0; c < part.columns().size(); c++) {
                Column column = part.columns().get(c);
                byte kind = switch (column.dictionary()) {
                    case LongDictionary d -> 0;
                    case DoubleDictionary d -> 1;
                    case StringDictionary d -> 2;
                };
                PackedCodes codes = column.codes();
                List<MemorySegment> list = segments.get(c);
                toc.put(kind).putInt(column.dictionary().size()).putLong(column.nullCount())
                        .putInt(codes.layout().codeBits()).put((byte) codes.layout().packing().ordinal())
                        .putLong(codes.count()).putInt(list.size());
                for (int s = 0; s < list.size(); s++) {
                    MemorySegment segment = list.get(s);
                    StoredSegment.Written written = StoredSegment.write(out, position, segment,
                            sortedElementBytes.get(c)[s], compressor, scratch);
                    toc.putLong(segment.byteSize()).putLong(written.stored()).put((byte) written.form().ordinal())
                            .putLong(written.crc());
                    position += written.stored();
                }
            }
            CRC32C tocCrc = new CRC32C();
            tocCrc.update(toc.array(), 0, toc.position());
            toc.putLong(tocCrc.getValue()).flip();
            while (toc.hasRemaining()) {
                out.write(toc, toc.position());
            }
            out.force(true);
        }
    }

    /**
     * Opens a part file: reads and checks its table of contents and allocates the part's memory, placed per
     * {@code placement} but not yet touched. The returned part's {@link Pending#checks()}, which may run in parallel,
     * checksum every segment straight from the file (no copy), and {@link Pending#verify()} compares the sums with
     * the table of contents; then {@link Pending#finish()} builds a part
     * whose columns are read into its memory on first use ({@link ColumnLoader}). A damaged table of contents stops
     * here with {@link Problem#CORRUPT_FILE}, and nothing stays allocated.
     */
    static Pending open(Path file, int index, Schema schema, NodeMemory memory, PartPlacement placement,
                        PartDelta delta) {
        FileChannel in;
        try {
            in = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new DataDirectoryException(Problem.MISSING_FILE, file, "part file is missing");
        } catch (IOException e) {
            throw new DataDirectoryException(Problem.IO, file, "cannot read: " + e.getMessage(), e);
        }
        PartMemory partMemory = new PartMemory(memory, placement);
        try {
            CRC32C tocCrc = new CRC32C();
            long[] position = {0};
            ByteBuffer header = get(in, MAGIC.length + 12, position, tocCrc, file);
            byte[] magic = new byte[MAGIC.length];
            header.get(magic);
            boolean v2 = Arrays.equals(magic, MAGIC_V2);
            if (!v2 && !Arrays.equals(magic, MAGIC)) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "not a LocusDB part file (bad header)");
            }
            int columnCount = header.getInt();
            long rows = header.getLong();
            if (columnCount != schema.size() || rows < 0) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "holds " + columnCount + " columns of "
                        + rows + " rows; the table has " + schema.size() + " columns");
            }
            List<ColumnEntry> columns = new ArrayList<>(columnCount);
            for (int c = 0; c < columnCount; c++) {
                ByteBuffer meta = get(in, COLUMN_META, position, tocCrc, file);
                ColumnEntry entry = new ColumnEntry(meta.get(), meta.getInt(), meta.getLong(), meta.getInt(),
                        meta.get(), meta.getLong(), meta.getInt());
                int expectedSegments = entry.kind == 2 ? 3 : 2;
                if (entry.kind < 0 || entry.kind > 2 || entry.segmentCount != expectedSegments
                        || entry.count != rows || entry.dictionarySize < 0 || entry.packing < 0
                        || entry.packing >= PackedLayout.Packing.values().length) {
                    throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "column " + c
                            + " has a damaged description");
                }
                ByteBuffer sizes = get(in, (v2 ? SEGMENT_META_V2 : SEGMENT_META) * entry.segmentCount, position,
                        tocCrc, file);
                for (int s = 0; s < entry.segmentCount; s++) {
                    entry.sizes[s] = sizes.getLong();
                    if (v2) {
                        entry.stored[s] = entry.sizes[s];
                        entry.forms[s] = StoredSegment.Form.RAW;
                    } else {
                        entry.stored[s] = sizes.getLong();
                        entry.forms[s] = StoredSegment.Form.of(sizes.get());
                        if (entry.forms[s] == null) {
                            throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "column " + c + " segment "
                                    + s + " is stored in an unknown form");
                        }
                    }
                    entry.crcs[s] = sizes.getLong();
                }
                columns.add(entry);
            }
            long expected = tocCrc.getValue();
            if (get(in, 8, position, new CRC32C(), file).getLong() != expected) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "checksum mismatch in the table of"
                        + " contents: the file is damaged");
            }
            long offset = position[0];
            long size = in.size();
            List<Runnable> checks = new ArrayList<>();
            for (int c = 0; c < columnCount; c++) {
                ColumnEntry entry = columns.get(c);
                for (int s = 0; s < entry.segmentCount; s++) {
                    long bytes = entry.sizes[s];
                    long stored = entry.stored[s];
                    if (bytes < 0 || stored < 0 || offset + stored > size) {
                        throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "column " + c + " segment " + s
                                + " of " + stored + " bytes runs past the end of the file");
                    }
                    if (entry.forms[s] == StoredSegment.Form.RAW && stored != bytes
                            || entry.forms[s] != StoredSegment.Form.RAW
                            && stored < 4 + 4L * StoredSegment.blocks(bytes)) {
                        throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "column " + c + " segment " + s
                                + " has a damaged description");
                    }
                    entry.segments[s] = partMemory.allocate(Math.max(bytes, 8), 8).asSlice(0, bytes);
                    entry.offsets[s] = offset;
                    offset += stored;
                }
            }
            if (offset != size) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "the file has " + size
                        + " bytes; its table of contents describes " + offset);
            }
            // One read-only mapping serves the checks and the loads. Copying from it cannot be interrupted (a
            // FileChannel closes for every reader when one reading thread is interrupted, as a cancelled statement's
            // is), and it outlives the channel and the file's deletion by a later checkpoint.
            Arena mapping = Arena.ofShared();
            MemorySegment contents;
            try {
                contents = in.map(FileChannel.MapMode.READ_ONLY, 0, size, mapping);
            } catch (IOException | RuntimeException e) {
                mapping.close();
                throw e;
            }
            close(in);
            List<SliceCheck> slices = new ArrayList<>();
            for (int c = 0; c < columnCount; c++) {
                ColumnEntry entry = columns.get(c);
                for (int s = 0; s < entry.segmentCount; s++) {
                    long bytes = entry.stored[s];
                    long[] sliceCrcs = new long[(int) Math.max(1, (bytes + CHECK_SLICE - 1) / CHECK_SLICE)];
                    slices.add(new SliceCheck(c, s, bytes, sliceCrcs, entry.crcs[s]));
                    for (int i = 0; i < sliceCrcs.length; i++) {
                        long from = i * CHECK_SLICE;
                        MemorySegment stored = contents.asSlice(entry.offsets[s] + from,
                                Math.min(CHECK_SLICE, bytes - from));
                        int slot = i;
                        checks.add(() -> sliceCrcs[slot] = SegmentChecksums.crc(stored));
                    }
                }
            }
            return new Pending(file, index, schema, rows, columns, partMemory, delta, mapping, contents, checks,
                    slices);
        } catch (IOException e) {
            close(in);
            partMemory.close();
            throw new DataDirectoryException(Problem.IO, file, "cannot read: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            close(in);
            partMemory.close();
            throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "damaged: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            close(in);
            partMemory.close();
            throw e;
        }
    }

    /**
     * A segment checked as slices: their CRCs, filled in by the check tasks, join into the segment's, which the table
     * of contents records.
     */
    private record SliceCheck(int column, int segment, long bytes, long[] sliceCrcs, long expected) {
        void verify(Path file) {
            if (SegmentChecksums.ofSlices(sliceCrcs, 0, bytes, CHECK_SLICE, WHOLE_SLICE) != expected) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "checksum mismatch in column " + column
                        + " segment " + segment + ": the file is damaged");
            }
        }
    }

    /** A column as the table of contents describes it, and the segments read into memory for it. */
    private static final class ColumnEntry {
        final int kind;
        final int dictionarySize;
        final long nulls;
        final int codeBits;
        final int packing;
        final long count;
        final int segmentCount;
        /** Bytes in memory, and on disk. */
        final long[] sizes = new long[3];
        final long[] stored = new long[3];
        final StoredSegment.Form[] forms = new StoredSegment.Form[3];
        /** CRC-32C of the stored bytes. */
        final long[] crcs = new long[3];
        final long[] offsets = new long[3];
        final MemorySegment[] segments = new MemorySegment[3];

        ColumnEntry(int kind, int dictionarySize, long nulls, int codeBits, int packing, long count, int segments) {
            this.kind = kind;
            this.dictionarySize = dictionarySize;
            this.nulls = nulls;
            this.codeBits = codeBits;
            this.packing = packing;
            this.count = count;
            this.segmentCount = segments;
        }
    }

    /** A part whose memory is allocated and whose segments are still to be checked. */
    static final class Pending {
        private final Path file;
        private final int index;
        private final Schema schema;
        private final long rows;
        private final List<ColumnEntry> columns;
        private final PartMemory memory;
        private final PartDelta delta;
        private final Arena mapping;
        private final MemorySegment contents;
        private final List<Runnable> checks;
        private final List<SliceCheck> slices;

        private Pending(Path file, int index, Schema schema, long rows, List<ColumnEntry> columns, PartMemory memory,
                        PartDelta delta, Arena mapping, MemorySegment contents, List<Runnable> checks,
                        List<SliceCheck> slices) {
            this.file = file;
            this.index = index;
            this.schema = schema;
            this.rows = rows;
            this.columns = columns;
            this.memory = memory;
            this.delta = delta;
            this.mapping = mapping;
            this.contents = contents;
            this.checks = checks;
            this.slices = slices;
        }

        /**
         * Tasks that may run in parallel, each computing the checksum of one slice of a segment straight from the
         * file (no copy); {@link #verify()} compares them with the table of contents once all have run.
         */
        List<Runnable> checks() {
            return checks;
        }

        /** After every {@link #checks() check} has run: fails naming the first damaged segment. */
        void verify() {
            for (SliceCheck slice : slices) {
                slice.verify(file);
            }
        }

        long rows() {
            return rows;
        }

        PartMemory memory() {
            return memory;
        }

        /**
         * The part, once every check has passed; its columns are copied from the file's mapping on first use. The
         * mapping stays until they all are, so a later checkpoint may delete the file meanwhile.
         */
        TablePart finish() {
            try {
                List<Column> built = new ArrayList<>(columns.size());
                for (int c = 0; c < columns.size(); c++) {
                    ColumnEntry e = columns.get(c);
                    Dictionary dictionary = switch (e.kind) {
                        case 0 -> new LongDictionary(e.segments[0], e.dictionarySize);
                        case 1 -> new DoubleDictionary(e.segments[0], e.dictionarySize);
                        default -> new StringDictionary(e.segments[0], e.segments[1], e.dictionarySize);
                    };
                    PackedLayout layout = new PackedLayout(e.codeBits, PackedLayout.Packing.values()[e.packing]);
                    built.add(new Column(schema.column(c).type(), dictionary,
                            new PackedCodes(e.segments[e.segmentCount - 1], layout, e.count), e.nulls));
                }
                return new TablePart(index, built, rows, memory, delta, new Loader(file, mapping, contents,
                        columns));
            } catch (DataDirectoryException e) {
                mapping.close();
                memory.close();
                throw e;
            } catch (IllegalArgumentException e) {
                mapping.close();
                memory.close();
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "damaged: " + e.getMessage(), e);
            }
        }

        /** Frees the memory when the part will not be finished (another part failed). */
        void abandon() {
            mapping.close();
            memory.close();
        }
    }

    /**
     * Copies a part's columns from its file's mapping into the part's memory, each once, on first use; every thread
     * that wants a column meanwhile helps ({@link ColumnLoad}).
     */
    private static final class Loader implements ColumnLoader {
        private final Arena mapping;
        private final AtomicIntegerArray loaded;
        private final ColumnLoad[] loads;
        private final AtomicInteger missing;
        private final AtomicBoolean unmapped = new AtomicBoolean();

        Loader(Path file, Arena mapping, MemorySegment contents, List<ColumnEntry> columns) {
            this.mapping = mapping;
            this.loaded = new AtomicIntegerArray(columns.size());
            this.loads = new ColumnLoad[columns.size()];
            for (int c = 0; c < loads.length; c++) {
                ColumnEntry entry = columns.get(c);
                MemorySegment[] sources = new MemorySegment[entry.segmentCount];
                MemorySegment[] targets = new MemorySegment[entry.segmentCount];
                StoredSegment.Blocks[] blocks = new StoredSegment.Blocks[entry.segmentCount];
                long[] crcs = new long[entry.segmentCount];
                for (int s = 0; s < entry.segmentCount; s++) {
                    sources[s] = contents.asSlice(entry.offsets[s], entry.stored[s]);
                    targets[s] = entry.segments[s];
                    crcs[s] = entry.crcs[s];
                    if (entry.forms[s] != StoredSegment.Form.RAW) {
                        blocks[s] = StoredSegment.Blocks.read(entry.forms[s], sources[s], entry.sizes[s], file,
                                "column " + c + " segment " + s);
                    }
                }
                loads[c] = new ColumnLoad(file, c, sources, targets, crcs, blocks);
            }
            this.missing = new AtomicInteger(columns.size());
            if (columns.isEmpty()) {
                close();
            }
        }

        @Override
        public void load(int column) {
            loadSome(column, Long.MAX_VALUE);
        }

        @Override
        public boolean loadSome(int column, long maxBytes) {
            if (loaded.get(column) != 0) {
                return true;
            }
            if (!loads[column].copy(Math.max(1, maxBytes))) {
                return false;
            }
            if (loaded.compareAndSet(column, 0, 1) && missing.decrementAndGet() == 0) {
                close();
            }
            return true;
        }

        @Override
        public boolean complete() {
            return missing.get() == 0;
        }

        /** Unmaps the file: every column is loaded, or the part was freed (no reader holds it then). */
        @Override
        public void close() {
            if (unmapped.compareAndSet(false, true)) {
                mapping.close();
            }
        }
    }

    private static ByteBuffer small(int capacity) {
        return ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer get(FileChannel in, int bytes, long[] position, CRC32C crc, Path file)
            throws IOException {
        ByteBuffer buffer = small(bytes);
        while (buffer.hasRemaining()) {
            if (in.read(buffer, position[0] + buffer.position()) < 0) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "cut short at byte "
                        + (position[0] + buffer.position()));
            }
        }
        position[0] += bytes;
        buffer.flip();
        crc.update(buffer.duplicate());
        return buffer;
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // read-only: nothing is lost
        }
    }
}
