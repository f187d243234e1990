package io.locusdb.bench.storage;

import io.locusdb.core.cpu.KernelShape;
import io.locusdb.core.cpu.KernelVariant;
import io.locusdb.core.cpu.Kernels;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.load.LoadProgress;
import io.locusdb.core.storage.load.TpchLoader;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.scan.PackedRangeScan;
import io.locusdb.core.storage.scan.ScanBytes;
import io.locusdb.core.storage.table.InitialPlacement;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.natives.memory.MemoryPolicy;
import io.locusdb.natives.memory.NodeMemory;
import io.locusdb.natives.topology.Topologies;
import io.trino.tpch.TpchTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Bit-packed range scans over lineitem columns (one pass over each column's packed codes per operation), next to a
 * plain sequential-read kernel over exactly the same bytes. The {@code bytes} aux counter is reported as bytes/s:
 * GB/s of packed data; the ratio kernel/baseline is the figure of merit (goal ≥ 0.8).
 *
 * <p>Columns: l_shipdate (12-bit codes, packed horizontally), l_quantity (6, vertically), l_discount (4,
 * vertically), l_extendedprice (20, horizontally), l_orderkey (21, horizontally); predicate: the middle half of each
 * dictionary.
 *
 * <p>Each kernel runs in every form ({@code form}: the one {@code ./locus cpu} chose here, and 512, 256, scalar)
 * with PEXT/PDEP as chosen, on or off ({@code pext}); the baseline runs beside each, so every form's ratio is a
 * same-run ratio. A form the CPU has no vectors for runs emulated (very slow): that row shows what forcing it costs.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector",
        "-Xmx6g"})
@State(Scope.Benchmark)
public class ScanBenchmark {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    static final String[] COLUMNS = {"l_shipdate", "l_quantity", "l_discount", "l_extendedprice", "l_orderkey"};

    @Param({"1"})
    public double scaleFactor;

    /** {@code all}, or one column's name to see its own ratio (e.g. {@code -p column=l_discount}). */
    @Param({"all"})
    public String column;

    /**
     * Copies of the columns, one copy scanned per operation in turn. One copy (56.8 MiB) stays in this VM's L3
     * cache between operations; with 4 the plain read here dropped from about 28 to 13-16 GB/s, i.e. the bytes
     * came from DRAM.
     */
    @Param({"1"})
    public int copies;

    /** The kernel form: {@code chosen} (this CPU's), {@code 512}, {@code 256} or {@code scalar}. */
    @Param({"chosen", "512", "256", "scalar"})
    public String form;

    /** PEXT/PDEP: {@code chosen} (this CPU's), {@code on} or {@code off} (the portable multiply and table). */
    @Param({"chosen"})
    public String pext;

    /**
     * The select as a query's first predicate ({@code true}: it sets the bitmap's words) or as a later one
     * ({@code false}: it ORs into them; on AVX-512 through a scratch bitmap a block at a time).
     */
    @Param({"true"})
    public boolean overwrite;

    private KernelVariant countVariant;
    private KernelVariant selectVariant;
    private KernelVariant decodeVariant;
    private boolean selectPext;
    private boolean decodePdep;
    private int[] decoded;

