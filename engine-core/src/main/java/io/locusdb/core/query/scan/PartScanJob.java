package io.locusdb.core.query.scan;

import io.locusdb.core.exec.GraphHandle;
import io.locusdb.core.exec.NumaExecutor;
import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.exec.TaskClass;
import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.exec.TaskGraph;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.scan.PackedRangeScan;
import io.locusdb.core.storage.scan.ScanBytes;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Phase 1 of a scan, as in the adaptive-placement paper: a conjunction of range predicates evaluated on the packed
 * value IDs of every table part, one task per part queued to the part's node (task class "iv-scan", memory
 * intensive, so adaptive stealing keeps it home once the executor has learnt its throughput). Each task turns the
 * predicates into ID ranges with its part's dictionaries, runs the vector kernels, and accounts the bytes it
 * touched. Delta rows are checked row by row; rows deleted by upserts are dropped.
 */
public final class PartScanJob {
    public static final String TASK_CLASS = "iv-scan";

    private PartScanJob() {
    }

    /**
     * One part's outcome: where it ran, how many rows matched, and (when asked for) which: bit r of
     * {@code selection} for main row r, and the matching delta row numbers.
     */
    public record PartResult(int part, int homeNode, int ranOnNode, boolean stolen, long matches, long[] selection,
                             int[] deltaMatches, long bytesTouched) {
    }

    public record Result(List<PartResult> parts) {
        public long matches() {
            return parts.stream().mapToLong(PartResult::matches).sum();
        }
    }

    public static Result run(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                             List<? extends ScanPredicate> conjunction, boolean keepSelection) {
        return run(executor, query, snapshot, conjunction, keepSelection, PartTargets.NONE);
    }

    /** As above, each part's task accounted to its target (the placer's histories). */
    public static Result run(NumaExecutor executor, QueryContext query, TableSnapshot snapshot,
                             List<? extends ScanPredicate> conjunction, boolean keepSelection, PartTargets targets) {
        List<TablePart> parts = snapshot.parts();
        int columns = snapshot.table().schema().size();
        for (ScanPredicate range : conjunction) {
            if (range.column() < 0 || range.column() >= columns) {
                throw new IllegalArgumentException("predicate on column " + range.column() + " of a "
                        + columns + "-column table");
            }
        }
        TaskClass scan = executor.taskClass(TASK_CLASS);
        PartResult[] results = new PartResult[parts.size()];
        TaskGraph graph = new TaskGraph("scan " + snapshot.table().name());
        TaskGraph.Node fork = graph.root(scan, TaskGraph.ANY_NODE, ctx -> { });
        for (int p = 0; p < parts.size(); p++) {
            int index = p;
            TablePart part = parts.get(p);
            graph.node(scan, part.homeNode(), targets.of(snapshot, p), ctx -> results[index] = scanPart(ctx, snapshot, part, index,
                    conjunction, keepSelection), fork);
        }
        GraphHandle handle = executor.submit(graph, query);
        handle.await();
        return new Result(List.of(results));
    }

