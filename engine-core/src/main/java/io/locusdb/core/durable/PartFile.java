package io.locusdb.core.durable;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.PartMemory;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.memory.NodeMemory;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A table part's main columns on disk, byte for byte as they are in memory: each column's dictionary segments and
 * packed codes, so that loading is a read into node-bound memory with no decoding. Little-endian, the layout once:
 *
 * <pre>
 * "LOCUSPF1"  int version  int columns  long rows
 * per column: byte dictionary kind (0 long, 1 double, 2 string)  int dictionary size  long nulls
 *             int code bits  byte packing  long codes  int segments, per segment: long bytes, the bytes
 * long crc32c of everything before it
 * </pre>
 */
final class PartFile {
    private static final byte[] MAGIC = "LOCUSPF1".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    /** Segments are copied through views of at most this size (a ByteBuffer holds at most 2 GiB). */
    private static final long CHUNK = 64L << 20;

    private PartFile() {
    }

    /** Writes the part's main columns to {@code file} and forces them to disk. */
    static void write(Path file, TablePart part) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CRC32C crc = new CRC32C();
            ByteBuffer header = small(32);
            header.put(MAGIC).putInt(VERSION).putInt(part.columns().size()).putLong(part.rows());
            put(out, header, crc);
            for (Column column : part.columns()) {
                List<MemorySegment> segments = new ArrayList<>();
                Dictionary dictionary = column.dictionary();
                byte kind;
                switch (dictionary) {
                    case LongDictionary d -> {
                        kind = 0;
                        segments.add(d.segment());
                    }
                    case DoubleDictionary d -> {
                        kind = 1;
                        segments.add(d.segment());
                    }
                    case StringDictionary d -> {
                        kind = 2;
                        segments.add(d.offsetsSegment());
                        segments.add(d.bytesSegment());
                    }
                }
                PackedCodes codes = column.codes();
                segments.add(codes.words());
                ByteBuffer meta = small(64);
                meta.put(kind).putInt(dictionary.size()).putLong(column.nullCount())
                        .putInt(codes.layout().codeBits()).put((byte) codes.layout().packing().ordinal())
                        .putLong(codes.count()).putInt(segments.size());
                put(out, meta, crc);
                for (MemorySegment segment : segments) {
                    ByteBuffer size = small(8);
                    size.putLong(segment.byteSize());
                    put(out, size, crc);
                    for (long at = 0; at < segment.byteSize(); at += CHUNK) {
                        ByteBuffer view = segment.asSlice(at, Math.min(CHUNK, segment.byteSize() - at))
                                .asByteBuffer();
                        crc.update(view.duplicate());
                        while (view.hasRemaining()) {
                            out.write(view);
                        }
                    }
                }
            }
            ByteBuffer trailer = small(8);
            trailer.putLong(crc.getValue()).flip();
            while (trailer.hasRemaining()) {
                out.write(trailer);
            }
            out.force(true);
        }
    }

    /**
     * Reads a part written by {@link #write} into memory placed per {@code placement}. A checksum mismatch, a file cut
     * short or one that does not match {@code schema} stops with {@link Problem#CORRUPT_FILE}; nothing stays
     * allocated then.
     */
    static TablePart read(Path file, int index, Schema schema, NodeMemory memory, PartPlacement placement,
                          PartDelta delta) {
        PartMemory partMemory = new PartMemory(memory, placement);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            CRC32C crc = new CRC32C();
            ByteBuffer header = get(in, MAGIC.length + 4 + 4 + 8, crc, file);
            byte[] magic = new byte[MAGIC.length];
            header.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC) || header.getInt() != VERSION) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "not a LocusDB part file (bad header)");
            }
            int columnCount = header.getInt();
            long rows = header.getLong();
            if (columnCount != schema.size() || rows < 0) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "holds " + columnCount + " columns of "
                        + rows + " rows; the table has " + schema.size() + " columns");
            }
            List<Column> columns = new ArrayList<>(columnCount);
            for (int c = 0; c < columnCount; c++) {
                ByteBuffer meta = get(in, 1 + 4 + 8 + 4 + 1 + 8 + 4, crc, file);
                int kind = meta.get();
                int dictionarySize = meta.getInt();
                long nulls = meta.getLong();
                int codeBits = meta.getInt();
                int packing = meta.get();
                long count = meta.getLong();
                int segmentCount = meta.getInt();
                int expectedSegments = kind == 2 ? 3 : 2;
                if (kind < 0 || kind > 2 || segmentCount != expectedSegments || count != rows || dictionarySize < 0
                        || packing < 0 || packing >= PackedLayout.Packing.values().length) {
                    throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "column " + c
                            + " has a damaged description");
                }
                MemorySegment[] segments = new MemorySegment[segmentCount];
                for (int s = 0; s < segmentCount; s++) {
                    long bytes = get(in, 8, crc, file).getLong();
                    if (bytes < 0 || bytes > in.size() - in.position()) {
                        throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "column " + c + " segment " + s
                                + " of " + bytes + " bytes runs past the end of the file");
                    }
                    segments[s] = partMemory.allocate(Math.max(bytes, 8), 8).asSlice(0, bytes);
                    for (long at = 0; at < bytes; at += CHUNK) {
                        ByteBuffer view = segments[s].asSlice(at, Math.min(CHUNK, bytes - at)).asByteBuffer();
                        readFully(in, view, file);
                        view.flip();
                        crc.update(view);
                    }
                }
                Dictionary dictionary = switch (kind) {
                    case 0 -> new LongDictionary(segments[0], dictionarySize);
                    case 1 -> new DoubleDictionary(segments[0], dictionarySize);
                    default -> new StringDictionary(segments[0], segments[1], dictionarySize);
                };
                PackedLayout layout = new PackedLayout(codeBits, PackedLayout.Packing.values()[packing]);
                columns.add(new Column(schema.column(c).type(), dictionary,
                        new PackedCodes(segments[segmentCount - 1], layout, count), nulls));
            }
            long expected = crc.getValue();
            ByteBuffer trailer = small(8);
            readFully(in, trailer, file);
            trailer.flip();
            if (trailer.getLong() != expected) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "checksum mismatch: the file is damaged");
            }
            if (in.position() != in.size()) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, (in.size() - in.position())
                        + " bytes after the end of the part");
            }
            return new TablePart(index, columns, rows, partMemory, delta);
        } catch (NoSuchFileException e) {
            partMemory.close();
            throw new DataDirectoryException(Problem.MISSING_FILE, file, "part file is missing");
        } catch (IOException e) {
            partMemory.close();
            throw new DataDirectoryException(Problem.IO, file, "cannot read: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            partMemory.close();
            throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "damaged: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            partMemory.close();
            throw e;
        }
    }

    private static ByteBuffer small(int capacity) {
        return ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void put(FileChannel out, ByteBuffer buffer, CRC32C crc) throws IOException {
        buffer.flip();
        crc.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
    }

    private static ByteBuffer get(FileChannel in, int bytes, CRC32C crc, Path file) throws IOException {
        ByteBuffer buffer = small(bytes);
        readFully(in, buffer, file);
        buffer.flip();
        crc.update(buffer.duplicate());
        return buffer;
    }

    private static void readFully(FileChannel in, ByteBuffer buffer, Path file) throws IOException {
        while (buffer.hasRemaining()) {
            if (in.read(buffer) < 0) {
                throw new DataDirectoryException(Problem.CORRUPT_FILE, file, "cut short at byte " + in.position());
            }
        }
    }
}
