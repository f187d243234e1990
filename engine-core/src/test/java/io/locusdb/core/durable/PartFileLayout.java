package io.locusdb.core.durable;

import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.TablePart;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** Where a part file's segments lie, read from its table of contents as PartFile documents it; and a version 2 writer. */
final class PartFileLayout {
    /** One segment: its bytes in memory, where its stored bytes start in the file, how many, and in what form. */
    record SegmentAt(int column, int segment, long bytes, long offset, long stored, StoredSegment.Form form) {
    }

    private PartFileLayout() {
    }

    static List<SegmentAt> of(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        b.get(magic);
        if (!new String(magic, StandardCharsets.US_ASCII).equals("LOCUSPF3")) {
            throw new IllegalArgumentException("not a version 3 part file");
        }
        int columns = b.getInt();
        b.getLong();
        List<long[]> described = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            b.get();
            b.getInt();
            b.getLong();
            b.getInt();
            b.get();
            b.getLong();
            int segments = b.getInt();
            for (int s = 0; s < segments; s++) {
                long bytes = b.getLong();
                long stored = b.getLong();
                byte form = b.get();
                b.getLong();
                described.add(new long[] {c, s, bytes, stored, form});
            }
        }
        b.getLong();
        long offset = b.position();
        List<SegmentAt> out = new ArrayList<>();
        for (long[] d : described) {
            out.add(new SegmentAt((int) d[0], (int) d[1], d[2], offset, d[3], StoredSegment.Form.of((byte) d[4])));
            offset += d[3];
        }
        return out;
    }

    /** Writes {@code part} as the previous version did: "LOCUSPF2", every segment raw. */
    static void writeVersion2(Path file, TablePart part) throws IOException {
        List<MemorySegment> all = new ArrayList<>();
        ByteBuffer toc = ByteBuffer.allocate(20 + part.columns().size() * (30 + 3 * 16) + 8)
                .order(ByteOrder.LITTLE_ENDIAN);
        toc.put("LOCUSPF2".getBytes(StandardCharsets.US_ASCII)).putInt(part.columns().size()).putLong(part.rows());
        for (Column column : part.columns()) {
            List<MemorySegment> segments = new ArrayList<>();
            byte kind;
            switch (column.dictionary()) {
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
            segments.add(column.codes().words());
            toc.put(kind).putInt(column.dictionary().size()).putLong(column.nullCount())
                    .putInt(column.codes().layout().codeBits()).put((byte) column.codes().layout().packing().ordinal())
                    .putLong(column.codes().count()).putInt(segments.size());
            for (MemorySegment segment : segments) {
                toc.putLong(segment.byteSize()).putLong(SegmentChecksums.crc(segment));
            }
            all.addAll(segments);
        }
        CRC32C crc = new CRC32C();
        crc.update(toc.array(), 0, toc.position());
        toc.putLong(crc.getValue()).flip();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.write(toc);
            for (MemorySegment segment : all) {
                ByteBuffer view = segment.asByteBuffer();
                while (view.hasRemaining()) {
                    out.write(view);
                }
            }
        }
    }
}