    private Table table;
    private Arena copyArena;
    /** Per copy, the columns' codes. */
    private final List<List<PackedCodes>> copiesOfCodes = new ArrayList<>();
    private int nextCopy;
    private final List<IdRange> ranges = new ArrayList<>();
    private long packedBytes;
    private long[] selection;

    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;
    }

    @Setup(Level.Trial)
    public void load() {
        NodeMemory memory = new NodeMemory(Topologies.real());
        table = new TpchLoader(memory, Runtime.getRuntime().availableProcessors()).generate(TpchTable.LINE_ITEM,
                scaleFactor, 1, new InitialPlacement.RoundRobin(), LoadProgress.NONE);
        TablePart part = table.version().parts().getFirst();
        List<PackedCodes> codes = new ArrayList<>();
        long maxRows = 0;
        for (String name : COLUMNS) {
            if (!this.column.equals("all") && !this.column.equals(name)) {
                continue;
            }
            Column column = part.column(table.schema().indexOf(name));
            int size = column.dictionary().size();
            codes.add(column.codes());
            ranges.add(new IdRange(Math.max(1, size / 4), Math.max(1, 3 * size / 4)));
            packedBytes += column.codes().byteSize();
            maxRows = Math.max(maxRows, column.rows());
        }
        if (codes.isEmpty()) {
            throw new IllegalArgumentException("column " + this.column + " is not one of " + String.join(", ", COLUMNS)
                    + " (or all)");
        }
        if (copies < 1) {
            throw new IllegalArgumentException("copies must be at least 1, not " + copies);
        }
        copiesOfCodes.add(codes);
        copyArena = Arena.ofShared();
        for (int k = 1; k < copies; k++) {
            List<PackedCodes> copy = new ArrayList<>();
            for (PackedCodes original : codes) {
                MemorySegment words = memory.allocate(original.byteSize(), MemoryPolicy.local(), copyArena)
                        .segment();
                MemorySegment.copy(original.words(), 0, words, 0, original.byteSize());
                copy.add(new PackedCodes(words, original.layout(), original.count()));
            }
            copiesOfCodes.add(copy);
        }
        selection = new long[(int) ((maxRows + 63) / 64)];
        decoded = new int[DECODE_ROWS];
        KernelVariant forced = form.equals("chosen") ? null : KernelVariant.fromSetting("form", form);
        countVariant = forced != null ? forced : Kernels.RANGE_COUNT;
        selectVariant = forced != null ? forced : Kernels.RANGE_SELECT;
        decodeVariant = forced != null ? forced : Kernels.VERTICAL_DECODE;
        switch (pext) {
            case "chosen" -> {
                selectPext = Kernels.RANGE_SELECT_PEXT;
                decodePdep = Kernels.PEXT;
            }
            case "on", "off" -> {
                selectPext = pext.equals("on");
                decodePdep = selectPext;
            }
            default -> throw new IllegalArgumentException("pext must be chosen, on or off, not " + pext);
        }
        System.out.printf("[scan setup] kernels chosen here: count %s, select %s, vertical decode %s, pext %s;"
                        + " this run: form %s, pext %s%n", Kernels.RANGE_COUNT.setting(),
                Kernels.RANGE_SELECT.setting(), Kernels.selection().choice(KernelShape.VERTICAL_DECODE).variant()
                        .setting(), Kernels.PEXT, form, selectPext);
        System.out.printf("%n[scan setup] %d rows, %.1f MiB of packed codes over %d columns, %d copies%n", maxRows,
                packedBytes / 1048576.0, codes.size(), copies);
    }

    @TearDown(Level.Trial)
    public void free() {
        copyArena.close();
        table.version().parts().forEach(TablePart::release);
    }

    /** The copy this operation scans: the next one in turn. */
    private List<PackedCodes> nextCopy() {
        List<PackedCodes> copy = copiesOfCodes.get(nextCopy);
        nextCopy = (nextCopy + 1) % copiesOfCodes.size();
        return copy;
    }

    @Benchmark
    public long rangeCount(Bytes counter) {
        List<PackedCodes> codes = nextCopy();
        ScanBytes bytes = new ScanBytes();
        long matches = 0;
        for (int c = 0; c < codes.size(); c++) {
            matches += PackedRangeScan.count(codes.get(c), ranges.get(c), bytes, countVariant);
        }
        counter.bytes += packedBytes;
        return matches;
    }

    @Benchmark
    public long rangeSelectBitmap(Bytes counter) {
        List<PackedCodes> codes = nextCopy();
        ScanBytes bytes = new ScanBytes();
        long sample = 0;
        for (int c = 0; c < codes.size(); c++) {
            // As a first predicate the bitmap's words are set, whatever the previous column left there; as a later
            // one they are OR-ed into (the bits pile up over the calls; the work per word is the same).
            PackedRangeScan.select(codes.get(c), ranges.get(c), selection, bytes, overwrite, selectVariant,
                    selectPext);
            sample += selection[selection.length / 2];
        }
        counter.bytes += packedBytes;
        return sample;
    }

    private static final int DECODE_ROWS = 65_536;

    /**
     * Every code of the vertically packed columns back to IDs, a batch of {@link #DECODE_ROWS} rows at a time, as
     * materialization decodes a dense span. Only the vertical columns' bytes count, so compare it with the
     * baseline of {@code -p column=l_quantity} or {@code l_discount}.
     */
    @Benchmark
    public long verticalDecode(Bytes counter) {
        long sample = 0;
        for (PackedCodes column : nextCopy()) {
            if (!column.layout().isVertical()) {
                continue;
            }
            for (long from = 0; from + DECODE_ROWS <= column.count(); from += DECODE_ROWS) {
                column.unpackVertical(from, DECODE_ROWS, decoded, decodeVariant, decodePdep);
                sample += decoded[DECODE_ROWS / 2];
            }
            counter.bytes += column.byteSize();
        }
        return sample;
    }

    /** The baseline: a vectorized sum over the same words, i.e. reading the bytes and nothing else. */
    @Benchmark
    public long sequentialReadBaseline(Bytes counter) {
        long sum = 0;
        for (PackedCodes column : nextCopy()) {
            sum += sumWords(column.words(), column.wordCount());
        }
        counter.bytes += packedBytes;
        return sum;
    }

    private static final int CHUNK_BYTES = 1 << 20;

    /**
     * Same loop shape as the range kernels (int-indexed loop over 1 MiB slices, four vectors a step into
     * independent accumulators), so the ratio measures the predicate's cost rather than a difference in loop form.
     */
    static long sumWords(MemorySegment segment, long words) {
        int vectorBytes = SPECIES.vectorByteSize();
        int stepBytes = 4 * vectorBytes;
        long vectorBytesTotal = words * Long.BYTES - words * Long.BYTES % stepBytes;
        LongVector a0 = LongVector.zero(SPECIES);
        LongVector a1 = a0;
        LongVector a2 = a0;
        LongVector a3 = a0;
        for (long base = 0; base < vectorBytesTotal; base += CHUNK_BYTES) {
            int chunk = (int) Math.min(CHUNK_BYTES, vectorBytesTotal - base);
            MemorySegment slice = segment.asSlice(base, chunk);
            for (int o = 0; o < chunk; o += stepBytes) {
                a0 = a0.add(LongVector.fromMemorySegment(SPECIES, slice, o, ByteOrder.nativeOrder()));
                a1 = a1.add(LongVector.fromMemorySegment(SPECIES, slice, o + vectorBytes, ByteOrder.nativeOrder()));
                a2 = a2.add(LongVector.fromMemorySegment(SPECIES, slice, o + 2 * vectorBytes,
                        ByteOrder.nativeOrder()));
                a3 = a3.add(LongVector.fromMemorySegment(SPECIES, slice, o + 3 * vectorBytes,
                        ByteOrder.nativeOrder()));
            }
        }
        long sum = a0.add(a1).add(a2.add(a3)).reduceLanes(VectorOperators.ADD);
        for (long w = vectorBytesTotal / Long.BYTES; w < words; w++) {
            sum += segment.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, w);
        }
        return sum;
    }
}
