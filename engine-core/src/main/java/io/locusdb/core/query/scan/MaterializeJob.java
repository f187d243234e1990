package io.locusdb.core.query.scan;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.vector.Chunk;
import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.column.PackedLayout;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Phase 2 of a scan: the rows a {@link PartScanJob} selected are decoded into column batches on the part's node
 * (task class "materialize", CPU-intensive). A part's selection is split into chunks sized by the executor's
 * concurrency hint, each chunk one task with its own consumer, so a large result is decoded in parallel. Strings
 * stay dictionary codes ({@link ColumnVector#isEncoded}) unless asked otherwise: grouping and counting never need
 * the String. Delta rows (inserted since the part was built) follow in plain batches.
 */
public final class MaterializeJob {
    public static final String TASK_CLASS = "materialize";
    public static final int DEFAULT_BATCH_ROWS = 4096;
    /** Below this many selected rows a chunk is not worth a task of its own. */
    private static final int MIN_CHUNK_ROWS = 16 * 1024;

    private MaterializeJob() {
    }

    /** Receives the batches of one chunk, in row order, on that chunk's task. */
    @FunctionalInterface
    public interface BatchConsumer {
        void accept(TaskContext context, Chunk chunk) throws Exception;

        /**
         * Rows this consumer would drop for their code in one column, known before anything is decoded (a join's
         * probe keeps only rows whose key some build row has); null when there is none. Asked once a chunk.
         */
        default IdFilter idFilter() {
            return null;
        }

        /** Called on the chunk's task after its last batch (e.g. to hand a local table to the merge). */
        default void finish(TaskContext context) throws Exception {
        }
    }

    /** Creates the consumer of one chunk of {@code part} (e.g. a local aggregation table). */
    @FunctionalInterface
    public interface ConsumerFactory {
        BatchConsumer forPart(int part);
    }

    /**
     * The dictionary IDs of one decoded column that rows must have to be decoded at all.
     *
     * @param column  the position of the column among those decoded (not the table's column number)
     * @param allowed a bitmap over the column's dictionary IDs (ID i is bit {@code i & 63} of word {@code i >>> 6})
     */
    public record IdFilter(int column, long[] allowed) {
        /** Whether {@code id}, which the column's dictionary holds, is allowed. */
        boolean allows(int id) {
            return (allowed[id >>> 6] & (1L << id)) != 0;
        }
    }

    /**
     * A row's position as a batch's positions column gives it for a delta row: its number among the part's delta
     * rows, with this bit set (a main row's position is its row number, below 2^31).
     */
    public static final long DELTA_ROW = 1L << 31;

    /**
     * What to decode: table columns, whether strings may stay encoded, and whether each batch carries, after the
     * decoded columns, a BIGINT column of the rows' positions in the part (main rows by number, delta rows with
     * {@link #DELTA_ROW}), so that a consumer can fetch more of a row later ({@link RowFetch}).
     */
    public record Columns(int[] columns, boolean encodeStrings, int batchRows, boolean positions) {
        public Columns(int[] columns, boolean encodeStrings, int batchRows) {
            this(columns, encodeStrings, batchRows, false);
        }
    }

    public static void run(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                           PartScanJob.Result scan, int[] columns, int batchRows, ConsumerFactory consumers) {
        List<TablePart> parts = snapshot.parts();
        if (scan.parts().size() != parts.size()) {
            throw new IllegalArgumentException("scan result of " + scan.parts().size() + " parts for a snapshot of "
                    + parts.size());
        }
        Columns what = new Columns(columns, false, batchRows);
        TaskClass materialize = executor.taskClass(TASK_CLASS);
        TaskGraph graph = new TaskGraph("materialize " + snapshot.table().name());
        TaskGraph.Node fork = graph.root(materialize, TaskGraph.ANY_NODE, ctx -> { });
        int hint = executor.concurrencyHint();
        for (int p = 0; p < parts.size(); p++) {
            PartScanJob.PartResult result = scan.parts().get(p);
            if (result.matches() == 0) {
                continue;
            }
            if (result.selection() == null) {
                throw new IllegalArgumentException("part " + p + " was scanned without keeping its selection");
            }
            TablePart part = parts.get(p);
            for (SelectionRange chunk : chunks(result, hint, parts.size())) {
                graph.node(materialize, part.homeNode(), ctx -> materialize(ctx, part, result, chunk, what,
                        consumers.forPart(result.part())), fork);
            }
        }
        GraphHandle handle = executor.submit(graph, query);
        handle.await();
    }

    /** A range of selection words, and whether the part's delta rows go with it (the last chunk's job). */
    public record SelectionRange(int fromWord, int toWord, boolean withDelta) {
    }

    /** Splits a part's selection into about {@code hint / parts} chunks of at least {@link #MIN_CHUNK_ROWS}. */
    public static List<SelectionRange> chunks(PartScanJob.PartResult result, int hint, int parts) {
        long[] selection = result.selection();
        int words = selection.length;
        long mainMatches = result.matches() - result.deltaMatches().length;
        int wanted = (int) Math.max(1, Math.min((hint + parts - 1) / Math.max(1, parts),
                mainMatches / MIN_CHUNK_ROWS));
        List<SelectionRange> chunks = new ArrayList<>(wanted);
        int step = Math.max(1, (words + wanted - 1) / wanted);
        for (int from = 0; from < words; from += step) {
            chunks.add(new SelectionRange(from, Math.min(words, from + step), false));
        }
        if (chunks.isEmpty()) {
            chunks.add(new SelectionRange(0, 0, true));
        } else {
            SelectionRange last = chunks.removeLast();
            chunks.add(new SelectionRange(last.fromWord(), last.toWord(), true));
        }
        return chunks;
    }

    /** Decodes one chunk of a part's selection into batches for {@code consumer}. */
    public static void materialize(TaskContext ctx, TablePart part, PartScanJob.PartResult result, SelectionRange chunk,
                                   Columns what, BatchConsumer consumer) throws Exception {
        int[] columns = what.columns();
        long[] selection = result.selection();
        // Vectors no larger than the chunk's rows: a selective scan's chunk may hold a few hundred, and a vector of
        // a full batch is zeroed when it is allocated.
        long chunkRows = 0;
        for (int w = chunk.fromWord(); w < chunk.toWord(); w++) {
            chunkRows += Long.bitCount(selection[w]);
        }
        int batchRows = (int) Math.max(1, Math.min(what.batchRows(), chunkRows));
        List<ColumnVector> vectors = new ArrayList<>(columns.length);
        Column[] sources = new Column[columns.length];
        for (int i = 0; i < columns.length; i++) {
            sources[i] = part.column(columns[i]);
            if (what.encodeStrings() && sources[i].dictionary() instanceof StringDictionary d) {
                vectors.add(ColumnVector.encoded(sources[i].type(), d, batchRows));
            } else {
                vectors.add(new ColumnVector(sources[i].type(), batchRows));
            }
        }
        ColumnVector positions = what.positions() ? new ColumnVector(ColumnType.BIGINT, batchRows) : null;
        if (positions != null) {
            vectors.add(positions);
        }
        Chunk batch = new Chunk(vectors.toArray(ColumnVector[]::new), 0);
        DecodeCache cache = new DecodeCache(sources, chunkRows);
        IdFilter idFilter = consumer.idFilter();
        int[] rows = new int[batchRows];
        long bytes = 0;
        int word = chunk.fromWord();
        long bits = word < chunk.toWord() ? selection[word] : 0;
        while (word < chunk.toWord()) {
            int filled = 0;
            while (filled < batchRows) {
                while (bits == 0 && ++word < chunk.toWord()) {
                    bits = selection[word];
                }
                if (bits == 0) {
                    break;
                }
                if (bits == -1L && filled + 64 <= batchRows) {
                    // A whole word selected (most of them in a scan that keeps most rows): 64 rows in a row, a
                    // loop the JIT vectorizes, instead of a trailing-zero count and a clear per row.
                    int first = word << 6;
                    for (int k = 0; k < 64; k++) {
                        rows[filled + k] = first + k;
                    }
                    filled += 64;
                    bits = 0;
                    continue;
                }
                rows[filled++] = (word << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
            }
            if (filled == 0) {
                break;
            }
            if (idFilter != null) {
                // Codes first, values only for the rows that pass: a dictionary lookup is a cache miss when the
                // dictionary is large, unpacking a code is not.
                bytes += keepAllowed(sources[idFilter.column()], rows, filled, idFilter, cache);
                filled = cache.kept;
                if (filled == 0) {
                    continue;
                }
            }
            for (int i = 0; i < columns.length; i++) {
                bytes += decode(sources[i], rows, filled, vectors.get(i), cache, i);
            }
            if (positions != null) {
                long[] at = positions.longs();
                for (int i = 0; i < filled; i++) {
                    at[i] = rows[i];
                }
            }
            emit(ctx, consumer, batch, filled);
        }
        ctx.bytes().addDictionary(bytes);
        if (chunk.withDelta() && result.deltaMatches().length > 0) {
            emitDelta(ctx, part, result, columns, what.batchRows(), what.positions(), consumer);
        }
        consumer.finish(ctx);
    }

    private static void emitDelta(TaskContext ctx, TablePart part, PartScanJob.PartResult result, int[] columns,
                                  int batchRows, boolean withPositions, BatchConsumer consumer) throws Exception {
        List<ColumnVector> plain = new ArrayList<>(columns.length);
        for (int column : columns) {
            plain.add(new ColumnVector(part.column(column).type(), batchRows));
        }
        ColumnVector positions = withPositions ? new ColumnVector(ColumnType.BIGINT, batchRows) : null;
        if (positions != null) {
            plain.add(positions);
        }
        Chunk batch = new Chunk(plain.toArray(ColumnVector[]::new), 0);
        int filled = 0;
        for (int d : result.deltaMatches()) {
            Object[] row = part.delta().row(d);
            for (int i = 0; i < columns.length; i++) {
                setBoxed(plain.get(i), filled, row[columns[i]]);
            }
            if (positions != null) {
                positions.longs()[filled] = DELTA_ROW | d;
            }
            if (++filled == batchRows) {
                emit(ctx, consumer, batch, filled);
                filled = 0;
            }
        }
        if (filled > 0) {
            emit(ctx, consumer, batch, filled);
        }
    }

    private static void emit(TaskContext ctx, BatchConsumer consumer, Chunk batch, int rows) throws Exception {
        for (ColumnVector v : batch.vectors()) {
            v.setSize(rows);
        }
        batch.rows(rows);
        consumer.accept(ctx, batch);
        for (ColumnVector v : batch.vectors()) {
            v.reset();
        }
        ctx.checkCancelled();
    }

    /** Dictionaries up to this many values are copied to the heap once per task, to decode without checks. */
    private static final int HEAP_DICTIONARY_VALUES = 1 << 16;
    /** A dictionary is copied for decoding when it has at most this many values per decoded row. */
    private static final long ROWS_PER_COPIED_VALUE = 16;

    /** Per task: small dictionaries as arrays indexed by code (slot 0, NULL, unused). */
    static final class DecodeCache {
        private final long[][] longs;
        private final double[][] doubles;
        private long[] words = new long[64];
        private int[] codes = new int[0];
        /**
         * Set by {@link #unpack} when it left every code of the rows' span in {@link #codes} (row r's code at
         * {@code r - spanStart}) instead of the selected ones in {@code ids}; -1 otherwise.
         */
        private int spanStart = -1;
        /** Rows {@link #keepAllowed} kept. */
        private int kept;

        int[] codes(int n) {
            if (codes.length < n) {
                codes = new int[n];
            }
            return codes;
        }

        /**
         * Dictionaries of up to {@link #HEAP_DICTIONARY_VALUES} values are copied to the heap when {@code rows}
         * decoded rows repay the copy (a lookup of a few rows by key does not copy a dictionary of thousands).
         */
        DecodeCache(Column[] columns, long rows) {
            longs = new long[columns.length][];
            doubles = new double[columns.length][];
            long worthCopying = Math.min(HEAP_DICTIONARY_VALUES, ROWS_PER_COPIED_VALUE * rows);
            for (int i = 0; i < columns.length; i++) {
                switch (columns[i].dictionary()) {
                    case LongDictionary d when d.size() <= worthCopying -> {
                        longs[i] = new long[d.size() + 1];
                        MemorySegment.copy(d.segment(), ValueLayout.JAVA_LONG, 0, longs[i], 1, d.size());
                    }
                    case DoubleDictionary d when d.size() <= worthCopying -> {
                        doubles[i] = new double[d.size() + 1];
                        MemorySegment.copy(d.segment(), ValueLayout.JAVA_DOUBLE, 0, doubles[i], 1, d.size());
                    }
                    default -> {
                    }
                }
            }
        }
    }

    static long decode(Column column, int[] rows, int count, ColumnVector target) {
        return decode(column, rows, count, target, new DecodeCache(new Column[] {column}, count), 0);
    }

    /**
     * The codes of {@code rows} (ascending) into {@code ids}, or, when {@code cache.spanStart} is left at 0 or more,
     * every code of their span into {@code cache.codes}. Returns the words read.
     */
    private static long unpackCodes(Column column, int[] rows, int count, int[] ids, DecodeCache cache) {
        PackedCodes packed = column.codes();
        PackedLayout layout = packed.layout();
        cache.spanStart = -1;
        return layout.isVertical()
                ? unpackVertical(packed, rows, count, ids, cache)
                : unpack(packed.words(), rows, count, layout.codesPerWord(), layout.fieldBits(), layout.codeMask(),
                        ids, cache);
    }

    /**
     * Keeps, in place at the front of {@code rows}, the rows whose code in {@code column} the filter allows; their
     * number is left in {@code cache.kept}. Returns the bytes read.
     */
    static long keepAllowed(Column column, int[] rows, int count, IdFilter filter, DecodeCache cache) {
        int[] ids = scratchIds(count);
        long wordsRead = unpackCodes(column, rows, count, ids, cache);
        int spanStart = cache.spanStart;
        int kept = 0;
        if (spanStart >= 0) {
            int[] all = cache.codes;
            for (int r = 0; r < count; r++) {
                int row = rows[r];
                rows[kept] = row;
                kept += filter.allows(all[row - spanStart]) ? 1 : 0;
            }
        } else {
            for (int r = 0; r < count; r++) {
                rows[kept] = rows[r];
                kept += filter.allows(ids[r]) ? 1 : 0;
            }
        }
        cache.kept = kept;
        return wordsRead * Long.BYTES;
    }

    /** Decodes the codes of {@code rows} (ascending) into {@code target}; returns the bytes read. */
    static long decode(Column column, int[] rows, int count, ColumnVector target, DecodeCache cache, int index) {
        boolean[] nulls = target.nulls();
        int[] ids = target.isEncoded() ? target.codes() : scratchIds(count);
        long wordsRead = unpackCodes(column, rows, count, ids, cache);
        int spanStart = cache.spanStart;
        if (spanStart >= 0) {
            int[] all = cache.codes;
            if (column.nullCount() == 0 && !target.isEncoded()) {
                // Numbers without NULLs are looked up straight from the span: one pass over the rows, not two.
                return wordsRead * Long.BYTES + lookupSpan(column, rows, count, target, all, spanStart,
                        cache, index);
            }
            for (int r = 0; r < count; r++) {
                ids[r] = all[rows[r] - spanStart];
            }
        }
        // Code 0 is NULL; a column without NULLs (most) skips the flags altogether.
        boolean anyNull = false;
        if (column.nullCount() > 0) {
            for (int i = 0; i < count; i++) {
                boolean isNull = ids[i] == 0;
                nulls[i] = isNull;
                anyNull |= isNull;
            }
        }
        target.setAnyNull(anyNull);
        long dictionaryBytes = 0;
        // The dictionary's kind is fixed per column: one loop per kind keeps the type test out of the row loop.
        switch (column.dictionary()) {
            case LongDictionary d -> {
                long[] out = target.longs();
                long[] heap = cache.longs[index];
                if (heap != null) {
                    for (int i = 0; i < count; i++) {
                        out[i] = heap[ids[i]];
                    }
                } else {
                    // A local segment lets the JIT check bounds and liveness once, outside the loop.
                    MemorySegment values = d.segment();
                    for (int i = 0; i < count; i++) {
                        out[i] = values.getAtIndex(ValueLayout.JAVA_LONG, Math.max(0, ids[i] - 1));
                    }
                }
                dictionaryBytes = (long) count * Long.BYTES;
            }
            case DoubleDictionary d -> {
                double[] out = target.doubles();
                double[] heap = cache.doubles[index];
                if (heap != null) {
                    for (int i = 0; i < count; i++) {
                        out[i] = heap[ids[i]];
                    }
                } else {
                    MemorySegment values = d.segment();
                    for (int i = 0; i < count; i++) {
                        out[i] = values.getAtIndex(ValueLayout.JAVA_DOUBLE, Math.max(0, ids[i] - 1));
                    }
                }
                dictionaryBytes = (long) count * Double.BYTES;
            }
            case StringDictionary d -> {
                if (!target.isEncoded()) {
                    String[] out = target.strings();
                    for (int i = 0; i < count; i++) {
                        if (!nulls[i]) {
                            String s = d.value(ids[i]);
                            out[i] = s;
                            dictionaryBytes += s.length();
                        }
                    }
                }
            }
        }
        return wordsRead * Long.BYTES + dictionaryBytes;
    }

    /** The values of the selected rows' codes, row r's code at {@code all[r - start]}; returns dictionary bytes. */
    private static long lookupSpan(Column column, int[] rows, int count, ColumnVector target, int[] all, int start,
                                   DecodeCache cache, int index) {
        target.setAnyNull(false);
        switch (column.dictionary()) {
            case LongDictionary d -> {
                long[] out = target.longs();
                long[] heap = cache.longs[index];
                if (heap != null) {
                    for (int i = 0; i < count; i++) {
                        out[i] = heap[all[rows[i] - start]];
                    }
                } else {
                    MemorySegment values = d.segment();
                    for (int i = 0; i < count; i++) {
                        out[i] = values.getAtIndex(ValueLayout.JAVA_LONG, Math.max(0, all[rows[i] - start] - 1));
                    }
                }
                return (long) count * Long.BYTES;
            }
            case DoubleDictionary d -> {
                double[] out = target.doubles();
                double[] heap = cache.doubles[index];
                if (heap != null) {
                    for (int i = 0; i < count; i++) {
                        out[i] = heap[all[rows[i] - start]];
                    }
                } else {
                    MemorySegment values = d.segment();
                    for (int i = 0; i < count; i++) {
                        out[i] = values.getAtIndex(ValueLayout.JAVA_DOUBLE, Math.max(0, all[rows[i] - start] - 1));
                    }
                }
                return (long) count * Double.BYTES;
            }
            case StringDictionary d -> {
                String[] out = target.strings();
                long bytes = 0;
                for (int i = 0; i < count; i++) {
                    String s = d.value(all[rows[i] - start]);
                    out[i] = s;
                    bytes += s.length();
                }
                return bytes;
            }
        }
    }

    private static final ThreadLocal<int[]> IDS = ThreadLocal.withInitial(() -> new int[DEFAULT_BATCH_ROWS]);

    private static int[] scratchIds(int count) {
        int[] ids = IDS.get();
        if (ids.length < count) {
            ids = new int[count];
            IDS.set(ids);
        }
        return ids;
    }

    /**
     * The codes of {@code rows} (ascending) into {@code ids}. When the rows are dense
     * enough, the words they span are copied out in one bulk read (one bounds and liveness check per batch);
     * otherwise each word is read where needed. Returns the words read.
     */
    private static long unpack(MemorySegment segment, int[] rows, int count, int perWord, int fieldBits, long mask,
                               int[] ids, DecodeCache cache) {
        int first = rows[0];
        long firstWord = first / perWord;
        long lastWord = rows[count - 1] / perWord;
        long span = lastWord - firstWord + 1;
        if (span <= 4L * count + 16) {
            long[] words = cache.words;
            if (words.length < span) {
                words = new long[(int) span];
                cache.words = words;
            }
            MemorySegment.copy(segment, ValueLayout.JAVA_LONG, firstWord * Long.BYTES, words, 0, (int) span);
            int rowSpan = rows[count - 1] - first + 1;
            if (rowSpan <= 2 * count) {
                // Dense (at least every other row, the common case of a non-selective scan): unpack every code of
                // the span word by word, branch-free, then pick the selected ones.
                int[] all = rowSpan == count ? ids : cache.codes(rowSpan);
                unpackSpan(words, first - (int) (firstWord * perWord), rowSpan, fieldBits, mask, all);
                if (all != ids) {
                    // The caller picks the selected codes out of the span itself (in its dictionary lookup).
                    cache.spanStart = first;
                }
                return span;
            }
            int base = (int) firstWord;
            for (int i = 0; i < count; i++) {
                int row = rows[i];
                int wordIndex = row / perWord;
                int field = row - wordIndex * perWord;
                ids[i] = (int) ((words[wordIndex - base] >>> (field * fieldBits)) & mask);
            }
            return span;
        }
        // Sparse rows: each row's word is found on its own (no division chained from row to row), so the loads of
        // neighbouring rows, mostly cache misses here, overlap.
        long wordsRead = 0;
        int previousWord = -1;
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            int wordIndex = row / perWord;
            int field = row - wordIndex * perWord;
            wordsRead += wordIndex != previousWord ? 1 : 0;
            previousWord = wordIndex;
            ids[i] = (int) ((segment.getAtIndex(ValueLayout.JAVA_LONG, wordIndex) >>> (field * fieldBits)) & mask);
        }
        return wordsRead;
    }

    /**
     * Rows per selected row up to which vertical codes are decoded for the whole span: decoding costs about 0.3
     * instructions a row of the span, and one row's own code 3 per plane (a load, a shift, a mask), so at 10%
     * selectivity decoding the span is still the cheaper way: the query comparison's 10%-selective group-by on a
     * 3-bit column took 16.2 ms this way against 20.0 ms row by row.
     */
    private static final int VERTICAL_SPAN_ROWS_PER_ROW = 16;

    /**
     * {@link #unpack} for vertical codes: rows that are not too sparse decode their whole span (and leave it in the
     * cache as {@link #unpack} does); sparser ones gather each row's bits from its planes.
     */
    private static long unpackVertical(PackedCodes packed, int[] rows, int count, int[] ids, DecodeCache cache) {
        int first = rows[0];
        int rowSpan = rows[count - 1] - first + 1;
        if (rowSpan <= VERTICAL_SPAN_ROWS_PER_ROW * count) {
            int[] all = rowSpan == count ? ids : cache.codes(rowSpan);
            long wordsRead = packed.unpackVertical(first, rowSpan, all);
            if (all != ids) {
                cache.spanStart = first;
            }
            return wordsRead;
        }
        int codeBits = packed.layout().codeBits();
        long wordsRead = 0;
        int previousWord = -1;
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            wordsRead += (row >>> 6) != previousWord ? codeBits : 0;
            previousWord = row >>> 6;
            ids[i] = packed.get(row);
        }
        return wordsRead;
    }

    /**
     * Every code of {@code count} consecutive rows starting at field {@code field} of {@code words[0]}. The width
     * is made a constant of each call site so that the JIT unrolls the per-word loop and drops the variable
     * shifts; widths are 2..32 bits (code bits plus the delimiter).
     */
    static void unpackSpan(long[] words, int field, int count, int fieldBits, long mask, int[] out) {
        switch (fieldBits) {
            case 2 -> unpackFixed(words, field, count, 2, out);
            case 3 -> unpackFixed(words, field, count, 3, out);
            case 4 -> unpackFixed(words, field, count, 4, out);
            case 5 -> unpackFixed(words, field, count, 5, out);
            case 6 -> unpackFixed(words, field, count, 6, out);
            case 7 -> unpackFixed(words, field, count, 7, out);
            case 8 -> unpackFixed(words, field, count, 8, out);
            case 9 -> unpackFixed(words, field, count, 9, out);
            case 10 -> unpackFixed(words, field, count, 10, out);
            case 11 -> unpackFixed(words, field, count, 11, out);
            case 12 -> unpackFixed(words, field, count, 12, out);
            case 13 -> unpackFixed(words, field, count, 13, out);
            case 14 -> unpackFixed(words, field, count, 14, out);
            case 15 -> unpackFixed(words, field, count, 15, out);
            case 16 -> unpackFixed(words, field, count, 16, out);
            case 17 -> unpackFixed(words, field, count, 17, out);
            case 18 -> unpackFixed(words, field, count, 18, out);
            case 19 -> unpackFixed(words, field, count, 19, out);
            case 20 -> unpackFixed(words, field, count, 20, out);
            case 21 -> unpackFixed(words, field, count, 21, out);
            case 22 -> unpackFixed(words, field, count, 22, out);
            default -> unpackFixed(words, field, count, fieldBits, out);
        }
    }

    private static void unpackFixed(long[] words, int field, int count, int fieldBits, int[] out) {
        int perWord = 64 / fieldBits;
        long mask = (1L << (fieldBits - 1)) - 1;
        int i = 0;
        int w = 0;
        if (field != 0) {
            long word = words[0] >>> (field * fieldBits);
            int n = Math.min(perWord - field, count);
            for (int k = 0; k < n; k++) {
                out[k] = (int) (word & mask);
                word >>>= fieldBits;
            }
            i = n;
            w = 1;
        }
        for (; i + perWord <= count; w++, i += perWord) {
            long word = words[w];
            for (int k = 0; k < perWord; k++) {
                out[i + k] = (int) ((word >>> (k * fieldBits)) & mask);
            }
        }
        if (i < count) {
            long word = words[w];
            for (; i < count; i++) {
                out[i] = (int) (word & mask);
                word >>>= fieldBits;
            }
        }
    }

    static void setBoxed(ColumnVector target, int slot, Object value) {
        if (value == null) {
            target.setNull(slot);
        } else if (target.longs() != null) {
            target.setLong(slot, value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).longValue());
        } else if (target.doubles() != null) {
            target.setDouble(slot, ((Number) value).doubleValue());
        } else {
            target.setString(slot, (String) value);
        }
    }
}