    static PartResult scanPart(TaskContext ctx, TableSnapshot snapshot, TablePart part, int index,
                                       List<? extends ScanPredicate> conjunction, boolean keepSelection) {
        IndexScan byKey = IndexScan.plan(snapshot, part, conjunction);
        if (byKey != null) {
            return byKey.run(ctx, snapshot, part, index, conjunction, keepSelection);
        }
        long rows = part.rows();
        int words = (int) ((rows + 63) >>> 6);
        boolean deletions = part.delta().hasDeletions();
        long[] selection = null;
        long matches;
        if (conjunction.size() == 1 && !keepSelection && !deletions
                && !(conjunction.getFirst() instanceof ValueSet)) {
            ScanPredicate range = conjunction.getFirst();
            Column column = part.column(range.column());
            // The ID ranges of a union are disjoint: their counts add up.
            matches = 0;
            for (IdRange ids : range.idRanges(column.dictionary())) {
                matches += PackedRangeScan.count(column.codes(), ids, ctx.bytes());
            }
        } else {
            selection = new long[words];
            if (conjunction.isEmpty()) {
                Arrays.fill(selection, -1L);
                if ((rows & 63) != 0 && words > 0) {
                    selection[words - 1] = (1L << (rows & 63)) - 1;
                }
            } else {
                if (conjunction.size() == 1) {
                    ScanPredicate range = conjunction.getFirst();
                    Column column = part.column(range.column());
                    selectInto(column.codes(), range.idRanges(column.dictionary()), selection, ctx.bytes());
                    ctx.checkCancelled();
                } else {
                    selectRows(ctx, part, conjunction, 0, rows, selection);
                }
            }
            if (deletions) {
                for (long r = 0; r < rows; r++) {
                    if (!snapshot.isVisible(part, r)) {
                        selection[(int) (r >>> 6)] &= ~(1L << r);
                    }
                }
            }
            matches = 0;
            for (long w : selection) {
                matches += Long.bitCount(w);
            }
            if (!keepSelection) {
                selection = null;
            }
        }
        int[] deltaMatches = scanDelta(snapshot, part, conjunction);
        return new PartResult(index, part.homeNode(), ctx.node(), ctx.stolen(), matches + deltaMatches.length,
                selection, deltaMatches, ctx.bytes().total());
    }

    /**
     * Phase 1 on rows {@code from..to-1} of a part only (both multiples of {@link #alignment}, or {@code to} the
     * part's end): the ranges' selection bits for those rows, written into {@code selection} at their own words,
     * so chunks of one part can run as separate tasks.
     */
    static void selectRows(TaskContext ctx, TablePart part, List<? extends ScanPredicate> conjunction, long from, long to,
                           long[] selection) {
        long align = alignment(part, conjunction);
        long block = Math.max(align, BLOCK_ROWS / align * align);
        int blockWords = (int) ((Math.min(block, to - from) + 63) >>> 6);
        long[] local = new long[blockWords];
        long[] scratch = conjunction.size() > 1 ? new long[blockWords] : null;
        List<List<IdRange>> ids = new ArrayList<>();
        for (ScanPredicate range : conjunction) {
            ids.add(range.idRanges(part.column(range.column()).dictionary()));
        }
        for (long start = from; start < to; start += block) {
            long end = Math.min(to, start + block);
            int words = (int) ((end - start + 63) >>> 6);
            for (int i = 0; i < ids.size(); i++) {
                long[] target = i == 0 ? local : scratch;
                // Sets the block's words whatever they held: no zeroing first, no read-back.
                selectInto(part.column(conjunction.get(i).column()).codes().slice(start, end), ids.get(i), target,
                        ctx.bytes());
                if (i > 0) {
                    for (int w = 0; w < words; w++) {
                        local[w] &= scratch[w];
                    }
                }
            }
            System.arraycopy(local, 0, selection, (int) (start >>> 6), words);
            ctx.checkCancelled();
        }
    }

    /**
     * Sets the selection words of the codes' rows to the rows in any of {@code ranges} (disjoint): the first range
     * sets them, the others OR into them; no range clears them.
     */
    private static void selectInto(PackedCodes codes, List<IdRange> ranges, long[] selection, ScanBytes bytes) {
        if (ranges.size() > MANY_RANGES) {
            selectIdsInto(codes, ranges, selection, bytes);
            return;
        }
        PackedRangeScan.selectInto(codes, ranges.isEmpty() ? IdRange.EMPTY : ranges.getFirst(), selection, bytes);
        for (int r = 1; r < ranges.size(); r++) {
            PackedRangeScan.select(codes, ranges.get(r), selection, bytes);
        }
    }

    /**
     * Above this many ID ranges (a long IN list, a join's build keys) one pass testing each row's ID against a
     * bitmap of the allowed IDs beats a pass per range.
     */
    private static final int MANY_RANGES = 8;

