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
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment is stored as differences (a sorted array of numbers) or as LZ4 blocks only when that makes it clearly
 * smaller, its index describes exactly the stored bytes, and its checksum is that of the bytes on disk.
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

        StoredSegment.Blocks blocks = StoredSegment.Blocks.read(StoredSegment.Form.LZ4_BLOCKS, stored, text.byteSize(), file,
                "text");
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
            assertThatThrownBy(() -> StoredSegment.Blocks.read(StoredSegment.Form.LZ4_BLOCKS, damaged,
                    text.byteSize(), file, "column 3 segment 1"))
                    .isInstanceOfSatisfying(DataDirectoryException.class, e -> {
                        assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
                        assertThat(e.file()).isEqualTo(file);
                        assertThat(e.getMessage()).contains("column 3 segment 1");
                    });
        }
    }

    @Test
    void sortedLongsAreStoredAsDifferencesThatDecodeToTheSameValues() throws IOException {
        Random random = new Random(3);
        long[] values = new long[(int) (3.5 * StoredSegment.BLOCK / Long.BYTES)];
        long value = -1_000_000;
        for (int i = 0; i < values.length; i++) {
            value += random.nextInt(1000);
            values[i] = value;
        }
        assertRoundTripAsDifferences(longs(values), Long.BYTES, 4);
    }

    @Test
    void stringOffsetsAreStoredAsDifferencesThatDecodeToTheSameValues() throws IOException {
        Random random = new Random(5);
        int[] offsets = new int[(int) (2 * StoredSegment.BLOCK / Integer.BYTES) + 17];
        for (int i = 1; i < offsets.length; i++) {
            offsets[i] = offsets[i - 1] + 10 + random.nextInt(50);
        }
        assertRoundTripAsDifferences(ints(offsets), Integer.BYTES, 3);
    }

    @Test
    void valuesAtTheEndsOfTheRangeAndAcrossZeroDecodeExactly() throws IOException {
        int perBlock = (int) (StoredSegment.BLOCK / Long.BYTES);
        long[] values = new long[3 * perBlock];
        for (int i = 0; i < perBlock; i++) {
            // Each block starts with its first value whole: the smallest longs, steps across zero (some of them
            // zero), the largest longs.
            values[i] = Long.MIN_VALUE + 3L * i;
            values[perBlock + i] = (i - perBlock / 2L) * (1L << 40) - (i % 5 == 0 ? 0 : 1);
            values[2 * perBlock + i] = Long.MAX_VALUE - 2L * (perBlock - 1 - i);
        }
        values[perBlock + 1] = values[perBlock];
        MemorySegment segment = longs(values);
        Path file = dir.resolve("ends");
        StoredSegment.Written written = write(file, segment, Long.BYTES);

        assertThat(written.form()).isEqualTo(StoredSegment.Form.DELTA_BLOCKS);
        assertThat(decodeAll(file, written, segment.byteSize()).mismatch(segment)).isEqualTo(-1);
    }

    @Test
    void aSegmentOfEqualValuesStoresNoDifferences() throws IOException {
        long[] values = new long[(int) (StoredSegment.BLOCK / Long.BYTES)];
        Arrays.fill(values, 42);
        MemorySegment segment = longs(values);
        Path file = dir.resolve("equal");
        StoredSegment.Written written = write(file, segment, Long.BYTES);

        assertThat(written.form()).isEqualTo(StoredSegment.Form.DELTA_BLOCKS);
        assertThat(written.stored()).isLessThan(64);
        assertThat(decodeAll(file, written, segment.byteSize()).mismatch(segment)).isEqualTo(-1);
    }

    @Test
    void unsortedNumbersAreNotStoredAsDifferences() throws IOException {
        MemorySegment random = random(2 * StoredSegment.BLOCK);
        assertThat(write(dir.resolve("random"), random, Long.BYTES).form()).isEqualTo(StoredSegment.Form.RAW);
        MemorySegment text = text(2 * StoredSegment.BLOCK);
        assertThat(write(dir.resolve("text"), text, Integer.BYTES).form())
                .as("bytes that LZ4 shrinks but differences do not").isEqualTo(StoredSegment.Form.LZ4_BLOCKS);
    }

    @Test
    void aDeltaBlockWhoseHeaderDoesNotFitItsLengthIsRefused() throws IOException {
        long[] values = new long[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 3L * i;
        }
        MemorySegment block = arena.allocate(StoredSegment.scratchBytes());
        MemorySegment source = longs(values);
        long stored = DeltaBlock.encode(source, Long.BYTES, DeltaBlock.width(source, Long.BYTES), block);
        MemorySegment target = arena.allocate(source.byteSize());
        assertThat(DeltaBlock.decode(block.asSlice(0, stored), target)).isTrue();
        assertThat(target.mismatch(source)).isEqualTo(-1);

        MemorySegment wider = copy(block.asSlice(0, stored));
        wider.set(ValueLayout.JAVA_BYTE, 1, (byte) 3);
        MemorySegment notAnElement = copy(block.asSlice(0, stored));
        notAnElement.set(ValueLayout.JAVA_BYTE, 0, (byte) 5);
        MemorySegment cut = block.asSlice(0, stored - 1);
        for (MemorySegment damaged : new MemorySegment[] {wider, notAnElement, cut}) {
            assertThat(DeltaBlock.decode(damaged, target)).isFalse();
        }
        assertThat(DeltaBlock.decode(block.asSlice(0, stored), arena.allocate(source.byteSize() - 8)))
                .as("one value fewer in memory than in the block").isFalse();
    }

    private void assertRoundTripAsDifferences(MemorySegment segment, int elementBytes, int blocks)
            throws IOException {
        Path file = dir.resolve("sorted");
        StoredSegment.Written written = write(file, segment, elementBytes);

        assertThat(written.form()).isEqualTo(StoredSegment.Form.DELTA_BLOCKS);
        assertThat(written.stored()).isLessThan(segment.byteSize() / 3);
        assertThat(written.crc()).isEqualTo(SegmentChecksums.crc(read(file, written.stored())));
        StoredSegment.Blocks index = StoredSegment.Blocks.read(StoredSegment.Form.DELTA_BLOCKS,
                read(file, written.stored()), segment.byteSize(), file, "sorted");
        assertThat(index.lengths()).hasSize(blocks);
        assertThat(decodeAll(file, written, segment.byteSize()).mismatch(segment)).isEqualTo(-1);
    }

    /** Decodes every block of a segment stored as differences, as a column load does. */
    private MemorySegment decodeAll(Path file, StoredSegment.Written written, long bytes) throws IOException {
        MemorySegment stored = read(file, written.stored());
        StoredSegment.Blocks blocks = StoredSegment.Blocks.read(StoredSegment.Form.DELTA_BLOCKS, stored, bytes, file,
                "segment");
        MemorySegment back = arena.allocate(bytes);
        for (int k = 0; k < blocks.lengths().length; k++) {
            MemorySegment block = stored.asSlice(blocks.offsets()[k], blocks.lengths()[k]);
            MemorySegment target = back.asSlice(k * StoredSegment.BLOCK, StoredSegment.Blocks.length(bytes, k));
            assertThat(DeltaBlock.decode(block, target)).as("block %d", k).isTrue();
        }
        return back;
    }

    private StoredSegment.Written write(Path file, MemorySegment segment) throws IOException {
        return write(file, segment, 0);
    }

    /** Writes {@code segment} behind a header's room, as a part file does. */
    private StoredSegment.Written write(Path file, MemorySegment segment, int elementBytes) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             Arena scratchArena = Arena.ofConfined()) {
            return StoredSegment.write(out, HEADER, segment, elementBytes, Lz4Compressor.create(),
                    StoredSegment.scratch(scratchArena));
        }
    }

    private MemorySegment longs(long[] values) {
        return arena.allocate(ValueLayout.JAVA_LONG, values.length).copyFrom(MemorySegment.ofArray(values));
    }

    private MemorySegment ints(int[] values) {
        return arena.allocate(ValueLayout.JAVA_INT, values.length).copyFrom(MemorySegment.ofArray(values));
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
