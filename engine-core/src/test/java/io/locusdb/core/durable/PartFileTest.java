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
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
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
    void bytesDamagedAfterTheOpenAreRefusedWhenTheColumnIsRead() throws IOException {
        Path file = dir.resolve("1.part");
        TablePart original = written(file);
        TablePart restored = opened(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long at = Files.size(file) - 3;
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x40);
        }
        int last = original.columns().size() - 1;
        assertThatThrownBy(() -> restored.column(last)).isInstanceOfSatisfying(DataDirectoryException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.CORRUPT_FILE);
            assertThat(e.file()).isEqualTo(file);
        });
        assertThat(restored.column(0).boxedValue(0)).isEqualTo(original.column(0).boxedValue(0));
        restored.release();
    }
}
