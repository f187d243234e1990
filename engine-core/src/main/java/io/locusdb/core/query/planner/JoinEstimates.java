package io.locusdb.core.query.planner;

import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.scan.IdRange;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import java.util.List;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;

/**
 * Row estimates from what storage knows. A scan passes the share of each part's dictionary that its pushed-down
 * ranges select; an equi-join yields about
 * {@code |L| * |R| / max(distinct(L.key), distinct(R.key))} rows, distinct counts taken from the parts' dictionaries
 * (capped by the input's rows); with several keys the divisors multiply, up to the larger input's rows. Calcite's
 * own guess (a fixed selectivity per equality) overestimates joins of joins by orders of magnitude, which would
 * build the large side.
 */
final class JoinEstimates {
    private JoinEstimates() {
    }

    /** The estimated rows of a join's result, given its inputs' estimates. */
    static double rows(PlanDraft.Join join) {
        double left = join.leftRows();
        double right = join.rightRows();
        double inner;
        if (join.leftKeys().length == 0) {
            inner = left * right;
        } else {
            // Per key the larger distinct count; several keys together still have at most one value a row.
            double divisor = 1;
            for (int k = 0; k < join.leftKeys().length; k++) {
                divisor *= Math.max(1, Math.max(distinct(join.left(), join.leftKeys()[k], left),
                        distinct(join.right(), join.rightKeys()[k], right)));
            }
            inner = left * right / Math.min(divisor, Math.max(1, Math.max(left, right)));
        }
        return switch (join.type()) {
            case INNER -> inner;
            case LEFT -> Math.max(inner, left);
            case RIGHT -> Math.max(inner, right);
            case FULL -> Math.max(inner, left + right);
            case SEMI, ANTI -> left;
        };
    }

    /**
     * The estimated rows of a plan whose source is a join (before its operators) or that is a plain table scan;
     * {@code otherwise} for anything else.
     */
    static double rows(PlanDraft plan, double otherwise) {
        return switch (plan.source()) {
            case PlanDraft.Join join -> rows(join);
            case PlanDraft.Scan scan when plan.ops().isEmpty() -> scanRows(scan, plan.rex());
            default -> otherwise;
        };
    }

    /**
     * The rows a table scan passes: per part, its rows times, for each pushed-down range, the share of the part's
     * dictionary IDs in the range (values taken as equally frequent), times Calcite's guess for what is left of the
     * condition.
     */
    static double scanRows(PlanDraft.Scan scan, RexBuilder rex) {
        PredicateExtractor.Extracted extracted = PredicateExtractor.extract(scan.condition(), scan.table().schema(),
                rex);
        double rows = selectedRows(scan.table(), extracted.ranges());
        if (extracted.residual() != null) {
            rows *= RelMdUtil.guessSelectivity(extracted.residual());
        }
        return Math.max(1, rows);
    }

    /** Distinct values of output column {@code column} of {@code plan}, at most {@code rows}. */
    static double distinct(PlanDraft plan, int column, double rows) {
        int index = column;
        List<PlanDraft.Op> ops = plan.ops();
        for (int i = ops.size() - 1; i >= 0; i--) {
            switch (ops.get(i)) {
                case PlanDraft.Filter f -> {
                }
                case PlanDraft.Project p -> {
                    if (!(p.exprs().get(index) instanceof RexInputRef ref)) {
                        return rows;
                    }
                    index = ref.getIndex();
                }
                default -> {
                    return rows;
                }
            }
        }
        double distinct = switch (plan.source()) {
            case PlanDraft.Scan scan -> scan.outputs().get(index) instanceof RexInputRef ref
                    ? tableDistinct(scan.table(), ref.getIndex()) : rows;
            case PlanDraft.Join join -> {
                int leftColumns = join.left().columns().size();
                yield index < leftColumns ? distinct(join.left(), index, join.leftRows())
                        : distinct(join.right(), index - leftColumns, join.rightRows());
            }
            default -> rows;
        };
        return Math.min(distinct, Math.max(1, rows));
    }

    /**
     * The rows of {@code table} that {@code ranges} select: per part, its main rows times, for each range, the share
     * of the part's dictionary IDs in the range (values taken as equally frequent), plus its delta rows times the
     * share of a sample of them that the ranges match (a table filled by INSERTs has no dictionary yet).
     */
    static double selectedRows(Table table, List<ScanPredicate> ranges) {
        double rows = 0;
        // A snapshot holds the parts: reading a dictionary may read a restarted part's column from its file, and a
        // move must not free the part meanwhile.
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                double share = 1;
                for (ScanPredicate range : ranges) {
                    Dictionary dictionary = part.column(range.column()).dictionary();
                    long selected = 0;
                    for (IdRange ids : range.idRanges(dictionary)) {
                        selected += ids.hi() - ids.lo() + 1;
                    }
                    share *= dictionary.size() == 0 ? 0 : (double) selected / dictionary.size();
                }
                rows += part.rows() * share + deltaRowsSelected(part, ranges);
            }
        }
        return rows;
    }

    /** Rows of a sample of the delta's matched by every range. */
    private static final int DELTA_SAMPLE_ROWS = 1024;

    /** The part's delta rows that {@code ranges} select, judged from up to {@link #DELTA_SAMPLE_ROWS} of them. */
    private static double deltaRowsSelected(TablePart part, List<ScanPredicate> ranges) {
        long delta = part.delta().visibleRows(Long.MAX_VALUE);
        if (delta == 0 || ranges.isEmpty()) {
            return delta;
        }
        long step = Math.max(1, delta / DELTA_SAMPLE_ROWS);
        long sampled = 0;
        long matched = 0;
        for (long i = 0; i < delta; i += step) {
            Object[] row = part.delta().row((int) i);
            sampled++;
            boolean all = true;
            for (ScanPredicate range : ranges) {
                if (!range.matches(row[range.column()])) {
                    all = false;
                    break;
                }
            }
            matched += all ? 1 : 0;
        }
        return (double) delta * matched / sampled;
    }

    /** The rows of {@code table}: its parts' and their deltas' visible rows. */
    static double tableRows(Table table) {
        double rows = 0;
        for (TablePart part : table.version().parts()) {
            rows += part.rows() + part.delta().visibleRows(Long.MAX_VALUE);
        }
        return rows;
    }

    /**
     * The distinct values of a column: the sum of the parts' dictionary sizes (exact for a partitioning column, an
     * upper bound otherwise, where every part holds about the same values), at most the number of integers between
     * the smallest and the largest value of any part for a column of integers (ids, dates): a key spread over the
     * parts of a table partitioned on another column is counted once, not once per part. Delta rows count as new
     * values.
     */
    static double tableDistinct(Table table, int column) {
        double distinct = 0;
        double delta = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        boolean integers = true;
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                Dictionary dictionary = part.column(column).dictionary();
                distinct += dictionary.size();
                delta += part.delta().visibleRows(Long.MAX_VALUE);
                if (dictionary instanceof LongDictionary longs) {
                    if (longs.size() > 0) {
                        min = Math.min(min, longs.value(1));
                        max = Math.max(max, longs.value(longs.size()));
                    }
                } else {
                    integers = false;
                }
            }
        }
        if (integers && min <= max) {
            distinct = Math.min(distinct, (double) max - min + 1);
        }
        return distinct + delta;
    }
}
