package io.locusdb.core.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.airlift.compress.v3.lz4.Lz4Compressor;
import io.airlift.compress.v3.lz4.Lz4Decompressor;
import io.locusdb.core.durable.DataDirectoryException.Problem;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment is stored as LZ4 blocks only when that makes it clearly smaller, its index describes exactly the stored
 * bytes, and its checksum is that of the bytes on disk.
 */
class StoredSegmentTest {
    private static final long HEADER = 100;

    @TempDir
    Path dir;

    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    @Test
    void textIsStoredAsBlocksThatDecompressToTheSameBytes() throws IOException {
        MemorySegment text = text(3 * StoredSegment.BLOCK + 12345);
        Path file = dir.resolve("text");
        StoredSegment.Written written = write(file, text);

        assertThat(written.form()).isEqualTo(StoredSegment.Form.LZ4_BLOCKS);
        assertThat(written.stored()).isLessThan(text.byteSize() / 2);
        MemorySegment stored = read(file, written.stored());
        assertThat(written.crc()).isEqualTo(SegmentChecksums.crc(stored));

        StoredSegment.Blocks blocks = StoredSegment.Blocks.read(stored, text.byteSize(), file, "text");
        assertThat(blocks.lengths()).hasSize(4);
        MemorySegment back = arena.allocate(text.byteSize());
        Lz4Decompressor decompressor = Lz4Decompressor.create();
        for (int k = 0; k < blocks.lengths().length; k++) {
            long length = StoredSegment.Blocks.length(text.byteSize(), k);
            MemorySegment block = stored.asSlice(blocks.offsets()[k], blocks.lengths()[k]);
            MemorySegment target = back.asSlice(k * StoredSegment.BLOCK, length);
            if (blocks.lengths()[k] == length) {
                target.copyFrom(block);
            } else {
                assertThat(decompressor.decompress(block, target)).isEqualTo((int) length);
            }
        }
        assertThat(back.mismatch(text)).isEqualTo(-1);
    }

    @Test
    void randomBytesStayRaw() throws IOException {
        MemorySegment random = random(2 * StoredSegment.BLOCK);
        Path file = dir.resolve("random");
        StoredSegment.Written written = write(file, random);

        assertThat(written.form()).isEqualTo(StoredSegment.Form.RAW);
        assertThat(written.stored()).isEqualTo(random.byteSize());
        assertThat(read(file, written.stored()).mismatch(random)).isEqualTo(-1);
        assertThat(written.crc()).isEqualTo(SegmentChecksums.crc(random));
    }

    @Test
    void aSegmentWhoseSampleCompressesButWhoseWholeDoesNotIsRewrittenRaw() throws IOException {
        // Nine blocks: the middle one (the sample) is zeros, the rest random: blocks would save a ninth at most.
        MemorySegment mixed = random(9 * StoredSegment.BLOCK);
        mixed.asSlice(4 * StoredSegment.BLOCK, StoredSegment.BLOCK).fill((byte) 0);
        Path file = dir.resolve("mixed");
        StoredSegment.Written written = write(file, mixed);

        assertThat(written.form()).isEqualTo(StoredSegment.Form.RAW);
        try (FileChannel in = FileChannel.open(file)) {
            assertThat(in.size()).as("the raw bytes and nothing after them").isEqualTo(HEADER + mixed.byteSize());
        }
        assertThat(read(file, written.stored()).mismatch(mixed)).isEqualTo(-1);
    }

    @Test
    void smallSegmentsStayRawHoweverWellTheyCompress() throws IOException {
        MemorySegment small = text(StoredSegment.MIN_COMPRESSED - 1);
        assertThat(write(dir.resolve("small"), small).form()).isEqualTo(StoredSegment.Form.RAW);
    }

    @Test
    void anIndexThatDoesNotDescribeTheStoredBytesIsRefusedNamingTheFile() throws IOException {
        MemorySegment text = text(2 * StoredSegment.BLOCK);
        Path file = dir.resolve("text");
        StoredSegment.Written written = write(file, text);
        MemorySegment stored = read(file, written.stored());
        ValueLayout.OfInt le = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

        MemorySegment wrongCount = copy(stored);
        wrongCount.set(le, 0, 3);
        MemorySegment blockTooLong = copy(stored);
        blockTooLong.set(le, 4, (int) StoredSegment.BLOCK + 1);
        MemorySegment blocksShort = copy(stored);
        blocksShort.set(le, 4, stored.get(le, 4) - 1);
        for (MemorySegment damaged : new MemorySegment[] {wrongCount, blockTooLong, blocksShort}) {
            assertThatThrownBy(() -> StoredSegment.Blocks.read(damaged, text.byteSize(), file, "column 3 segment 1"))
                    .isInstanceOfSatisfying(DataDirectoryException.class, e -> {
                        assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
                        assertThat(e.file()).isEqualTo(file);
                        assertThat(e.getMessage()).contains("column 3 segment 1");
                    });
        }
    }

    /** Writes {@code segment} behind a header's room, as a part file does. */
    private StoredSegment.Written write(Path file, MemorySegment segment) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             Arena scratchArena = Arena.ofConfined()) {
            return StoredSegment.write(out, HEADER, segment, Lz4Compressor.create(), StoredSegment.scratch(scratchArena));
        }
    }

    private MemorySegment read(Path file, long stored) throws IOException {
        try (FileChannel in = FileChannel.open(file)) {
            MemorySegment out = arena.allocate(stored);
            in.read(out.asByteBuffer(), HEADER);
            return out;
        }
    }

    private MemorySegment copy(MemorySegment segment) {
        return arena.allocate(segment.byteSize()).copyFrom(segment);
    }

    private MemorySegment text(long bytes) {
        String[] words = {"furiously ", "regular ", "deposits ", "sleep ", "quickly ", "final ", "accounts ",
                "above the ", "ironic ", "packages "};
        Random random = new Random(7);
        MemorySegment out = arena.allocate(bytes);
        long at = 0;
        while (at < bytes) {
            byte[] word = words[random.nextInt(words.length)].getBytes(StandardCharsets.US_ASCII);
            long n = Math.min(word.length, bytes - at);
            MemorySegment.copy(MemorySegment.ofArray(word), 0, out, at, n);
            at += n;
        }
        return out;
    }

    private MemorySegment random(long bytes) {
        byte[] data = new byte[(int) bytes];
        new Random(11).nextBytes(data);
        return arena.allocate(bytes).copyFrom(MemorySegment.ofArray(data));
    }
}
