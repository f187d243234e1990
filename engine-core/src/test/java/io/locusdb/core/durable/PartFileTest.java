package io.locusdb.core.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locusdb.core.durable.DataDirectoryException.Problem;
import io.locusdb.core.storage.TestStorage;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.PartPlacement;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part file is checked whole at open, without being copied, and each column is read into memory on first use:
 * from the open file even after a checkpoint deleted it, and never past a checksum that no longer matches.
 */
class PartFileTest {
    @TempDir
    Path dir;

    private final Catalog catalog = TestStorage.catalog();

    private TablePart written(Path file) throws IOException {
        Table orders = catalog.register(new TpchLoader(catalog.memory(), 2).generate(TpchTable.ORDERS, 0.01, 1,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
        TablePart part = orders.version().parts().getFirst();
        PartFile.write(file, part);
        return part;
    }

    private TablePart opened(Path file) {
        PartFile.Pending pending = PartFile.open(file, 0, catalog.table("orders").schema(), catalog.memory(),
                PartPlacement.boundTo(0), new PartDelta());
        pending.checks().forEach(Runnable::run);
        pending.verify();
        return pending.finish();
    }

    @Test
    void columnsAreReadOnFirstUseEvenAfterTheFileIsDeleted() throws IOException {
        Path file = dir.resolve("1.part");
        TablePart original = written(file);
        TablePart restored = opened(file);
        assertThat(restored.isLoaded()).isFalse();
        Files.delete(file);

        int last = original.columns().size() - 1;
        assertThat(restored.column(last).boxedValue(17)).isEqualTo(original.column(last).boxedValue(17));
        assertThat(restored.isLoaded()).isFalse();
        for (int c = 0; c < original.columns().size(); c++) {
            for (long r = 0; r < original.rows(); r += 97) {
                assertThat(restored.column(c).boxedValue(r)).as("column %d row %d", c, r)
                        .isEqualTo(original.column(c).boxedValue(r));
            }
        }
        assertThat(restored.isLoaded()).isTrue();
        restored.release();
    }

    @Test
    void aThreadInterruptedWhileItReadsAColumnLeavesThePartReadableForEveryone() throws IOException {
        Path file = dir.resolve("1.part");
        TablePart original = written(file);
        TablePart restored = opened(file);
        // A cancelled statement's thread is interrupted; whatever it was reading, the part stays readable.
        Thread.currentThread().interrupt();
        try {
            assertThat(restored.column(1).boxedValue(5)).isEqualTo(original.column(1).boxedValue(5));
        } finally {
            Thread.interrupted();
        }
        for (int c = 0; c < original.columns().size(); c++) {
            assertThat(restored.column(c).boxedValue(original.rows() - 1))
                    .isEqualTo(original.column(c).boxedValue(original.rows() - 1));
        }
        restored.release();
    }

    @Test
    void aColumnReadInPiecesHoldsTheSameValuesAndAQueryMayFinishIt() throws IOException {
        Path file = dir.resolve("1.part");
        TablePart original = written(file);
        TablePart restored = opened(file);
        int comment = original.columns().size() - 1;
        assertThat(restored.loadSome(comment, 1000)).isFalse();
        assertThat(restored.loadSome(comment, 1000)).isFalse();
        // A query needs the column now: it reads the rest.
        assertThat(restored.column(comment).boxedValue(original.rows() - 1))
                .isEqualTo(original.column(comment).boxedValue(original.rows() - 1));
        assertThat(restored.loadSome(comment, 1000)).isTrue();
        for (int c = 0; c < comment; c++) {
            while (!restored.loadSome(c, 4096)) {
                assertThat(restored.isLoaded()).isFalse();
            }
        }
        assertThat(restored.isLoaded()).isTrue();
        for (int c = 0; c < original.columns().size(); c++) {
            for (long r = 0; r < original.rows(); r += 89) {
                assertThat(restored.column(c).boxedValue(r)).as("column %d row %d", c, r)
                        .isEqualTo(original.column(c).boxedValue(r));
            }
        }
        restored.release();
    }

    @Test
    void aFlippedByteInsideALargeSegmentStopsTheOpen() throws IOException {
        // Lineitem's comment dictionary at this scale is several check slices long: the slices' checksums must add
        // up to the segment's, and one flipped byte anywhere in any slice must not.
        Path file = dir.resolve("2.part");
        Table lineitem = writtenLineitem(file);
        assertThat(lineitem.version().parts().getFirst().byteSize()).isGreaterThan(3 * PartFile.CHECK_SLICE);
        opened(file, lineitem).release();

        long size = Files.size(file);
        for (long at : new long[] {size / 3, size / 2 + 12345, size - 1}) {
            CrashImage.flip(file, at);
            PartFile.Pending damaged = PartFile.open(file, 0, lineitem.schema(), catalog.memory(),
                    PartPlacement.boundTo(0), new PartDelta());
            damaged.checks().forEach(Runnable::run);
            assertThatThrownBy(damaged::verify).as("byte %d flipped", at)
                    .isInstanceOfSatisfying(DataDirectoryException.class, e -> {
                        assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
                        assertThat(e.file()).isEqualTo(file);
                    });
            damaged.abandon();
            CrashImage.flip(file, at);
        }
    }

    @Test
    void threadsThatWantAColumnAtOnceReadItTogetherAndAllSeeDamage() throws Exception {
        Path file = dir.resolve("2.part");
        Table lineitem = writtenLineitem(file);
        TablePart original = lineitem.version().parts().getFirst();
        int comment = original.columns().size() - 1;

        TablePart restored = opened(file, lineitem);
        List<Object> seen = readTogether(restored, comment, original.rows() - 1);
        assertThat(seen).containsOnly(original.column(comment).boxedValue(original.rows() - 1));
        restored.release();

        // In the middle of a compressed block of the comments' string bytes: the damage is seen before the block is
        // decompressed, whatever the decompressor would make of it.
        PartFileLayout.SegmentAt strings = segment(PartFileLayout.of(file), comment, 1);
        assertThat(strings.form()).isEqualTo(StoredSegment.Form.LZ4_BLOCKS);
        TablePart damaged = opened(file, lineitem);
        CrashImage.flip(file, strings.offset() + strings.stored() / 2);
        assertThat(readTogether(damaged, comment, 0)).hasSize(4).allSatisfy(result ->
                assertThat(result).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
                    assertThat(e.file()).isEqualTo(file);
                }));
        damaged.release();
    }

