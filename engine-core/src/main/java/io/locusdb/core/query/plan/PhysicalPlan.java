package io.locusdb.core.query.plan;

import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.join.JoinType;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.storage.table.PartitionSpec;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableVersion;
import io.locusdb.core.storage.type.ColumnType;
import java.util.ArrayList;
import java.util.List;

/**
 * A query as LocusDB executes it: a source (a table scan with its filters and projections folded in, literal rows,
 * a join of two plans, or the rows of several plans one after another), then operators over the source's rows.
 * <p>
 * The physical decisions are the plan's: which side of a join is built ({@link Join#probesLeft()}), whether it runs
 * per co-partitioned part ({@link Join#coPartitionKey()}), whether a sort is a top-N ({@link Sort#isTopN()}),
 * whether rows stream from a scan ({@link #streamsFromScan()}). The pipelines and EXPLAIN both read them here, so
 * that what EXPLAIN prints is what runs.
 * <p>
 * The plan is LocusDB's own and immutable: expressions are compiled once, by the planner, with parameters bound;
 * scan conditions are already split into the ranges phase 1 evaluates on packed codes and a residual. A task
 * evaluates its own {@link ExprCopier copy} of an expression, since every expression
 * node owns its output buffer.
 */
public record PhysicalPlan(Source source, List<Op> ops, List<ResultColumn> columns) {

    /**
     * ORDER BY ... LIMIT n with offset + n up to this runs as a top-N per task; beyond it, every row is collected
     * (a top-N's buffers would hold as much, in arrays of int row numbers that must fit).
     */
    public static final long TOP_N_MAX_ROWS = Integer.MAX_VALUE / 4;

    public sealed interface Source permits Scan, Values, Rows, SetFunction, Join, Union, Shared, RepeatUnion,
            WorkingTable, Lateral {
    }

    /**
     * {@code FROM input, LATERAL f(args)}: for each row of {@code input}, the rows of the set-returning function
     * {@code function} over {@code args} (expressions over the input's columns), each joined with the input row;
     * with {@code outer} (LEFT JOIN LATERAL ... ON TRUE) an input row whose call gives none comes out once with
     * NULLs. {@code types} are the function's columns.
     */
    public record Lateral(PhysicalPlan input, SetFunctionKind function, List<Expr> args, boolean outer,
                          List<ColumnType> types, List<String> names) implements Source {
    }

    /**
     * WITH RECURSIVE: the rows of {@code seed}, then, again and again, the rows {@code step} computes from the rows
     * the last round added (which it reads as {@link WorkingTable} {@code table}), until a round adds none. Without
     * {@code all} (UNION) a row already produced is not produced again, so the recursion ends once it finds nothing
     * new. {@code limit}: rounds at most (-1: the engine's own limit).
     */
    public record RepeatUnion(PhysicalPlan seed, PhysicalPlan step, boolean all, String table, int limit,
                              List<String> names) implements Source {
    }

    /** The rows the last round of the {@link RepeatUnion} computing {@code table} added. */
    public record WorkingTable(String table, List<ColumnType> types, List<String> names) implements Source {
    }

    /**
     * The rows of {@code plan}, a part of the query that occurs in it more than once (a CTE or a view used twice,
     * the same subquery in two places): computed the first time any occurrence needs it, then read by every other
     * occurrence of the same {@code id} in this execution.
     */
    public record Shared(int id, PhysicalPlan plan) implements Source {
        public List<String> names() {
            return plan.columns().stream().map(ResultColumn::name).toList();
        }
    }

    /**
     * The rows of every input, one input after another (UNION ALL); the inputs have the union's column types. Its
     * inputs run as pipelines of their own into the pipeline above the union, so nothing is collected between.
     */
    public record Union(List<PhysicalPlan> inputs, List<String> names) implements Source {
    }

    /** Whether every operator works row by row (filters and projections), so that rows can flow through them. */
    public boolean hasStreamingOps() {
        return ops.stream().allMatch(op -> op instanceof Filter || op instanceof Project);
    }