    /** Rows decoded at a time by {@link #selectIdsInto}: a multiple of every layout's row granule. */
    private static final int DECODE_ROWS = 4096;

    /** {@link #selectInto} for many ranges: the codes decoded block by block, each ID looked up in a bitmap. */
    private static void selectIdsInto(PackedCodes codes, List<IdRange> ranges, long[] selection, ScanBytes bytes) {
        long[] allowed = new long[(ranges.getLast().hi() >>> 6) + 1];
        for (IdRange r : ranges) {
            for (int id = r.lo(); id <= r.hi(); id++) {
                allowed[id >>> 6] |= 1L << id;
            }
        }
        long rows = codes.count();
        int limit = allowed.length << 6;
        boolean vertical = codes.layout().isVertical();
        int[] ids = vertical ? new int[DECODE_ROWS] : null;
        for (long from = 0; from < rows; from += DECODE_ROWS) {
            int n = (int) Math.min(DECODE_ROWS, rows - from);
            if (vertical) {
                codes.unpackVertical(from, n, ids);
            }
            // DECODE_ROWS is a multiple of 64: every block starts a selection word, and sets its words whole.
            int word = (int) (from >>> 6);
            long bits = 0;
            for (int i = 0; i < n; i++) {
                int id = vertical ? ids[i] : codes.get(from + i);
                if (id < limit && (allowed[id >>> 6] & 1L << id) != 0) {
                    bits |= 1L << i;
                }
                if ((i & 63) == 63 || i == n - 1) {
                    selection[word++] = bits;
                    bits = 0;
                }
            }
        }
        bytes.addPacked(codes.layout().wordsFor(rows) * Long.BYTES);
    }

    /**
     * Rows per block of a conjunction: every predicate runs on one block before the next, so the block's bitmap
     * words and scratch stay in L1/L2 instead of streaming part-sized bitmaps through memory once per predicate.
     */
    private static final long BLOCK_ROWS = 64 * 1024;

    /** Row boundaries of phase-1 chunks must start a selection word and a packed word (or block) of every column read. */
    static long alignment(TablePart part, List<? extends ScanPredicate> conjunction) {
        long align = 64;
        for (ScanPredicate range : conjunction) {
            long granule = part.codeLayout(range.column()).rowGranule();
            align = align / gcd(align, granule) * granule;
        }
        return align;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Completes a part whose selection was filled chunk by chunk: deletions, match count, delta rows. */
    static PartResult finishPart(TaskContext ctx, TableSnapshot snapshot, TablePart part, int index,
                                 List<? extends ScanPredicate> conjunction, long[] selection, long bytesTouched) {
        long rows = part.rows();
        if (part.delta().hasDeletions()) {
            for (long r = 0; r < rows; r++) {
                if (!snapshot.isVisible(part, r)) {
                    selection[(int) (r >>> 6)] &= ~(1L << r);
                }
            }
        }
        long matches = 0;
        for (long w : selection) {
            matches += Long.bitCount(w);
        }
        int[] deltaMatches = scanDelta(snapshot, part, conjunction);
        return new PartResult(index, part.homeNode(), ctx.node(), ctx.stolen(), matches + deltaMatches.length,
                selection, deltaMatches, bytesTouched);
    }

    private static int[] scanDelta(TableSnapshot snapshot, TablePart part, List<? extends ScanPredicate> conjunction) {
        int deltaRows = snapshot.deltaRows(part);
        if (deltaRows == 0) {
            return new int[0];
        }
        List<Integer> matched = new ArrayList<>();
        long main = part.rows();
        for (int i = 0; i < deltaRows; i++) {
            if (!snapshot.isVisible(part, main + i)) {
                continue;
            }
            Object[] row = part.delta().row(i);
            boolean all = true;
            for (ScanPredicate range : conjunction) {
                if (!range.matches(row[range.column()])) {
                    all = false;
                    break;
                }
            }
            if (all) {
                matched.add(i);
            }
        }
        return matched.stream().mapToInt(Integer::intValue).toArray();
    }
}