    /** Lineitem in one part, written to {@code file}: its comment dictionary is several check slices long. */
    private Table writtenLineitem(Path file) throws IOException {
        Table lineitem = catalog.register(new TpchLoader(catalog.memory(), 2).generate(TpchTable.LINE_ITEM, 0.05, 1,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
        PartFile.write(file, lineitem.version().parts().getFirst());
        return lineitem;
    }

    private TablePart opened(Path file, Table table) {
        PartFile.Pending pending = PartFile.open(file, 0, table.schema(), catalog.memory(), PartPlacement.boundTo(0),
                new PartDelta());
        pending.checks().forEach(Runnable::run);
        pending.verify();
        return pending.finish();
    }

    /** Four threads ask for the column at the same moment: each one's value of {@code row}, or its exception. */
    private static List<Object> readTogether(TablePart part, int column, long row) throws Exception {
        CyclicBarrier start = new CyclicBarrier(4);
        List<Object> results = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    results.add(part.column(column).boxedValue(row));
                } catch (Exception e) {
                    results.add(e);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return results;
    }

    @Test
    void bytesDamagedAfterTheOpenAreRefusedWhenTheColumnIsRead() throws IOException {
        Path file = dir.resolve("1.part");
        TablePart original = written(file);
        TablePart restored = opened(file);
        CrashImage.flip(file, Files.size(file) - 3);
        int last = original.columns().size() - 1;
        assertThatThrownBy(() -> restored.column(last)).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
            assertThat(e.file()).isEqualTo(file);
        });
        assertThat(restored.column(0).boxedValue(0)).isEqualTo(original.column(0).boxedValue(0));
        restored.release();
    }