    /** Whether this plan's rows can flow through a pipeline from a table scan without being collected. */
    public boolean streamsFromScan() {
        if (!hasStreamingOps()) {
            return false;
        }
        return switch (source) {
            case Scan scan -> true;
            case Join join -> (join.probesLeft() ? join.left() : join.right()).streamsFromScan();
            default -> false;
        };
    }

    /** Whether this plan is a table scan and nothing more. */
    public boolean isPlainScan() {
        return source instanceof Scan && ops.isEmpty();
    }

    /** The names of the source's columns. */
    public List<String> sourceNames() {
        return switch (source) {
            case Scan scan -> scan.names();
            case Values values -> values.names();
            case Rows rows -> rows.names();
            case SetFunction function -> function.names();
            case Join join -> join.names();
            case Union union -> union.names();
            case Shared shared -> shared.names();
            case RepeatUnion repeat -> repeat.names();
            case WorkingTable working -> working.names();
            case Lateral lateral -> lateral.names();
        };
    }

    /**
     * The rows the plan's table scans start from (before their predicates): a first measure of how much work the
     * plan is when nothing else is known about it.
     */
    public long scannedRows() {
        return switch (source) {
            case Scan scan -> scan.table().version().rows();
            case Join join -> join.left().scannedRows() + join.right().scannedRows();
            case Union union -> union.inputs().stream().mapToLong(PhysicalPlan::scannedRows).sum();
            case Shared shared -> shared.plan().scannedRows();
            case RepeatUnion repeat -> repeat.seed().scannedRows() + repeat.step().scannedRows();
            case WorkingTable working -> 0;
            case Lateral lateral -> lateral.input().scannedRows();
            case Values values -> 0;
            case Rows rows -> 0;
            case SetFunction function -> 0;
        };
    }

    /** The types of this plan's result columns. */
    public List<ColumnType> types() {
        return columns.stream().map(ResultColumn::type).toList();
    }

