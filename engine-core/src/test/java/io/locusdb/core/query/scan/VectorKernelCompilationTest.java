package io.locusdb.core.query.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.scan.PackedRangeScan;
import io.locusdb.core.storage.scan.ScanBytes;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class VectorKernelCompilationTest {
    @AfterEach
    void vectorFormsRunAgain() {
        Kernels.vectorsCompiled();
    }

    @Test
    void heldVectorFormsAnswerScalarFormsUntilCompiled() {
        assumeThat(VectorKernelCompilation.anyVectorForm()).as("a CPU whose chosen kernel forms are vectors").isTrue();
        assertThat(VectorKernelCompilation.hold()).isTrue();
        assertThat(Kernels.vectorsReady()).isFalse();
        assertThat(Kernels.verticalDecode()).isEqualTo(KernelVariant.SCALAR);
        assertThat(Kernels.rangeCount()).isEqualTo(KernelVariant.SCALAR);
        Kernels.vectorsCompiled();
        assertThat(Kernels.vectorsReady()).isTrue();
        assertThat(Kernels.verticalDecode()).isEqualTo(Kernels.VERTICAL_DECODE);
        assertThat(Kernels.rangeCount()).isEqualTo(Kernels.RANGE_COUNT);
    }

    @Test
    void scansGiveTheSameAnswersWhileTheVectorFormsAreHeld() {
        try (Arena arena = Arena.ofConfined()) {
            PackedLayout layout = PackedLayout.horizontal(12);
            int rows = 10_000;
            PackedCodes.Writer writer = PackedCodes.writer(arena.allocate(layout.bytesFor(rows) + 64, 64), layout);
            for (int r = 0; r < rows; r++) {
                writer.add((r * 7919) & 4095);
            }
            PackedCodes codes = writer.finish();
            IdRange range = new IdRange(100, 2000);
            long[] before = new long[(rows + 63) / 64];
            PackedRangeScan.selectInto(codes, range, before, new ScanBytes());
            long count = PackedRangeScan.count(codes, range, new ScanBytes());
            Kernels.holdVectorsUntilCompiled();
            long[] held = new long[before.length];
            PackedRangeScan.selectInto(codes, range, held, new ScanBytes());
            assertThat(held).isEqualTo(before);
            assertThat(PackedRangeScan.count(codes, range, new ScanBytes())).isEqualTo(count);
        }
    }

    @Test
    void anIdleServerGetsTheVectorFormsCompiledAndRunning() throws Exception {
        assumeThat(VectorKernelCompilation.anyVectorForm()).as("a CPU whose chosen kernel forms are vectors").isTrue();
        assertThat(VectorKernelCompilation.hold()).isTrue();
        List<String> log = new CopyOnWriteArrayList<>();
        // A shorter budget than a server's: on a loaded test machine the timings may not settle.
        Thread thread = new Thread(new VectorKernelCompilation(log::add, () -> false, 10_000_000_000L));
        thread.start();
        thread.join(60_000);
        assertThat(thread.isAlive()).isFalse();
        assertThat(Kernels.vectorsReady()).isTrue();
        assertThat(log).singleElement().asString().startsWith("kernels: the vector forms");
    }

    @Test
    void aServerBusyFromTheStartStillGetsThemWithinTheBudget() throws Exception {
        assumeThat(VectorKernelCompilation.anyVectorForm()).as("a CPU whose chosen kernel forms are vectors").isTrue();
        Kernels.holdVectorsUntilCompiled();
        AtomicBoolean busy = new AtomicBoolean(true);
        List<String> log = new CopyOnWriteArrayList<>();
        // A budget already spent: the forms run at once, compiled or not.
        Thread thread = new Thread(new VectorKernelCompilation(log::add, busy::get, 0));
        thread.start();
        thread.join(60_000);
        assertThat(Kernels.vectorsReady()).isTrue();
        assertThat(log).singleElement().asString().contains("run from now on");
    }
}