    @Test
    void stringBytesAreStoredAsLz4BlocksAndCodesThatDoNotShrinkAsTheyAre() throws IOException {
        Path file = dir.resolve("2.part");
        Table lineitem = writtenLineitem(file);
        TablePart original = lineitem.version().parts().getFirst();
        int comment = original.columns().size() - 1;
        List<PartFileLayout.SegmentAt> layout = PartFileLayout.of(file);

        PartFileLayout.SegmentAt strings = segment(layout, comment, 1);
        assertThat(strings.form()).isEqualTo(StoredSegment.Form.LZ4_BLOCKS);
        assertThat(strings.stored()).isLessThan(strings.bytes() / 2);
        // l_partkey's codes: 200,000 keys of 18 bits in random order, nothing for LZ4 to find.
        PartFileLayout.SegmentAt partkeyCodes = segment(layout, 1, 1);
        assertThat(partkeyCodes.form()).isEqualTo(StoredSegment.Form.RAW);
        assertThat(partkeyCodes.stored()).isEqualTo(partkeyCodes.bytes());
        assertThat(Files.size(file)).isLessThan(original.byteSize());

        TablePart restored = opened(file, lineitem);
        assertSameValues(restored, original, 997);
        restored.release();
    }

    @Test
    void sortedDictionariesAreStoredAsDifferencesAndReadBackExactly() throws IOException {
        Path file = dir.resolve("2.part");
        Table lineitem = writtenLineitem(file);
        TablePart original = lineitem.version().parts().getFirst();
        int comment = original.columns().size() - 1;
        List<PartFileLayout.SegmentAt> layout = PartFileLayout.of(file);

        // l_orderkey's dictionary (sorted keys, steps of 1 to 32) and the comments' offsets (steps of 10 to 43).
        for (PartFileLayout.SegmentAt sorted : List.of(segment(layout, 0, 0), segment(layout, comment, 0))) {
            assertThat(sorted.form()).as("column %d", sorted.column()).isEqualTo(StoredSegment.Form.DELTA_BLOCKS);
            assertThat(sorted.stored()).as("column %d", sorted.column()).isLessThan(sorted.bytes() / 4);
        }
        TablePart restored = opened(file, lineitem);
        assertSameValues(restored, original, 991);
        restored.release();

        // Damage inside the differences after the open: whoever reads the column is refused, naming the file.
        PartFileLayout.SegmentAt keys = segment(layout, 0, 0);
        TablePart damaged = opened(file, lineitem);
        CrashImage.flip(file, keys.offset() + keys.stored() / 2);
        assertThatThrownBy(() -> damaged.column(0)).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
            assertThat(e.file()).isEqualTo(file);
        });
        damaged.release();
    }

    private static PartFileLayout.SegmentAt segment(List<PartFileLayout.SegmentAt> layout, int column, int segment) {
        return layout.stream().filter(at -> at.column() == column && at.segment() == segment).findFirst()
                .orElseThrow();
    }

    @Test
    void aFlippedByteInABlockIndexStopsTheOpen() throws IOException {
        Path file = dir.resolve("2.part");
        Table lineitem = writtenLineitem(file);
        PartFileLayout.SegmentAt compressed = PartFileLayout.of(file).stream()
                .filter(at -> at.form() == StoredSegment.Form.LZ4_BLOCKS).findFirst().orElseThrow();
        CrashImage.flip(file, compressed.offset() + 5);
        PartFile.Pending damaged = PartFile.open(file, 0, lineitem.schema(), catalog.memory(),
                PartPlacement.boundTo(0), new PartDelta());
        damaged.checks().forEach(Runnable::run);
        assertThatThrownBy(damaged::verify).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
            assertThat(e.file()).isEqualTo(file);
        });
        damaged.abandon();
    }

    @Test
    void aPartFileOfThePreviousVersionStillOpens() throws IOException {
        Path file = dir.resolve("1.part");
        Table orders = catalog.register(new TpchLoader(catalog.memory(), 2).generate(TpchTable.ORDERS, 0.01, 1,
                new InitialPlacement.RoundRobin(), LoadProgress.NONE));
        TablePart original = orders.version().parts().getFirst();
        PartFileLayout.writeVersion2(file, original);
        TablePart restored = opened(file);
        assertSameValues(restored, original, 101);
        restored.release();
    }

    /** Every {@code step}-th row and the last of every column hold the original's values. */
    private static void assertSameValues(TablePart restored, TablePart original, long step) {
        for (int c = 0; c < original.columns().size(); c++) {
            for (long r = 0; r < original.rows(); r += step) {
                assertThat(restored.column(c).boxedValue(r)).as("column %d row %d", c, r)
                        .isEqualTo(original.column(c).boxedValue(r));
            }
            long last = original.rows() - 1;
            assertThat(restored.column(c).boxedValue(last)).as("column %d row %d", c, last)
                    .isEqualTo(original.column(c).boxedValue(last));
        }
    }
}