    /**
     * A hash join of two plans on {@code leftKeys[i] = rightKeys[i]} (NULL keys never match) and the
     * {@code residual} condition over the joined row (left columns, then right; null when there is none).
     * {@code leftRows} and {@code rightRows} are the planner's estimates of the inputs' rows (table row counts and
     * filter selectivities), which choose the build side.
     */
    public record Join(PhysicalPlan left, PhysicalPlan right, JoinType type, int[] leftKeys, int[] rightKeys,
                       Expr residual, List<String> names, double leftRows, double rightRows) implements Source {

        /**
         * Which side is probed (the other is built). A SEMI or ANTI join whose left side is built marks the build
         * rows the probes match and emits the matched (SEMI) or unmatched (ANTI) ones once every probe is done
         * ({@link #emitsBuildRowsAfterProbes}): a small outer query's EXISTS over a big table builds the small side.
         */
        public boolean probesLeft() {
            if (!type.outputsRight() && !(left.streamsFromScan() && right.streamsFromScan())) {
                // Only where both sides are scans is the build side free to choose: a computed right side would be
                // collected whole anyway, and a computed left side streams the cheaper way, as the probe.
                return true;
            }
            // A table scan, or a join whose probe side leads down to one, is probed rather than built: its tasks
            // probe on the nodes of the scan's parts, in parallel, where a computed input is first collected whole.
            // Otherwise the input estimated smaller is built.
            boolean leftStreams = left.streamsFromScan();
            boolean rightStreams = right.streamsFromScan();
            if (leftStreams != rightStreams) {
                return leftStreams;
            }
            return leftRows >= rightRows;
        }

        /**
         * Whether the join tracks which build rows matched and emits build rows once every probe is done: outer joins
         * that keep the build side's unmatched rows, and SEMI and ANTI joins that build their left side.
         */
        public boolean emitsBuildRowsAfterProbes() {
            return probesLeft() ? type.keepsUnmatchedRight() : type.keepsUnmatchedLeft() || !type.outputsRight();
        }

        /** The types of the joined row: the left side's columns, then the right side's where they are output. */
        public List<ColumnType> outputTypes() {
            List<ColumnType> types = new ArrayList<>(left.types());
            if (type.outputsRight()) {
                types.addAll(right.types());
            }
            return types;
        }

        /**
         * The nodes of the parts of the scan at the bottom of the probe chain, as the table stands now; empty when
         * the probe side is a computed input.
         */
        public List<Integer> probeNodes() {
            PhysicalPlan probe = probesLeft() ? left : right;
            if (!probe.streamsFromScan()) {
                return List.of();
            }
            return switch (probe.source()) {
                case Scan scan -> scan.table().version().parts().stream().map(TablePart::homeNode)
                        .distinct().sorted().toList();
                case Join inner -> inner.probeNodes();
                default -> List.of();
            };
        }

        /**
         * The key pair on which both sides are partitioned alike, or -1: both sides plain scans of tables of one
         * table group, with the same partitioning (HASH, or RANGE with the same bounds) and part count, joined on
         * the group's partition column. Such a join runs per table-group part, on that part's node.
         */
        public int coPartitionKey() {
            if (!left.isPlainScan() || !right.isPlainScan()) {
                return -1;
            }
            Table leftTable = ((Scan) left.source()).table();
            Table rightTable = ((Scan) right.source()).table();
            if (leftTable.group() == null || !leftTable.group().equals(rightTable.group())
                    || leftTable == rightTable) {
                return -1;
            }
            TableVersion lv = leftTable.version();
            TableVersion rv = rightTable.version();
            boolean alike = lv.parts().size() == rv.parts().size() && lv.parts().size() > 1 && switch (lv.spec()) {
                case PartitionSpec.Hash h -> rv.spec() instanceof PartitionSpec.Hash;
                case PartitionSpec.Range r -> rv.spec() instanceof PartitionSpec.Range
                        && lv.rangeBounds().equals(rv.rangeBounds());
                default -> false;
            };
            if (!alike) {
                return -1;
            }
            int leftColumn = leftTable.schema().indexOf(lv.spec().column());
            int rightColumn = rightTable.schema().indexOf(rv.spec().column());
            List<Expr> leftOutputs = ((Scan) left.source()).outputs();
            List<Expr> rightOutputs = ((Scan) right.source()).outputs();
            for (int k = 0; k < leftKeys.length; k++) {
                if (leftOutputs.get(leftKeys[k]) instanceof InputRef l && l.index() == leftColumn
                        && rightOutputs.get(rightKeys[k]) instanceof InputRef r && r.index() == rightColumn) {
                    return k;
                }
            }
            return -1;
        }
    }

    /**
     * A scan of {@code table}: rows within every one of {@code ranges} (on table columns, evaluated on packed codes)
     * for which {@code residual} (null: none) is true, as {@code outputs}. The residual and the outputs are
     * expressions over the table's columns; they may share subexpressions.
     */
    public record Scan(Table table, List<ScanPredicate> ranges, Expr residual, List<Expr> outputs,
                       List<String> names) implements Source {
    }

    /**
     * A set-returning function in FROM ({@code generate_series}, {@code UNNEST}) whose arguments need no input
     * row: they are evaluated once when the plan runs, and the function's rows are the source's.
     * {@code ordinality} adds a column numbering the rows from 1.
     */
    public record SetFunction(SetFunctionKind function, List<Expr> args, boolean ordinality, List<ColumnType> types,
                              List<String> names) implements Source {
    }

    /** The set-returning functions a {@link SetFunction} source computes. */
    public enum SetFunctionKind {
        GENERATE_SERIES, UNNEST
    }

    /** Literal rows (SELECT without FROM), as physical values: Long, Double, String, or null. */
    public record Values(List<Object[]> rows, List<ColumnType> types, List<String> names) implements Source {
    }

