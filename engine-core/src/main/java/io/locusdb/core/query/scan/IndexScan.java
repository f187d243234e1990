package io.locusdb.core.query.scan;

import io.locusdb.core.exec.TaskContext;
import io.locusdb.core.storage.column.Column;
import io.locusdb.core.storage.column.PackedCodes;
import io.locusdb.core.storage.index.DeltaKeyIndex;
import io.locusdb.core.storage.index.MainKeyIndex;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Phase 1 of a scan through an index instead of the packed codes: when the conjunction bounds a column an index leads
 * with (the primary key's first column, or a secondary index's first) to a few of a part's values ({@code k = ?}, {@code k IN (...)}, {@code k BETWEEN ? AND ?},
 * the build keys of a join probing the table: an index join), the part's {@link MainKeyIndex} names the main rows
 * holding them and the delta's index the delta rows; the other predicates are checked on those rows only. The outcome
 * has the shape of a code scan's, so phase 2 (materialize) does not know the difference.
 */
public final class IndexScan {
    /** Above this share of a part's values a scan of the codes is cheaper than visiting rows one by one. */
    private static final int MAX_SHARE_DENOMINATOR = 64;
    private final int predicate;
    private final List<IdRange> keyIds;

    private IndexScan(int predicate, List<IdRange> keyIds) {
        this.predicate = predicate;
        this.keyIds = keyIds;
    }

    /** Whether looking up {@code values} keys one by one beats a scan of {@code rows} rows (or values). */
    public static boolean pays(long values, long rows) {
        return values <= 1 || values * MAX_SHARE_DENOMINATOR <= rows;
    }

    /** Whether the index is used at all ({@code -Dlocus.index=off} measures scans in its place). */
    public static boolean enabled() {
        return !"off".equals(System.getProperty("locus.index"));
    }

    /**
     * The index scan of {@code part} for {@code conjunction}, or null when no predicate bounds a column an index
     * leads with (the primary key's first column, or a secondary index's), or every such predicate selects too
     * large a share of the part's values for an index to pay. Of several, the one selecting the fewest values wins.
     */
    public static IndexScan plan(TableSnapshot snapshot, TablePart part, List<? extends ScanPredicate> conjunction) {
        if (conjunction.isEmpty() || !enabled()) {
            return null;
        }
        int[] indexed = snapshot.table().indexedColumns();
        if (indexed.length == 0) {
            return null;
        }
        IndexScan best = null;
        long bestValues = Long.MAX_VALUE;
        for (int i = 0; i < conjunction.size(); i++) {
            ScanPredicate p = conjunction.get(i);
            if (!contains(indexed, p.column())) {
                continue;
            }
            Column column = part.column(p.column());
            List<IdRange> ids = p.idRanges(column.dictionary());
            long values = 0;
            for (IdRange r : ids) {
                values += r.hi() - r.lo() + 1;
            }
            if (values < bestValues && pays(values, column.dictionary().size())) {
                best = new IndexScan(i, ids);
                bestValues = values;
            }
        }
        return best;
    }

    private static boolean contains(int[] columns, int column) {
        for (int c : columns) {
            if (c == column) {
                return true;
            }
        }
        return false;
    }

    /** How a part with this plan is read, for EXPLAIN: the index and its column. */
    public String describe(TableSnapshot snapshot, List<? extends ScanPredicate> conjunction) {
        int column = conjunction.get(predicate).column();
        return "index lookup on " + snapshot.table().schema().column(column).name() + " through "
                + snapshot.table().indexOn(column);
    }

    PartScanJob.PartResult run(TaskContext ctx, TableSnapshot snapshot, TablePart part, int index,
                               List<? extends ScanPredicate> conjunction, boolean keepSelection) {
        long rows = part.rows();
        long[] selection = new long[(int) ((rows + 63) >>> 6)];
        int others = conjunction.size() - 1;
        PackedCodes[] otherCodes = new PackedCodes[others];
        List<?>[] otherIds = new List<?>[others];
        for (int i = 0, o = 0; i < conjunction.size(); i++) {
            if (i != predicate) {
                Column column = part.column(conjunction.get(i).column());
                otherCodes[o] = column.codes();
                otherIds[o++] = conjunction.get(i).idRanges(column.dictionary());
            }
        }
        boolean deletions = part.delta().hasDeletions();
        long matches = 0;
        if (rows > 0 && !keyIds.isEmpty()) {
            MainKeyIndex keys = part.keyIndex(conjunction.get(predicate).column());
            for (IdRange ids : keyIds) {
                for (int at = keys.from(ids.lo()), end = keys.to(ids.hi()); at < end; at++) {
                    int r = keys.rowAt(at);
                    if (passes(otherCodes, otherIds, r) && (!deletions || snapshot.isVisible(part, r))) {
                        selection[r >>> 6] |= 1L << r;
                        matches++;
                    }
                }
                ctx.checkCancelled();
            }
        }
        int[] delta = deltaMatches(snapshot, part, conjunction);
        return new PartScanJob.PartResult(index, part.homeNode(), ctx.node(), ctx.stolen(), matches + delta.length,
                keepSelection ? selection : null, delta, 0);
    }

    private static boolean passes(PackedCodes[] codes, List<?>[] ids, int row) {
        for (int o = 0; o < codes.length; o++) {
            int id = codes[o].get(row);
            boolean in = false;
            for (Object range : ids[o]) {
                IdRange r = (IdRange) range;
                if (id >= r.lo() && id <= r.hi()) {
                    in = true;
                    break;
                }
            }
            if (!in) {
                return false;
            }
        }
        return true;
    }

    /** The visible delta rows the key predicate's values hold that pass the whole conjunction, ascending. */
    private int[] deltaMatches(TableSnapshot snapshot, TablePart part, List<? extends ScanPredicate> conjunction) {
        int visible = snapshot.deltaRows(part);
        if (visible == 0) {
            return new int[0];
        }
        ScanPredicate key = conjunction.get(predicate);
        DeltaKeyIndex index = part.delta().keyIndex(key.column());
        List<int[]> found = new ArrayList<>();
        switch (key) {
            case ValueRange r -> found.add(index.rows(r.lo(), r.loInclusive(), r.hi(), r.hiInclusive()));
            case ValueRangeUnion u -> {
                for (ValueRange r : u.ranges()) {
                    found.add(index.rows(r.lo(), r.loInclusive(), r.hi(), r.hiInclusive()));
                }
            }
            case ValueSet s -> {
                for (int v = 0; v < s.size() && index.size() > 0; v++) {
                    found.add(index.rows(s.value(v)));
                }
            }
        }
        int[] candidates = new int[found.stream().mapToInt(f -> f.length).sum()];
        int at = 0;
        for (int[] f : found) {
            System.arraycopy(f, 0, candidates, at, f.length);
            at += f.length;
        }
        Arrays.sort(candidates);
        int[] out = new int[candidates.length];
        int n = 0;
        long main = part.rows();
        for (int c = 0; c < candidates.length; c++) {
            int i = candidates[c];
            if (i >= visible || c > 0 && candidates[c - 1] == i || !snapshot.isVisible(part, main + i)) {
                continue;
            }
            Object[] row = part.delta().row(i);
            boolean all = true;
            for (ScanPredicate p : conjunction) {
                if (!p.matches(row[p.column()])) {
                    all = false;
                    break;
                }
            }
            if (all) {
                out[n++] = i;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