    /**
     * Rows computed while planning (a system table's state at this execution), as Java values of {@code types}: Long
     * for the integer types and BOOLEAN (1/0), Double, String; null for NULL.
     */
    public record Rows(String table, List<Object[]> rows, List<ColumnType> types, List<String> names)
            implements Source {
    }

    public sealed interface Op permits Filter, Project, Aggregate, Sort, Window {
    }

    /**
     * Window functions: the input's columns, then one column per call of every group, in order. Each group
     * partitions the rows by {@code partitionKeys}, orders each partition by {@code orderKeys} and evaluates its
     * calls over the frame of each row.
     */
    public record Window(List<WindowGroup> groups, List<ColumnType> outputTypes, List<String> names) implements Op {
    }

    /**
     * The calls that share one window: PARTITION BY {@code partitionKeys} ORDER BY {@code orderKeys}, and the frame
     * from {@code lower} to {@code upper}, counted in rows ({@code rows}) or in values of the one order key (RANGE).
     */
    public record WindowGroup(int[] partitionKeys, List<SortKey> orderKeys, boolean rows, FrameBound lower,
                              FrameBound upper, List<WindowCall> calls) {
    }

    /**
     * One end of a frame. {@code offset} counts rows (ROWS) or is a distance in the physical value of the order key
     * (RANGE: days for dates, unscaled units for decimals); it is 0 for the other kinds.
     */
    public record FrameBound(Kind kind, long offset) {
        public enum Kind {
            UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
        }
    }

    /**
     * A window function: its input column ({@code argument}, -1 for none), for LAG and LEAD the offset and the
     * default value (a physical value: Long, Double, String; null for NULL), for NTILE the bucket count
     * ({@code offset}).
     */
    public record WindowCall(WindowFunction function, int argument, long offset, Object defaultValue,
                             ColumnType argumentType, ColumnType resultType) {
    }

    /** The window functions LocusDB evaluates. */
    public enum WindowFunction {
        ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, COUNT,
        SUM, SUM0, AVG, MIN, MAX
    }

    public record Filter(Expr condition) implements Op {
    }

    public record Project(List<Expr> exprs, List<String> names) implements Op {
    }

    /** GROUP BY {@code keys} (input columns) computing {@code calls}; output: keys, then aggregates. */
    public record Aggregate(int[] keys, List<AggregateCall> calls, List<ColumnType> outputTypes,
                            List<String> names) implements Op {
    }

    /** ORDER BY {@code keys}, then OFFSET and FETCH ({@code fetch} -1 when absent). */
    public record Sort(List<SortKey> keys, long offset, long fetch) implements Op {

        /** Whether this is an ORDER BY with a LIMIT small enough for each task to keep its own first rows. */
        public boolean isTopN() {
            return !keys.isEmpty() && fetch >= 0 && offset <= TOP_N_MAX_ROWS && fetch <= TOP_N_MAX_ROWS - offset;
        }

        /**
         * Whether this top-N, the first operator over {@code source}, is materialized late: the scan decodes only the
         * sort keys (and its filter's columns), the tasks keep the keys and each row's position, and the other
         * columns are read for the first rows alone once they are known. It applies where the scan's outputs are
         * plain columns and some of them are not sort keys; rows that lose to the cut-off then cost a copy of their
         * keys, not of every column (with strings decoded).
         */
        public boolean fetchesLate(Source source) {
            if (!isTopN() || !(source instanceof Scan scan)) {
                return false;
            }
            boolean[] key = new boolean[scan.outputs().size()];
            for (SortKey k : keys) {
                key[k.column()] = true;
            }
            boolean others = false;
            for (int i = 0; i < key.length; i++) {
                if (!(scan.outputs().get(i) instanceof InputRef)) {
                    return false;
                }
                others |= !key[i];
            }
            return others;
        }
    }

    /** One ORDER BY key: an input column, its direction and where its NULLs go. */
    public record SortKey(int column, boolean descending, boolean nullsFirst) {
    }
}
