package io.locusdb.core.query.pipeline;

import io.locusdb.core.query.agg.AggregateCall;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.query.scan.IndexScan;
import io.locusdb.core.query.scan.MaterializeJob;
import io.locusdb.core.query.scan.PartScanJob;
import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.scan.ValueRange;
import io.locusdb.core.query.scan.ValueRangeUnion;
import io.locusdb.core.query.scan.ValueSet;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableSnapshot;
import io.locusdb.core.storage.type.PhysicalText;
import io.locusdb.core.storage.type.Timestamps;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * EXPLAIN: the physical plan top-down, ending with the scan's per-part tasks and the node each is queued to (the
 * node holding the part's memory), as the table stands now.
 */
public final class ExplainWriter {
    private ExplainWriter() {
    }

    public static List<String> explain(PhysicalPlan plan, int batchRows) {
        List<String> lines = new ArrayList<>();
        explain(plan, batchRows, "", lines);
        return lines;
    }

    private static void explain(PhysicalPlan plan, int batchRows, String baseIndent, List<String> lines) {
        List<PhysicalPlan.Op> ops = plan.ops();
        List<String> inputNames = plan.sourceNames();
        // Names of each op's input, bottom-up, so expressions print with column names.
        List<List<String>> inputs = new ArrayList<>();
        List<String> names = inputNames;
        for (PhysicalPlan.Op op : ops) {
            inputs.add(names);
            names = switch (op) {
                case PhysicalPlan.Project p -> p.names();
                case PhysicalPlan.Aggregate a -> a.names();
                case PhysicalPlan.Window w -> w.names();
                default -> names;
            };
        }
        int depth = 0;
        int sink = pipelineSink(plan);
        // Which aggregations the merge of the one below finishes: always above the pipeline's sink; above an
        // aggregation of computed rows, when those rows are enough to aggregate in parallel.
        String[] fusedWhen = new String[ops.size()];
        for (int i = 1; i < ops.size(); i++) {
            if (ops.get(i - 1) instanceof PhysicalPlan.Aggregate below && fusedWhen[i - 1] == null
                    && PipelineBuilder.fusedNext(below, ops, i) != null) {
                fusedWhen[i] = i - 1 == sink ? "" : " (from " + QueryRunner.PARALLEL_AGGREGATE_ROWS + " rows below)";
            }
        }
        for (int i = ops.size() - 1; i >= 0; i--) {
            String line = fusedWhen[i] != null
                    ? describeFused((PhysicalPlan.Aggregate) ops.get(i), inputs.get(i), fusedWhen[i])
                    : describe(ops.get(i), inputs.get(i), plan, i == sink);
            lines.add(baseIndent + "  ".repeat(depth++) + line);
        }
        String indent = baseIndent + "  ".repeat(depth);
        switch (plan.source()) {
            case PhysicalPlan.Values values -> lines.add(indent + "Values: " + values.rows().size() + " row(s)");
            case PhysicalPlan.Rows rows -> lines.add(indent + "SystemTable: " + rows.table() + ", "
                    + rows.rows().size() + " row(s) now");
            case PhysicalPlan.SetFunction function -> lines.add(indent + "SetFunction: "
                    + function.function().name().toLowerCase(Locale.ROOT) + function.args()
                    + (function.ordinality() ? " WITH ORDINALITY" : ""));
            case PhysicalPlan.Scan scan -> scan(lines, indent, plan,
                    sink == 0 && ops.getFirst() instanceof PhysicalPlan.Sort sort && sort.fetchesLate(scan)
                            ? LateTopN.keysOnly(scan, sort) : scan,
                    sink == 0 && ops.getFirst() instanceof PhysicalPlan.Aggregate, batchRows);
            case PhysicalPlan.Join join -> join(lines, indent, join, batchRows);
            case PhysicalPlan.Union union -> union(lines, indent, union, batchRows);
            case PhysicalPlan.RepeatUnion repeat -> {
                lines.add(indent + "RecursiveUnion" + (repeat.all() ? "All" : "") + ": " + repeat.table()
                        + ", the seed's rows, then rounds of the recursive part over the rows the last round added"
                        + " until one adds none" + (repeat.all() ? "" : " (rows produced before are not added)"));
                lines.add(indent + "  seed:");
                explain(repeat.seed(), batchRows, indent + "    ", lines);
                lines.add(indent + "  recursive part:");
                explain(repeat.step(), batchRows, indent + "    ", lines);
            }
            case PhysicalPlan.Lateral lateral -> {
                lines.add(indent + (lateral.outer() ? "LeftLateral: " : "Lateral: ")
                        + lateral.function().name().toLowerCase(Locale.ROOT) + lateral.args()
                        + " for each row of:");
                explain(lateral.input(), batchRows, indent + "  ", lines);
            }
            case PhysicalPlan.WorkingTable working -> lines.add(indent + "WorkingTable: " + working.table()
                    + " (the rows the last round added)");
            case PhysicalPlan.Shared shared -> {
                String head = "Shared #" + shared.id() + ": ";
                if (lines.stream().anyMatch(l -> l.strip().startsWith(head))) {
                    lines.add(indent + "Shared #" + shared.id() + " (again: the rows computed where it is first"
                            + " shown)");
                } else {
                    lines.add(indent + head + "computed once, read by every occurrence of #" + shared.id()
                            + " in the query");
                    explain(shared.plan(), batchRows, indent + "  ", lines);
                }
            }
        }
    }

    private static void union(List<String> lines, String indent, PhysicalPlan.Union union, int batchRows) {
        lines.add(indent + "UnionAll: " + union.inputs().size() + " inputs, one after another, each pushing its rows"
                + " into the pipeline above (an input whose rows cannot flow is computed first and pushed by "
                + PipelineBuilder.UNION_TASK_CLASS + " tasks)");
        for (int i = 0; i < union.inputs().size(); i++) {
            lines.add(indent + "  input " + (i + 1) + ":");
            explain(union.inputs().get(i), batchRows, indent + "    ", lines);
        }
    }

    /**
     * The index of the operator that is the sink of the plan's pipeline, or -1: above a scan or a join, the first one
     * after the filters and projections the pipeline runs.
     */
    private static int pipelineSink(PhysicalPlan plan) {
        if (!PipelineBuilder.runsAsPipeline(plan)) {
            return -1;
        }
        List<PhysicalPlan.Op> ops = plan.ops();
        int first = 0;
        while (first < ops.size() && (ops.get(first) instanceof PhysicalPlan.Filter
                || ops.get(first) instanceof PhysicalPlan.Project)) {
            first++;
        }
        return first < ops.size() ? first : -1;
    }

    private static void join(List<String> lines, String indent, PhysicalPlan.Join join, int batchRows) {
        boolean probeLeft = join.probesLeft();
        List<String> left = join.left().columns().stream().map(c -> c.name()).toList();
        List<String> right = join.right().columns().stream().map(c -> c.name()).toList();
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < join.leftKeys().length; k++) {
            keys.add(left.get(join.leftKeys()[k]) + " = " + right.get(join.rightKeys()[k]));
        }
        PhysicalPlan probe = probeLeft ? join.left() : join.right();
        boolean scanProbe = probe.streamsFromScan();
        lines.add(indent + "HashJoin " + join.type() + " on " + (keys.isEmpty() ? "(no equality: every pair)"
                : String.join(" AND ", keys)) + (join.residual() == null ? "" : "; residual " + join.residual())
                + String.format(Locale.ROOT, "; estimated rows: left %,.0f, right %,.0f", join.leftRows(),
                join.rightRows()));
        if (join.coPartitionKey() >= 0) {
            lines.add(indent + "  co-partitioned (table group " + ((PhysicalPlan.Scan) join.left().source()).table()
                    .group() + "): per table-group part, the " + (probeLeft ? "right" : "left") + " input's part is"
                    + " built (" + QueryRunner.JOIN_BUILD_TASK_CLASS + " task) and the "
                    + (probeLeft ? "left" : "right")
                    + " input's part probes it, both on the part's node; no row crosses nodes");
        } else {
            List<Integer> nodes = join.probeNodes();
            String others = nodes.size() < 2 ? "" : nodes.subList(1, nodes.size()).stream().map(String::valueOf)
                    .collect(Collectors.joining(", "));
            String table = switch (BuildPlacement.of(join, nodes.size())) {
                case COPY_PER_NODE -> "broadcast per node: built on node " + nodes.getFirst()
                        + ", its index copied into the memory of node(s) " + others + " by a "
                        + QueryRunner.JOIN_BUILD_TASK_CLASS + " task on each, every probe task reading its node's"
                        + " copy";
                case PARTITIONED -> "partitioned by hash across nodes " + nodes.stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")) + ": each hash partition's index built by a "
                        + QueryRunner.JOIN_BUILD_TASK_CLASS + " task on its node, in that node's memory, every probe"
                        + " reading its key's partition";
                case ONE_TABLE -> nodes.isEmpty() ? "one hash table on the heap, read by every probe task"
                        : "one hash table, its index in the memory of node " + nodes.getFirst()
                        + ", read by every probe task";
            };
            table += " (an integer key's index is built in hash partitions by parallel "
                    + QueryRunner.JOIN_BUILD_TASK_CLASS + " tasks from " + BuildPlacement.PARALLEL_BUILD_ROWS
                    + " rows, about " + BuildPlacement.CACHE_PARTITION_ROWS + " rows a partition)";
            lines.add(indent + "  build: " + (probeLeft ? "right" : "left") + " input, " + table
                    + "; probe: " + (probeLeft ? "left" : "right") + " input, " + (scanProbe
                    ? "pipelined: the " + MaterializeJob.TASK_CLASS + " tasks of the scan at the bottom of its"
                    + " probe chain probe on the nodes of its parts and push the joined rows on"
                    : "collected, then probed by " + QueryRunner.JOIN_PROBE_TASK_CLASS
                    + " tasks over ranges of its rows"));
        }
        if (probe.source() instanceof PhysicalPlan.Scan probeScan && probe.ops().isEmpty()) {
            IndexJoin indexJoin = IndexJoin.of(probeScan, join);
            if (indexJoin != null) {
                lines.add(indent + "  " + IndexJoin.describe(probeScan, indexJoin));
            }
        }
        lines.add(indent + "  left:");
        explain(join.left(), batchRows, indent + "    ", lines);
        lines.add(indent + "  right:");
        explain(join.right(), batchRows, indent + "    ", lines);
    }

    private static String describe(PhysicalPlan.Op op, List<String> input, PhysicalPlan plan, boolean sink) {
        boolean parallel = sink && op instanceof PhysicalPlan.Aggregate;
        return switch (op) {
            case PhysicalPlan.Filter f -> "Filter: " + f.condition();
            case PhysicalPlan.Project p -> "Project: " + p.exprs().stream()
                    .map(Object::toString).collect(Collectors.joining(", "));
            case PhysicalPlan.Sort s -> "Sort: " + (s.keys().isEmpty() ? "none" : s.keys().stream()
                    .map(k -> input.get(k.column()) + " " + direction(k)).collect(Collectors.joining(", ")))
                    + (s.offset() > 0 ? " OFFSET " + s.offset() : "") + (s.fetch() >= 0 ? " LIMIT " + s.fetch() : "")
                    + (sink && s.fetchesLate(plan.source()) ? " [materialized late: the sort keys and row positions"
                    + " of the top " + (s.offset() + s.fetch()) + " kept per pipeline task"
                    + (LateTopN.guesses((PhysicalPlan.Scan) plan.source())
                    ? " (the first key's cut-off started from a sample of " + SampledCutoff.SAMPLE_ROWS + " rows"
                    + " where it is an integer column, the scan run again without it if fewer rows pass)" : "")
                    + ", those merged and sorted, then the other columns read for those rows by "
                    + LateTopN.FETCH_TASK_CLASS + " tasks on their parts' nodes]"
                    : sink && s.isTopN() ? " [top " + (s.offset() + s.fetch()) + " kept per pipeline task,"
                    + " those merged and sorted]" : "");
            case PhysicalPlan.Aggregate a -> "Aggregate" + (parallel
                    ? " [local hash tables per pipeline task (on the scanned part's node), sorted into "
                    + (1 << AggregateMerge.BUCKET_BITS) + " hash buckets and merged bucket by bucket (task class "
                    + QueryRunner.MERGE_TASK_CLASS + ")]"
                    : " [over the computed rows: from " + QueryRunner.PARALLEL_AGGREGATE_ROWS + " rows local tables"
                    + " per " + AggregateMerge.TASK_CLASS_INPUT + " task merged bucket by bucket, else one table]")
                    + ": group by " + keys(a, input) + "; " + a.calls().stream()
                    .map(c -> call(c, input)).collect(Collectors.joining(", "));
            case PhysicalPlan.Window w -> window(w, input);
        };
    }

    private static String window(PhysicalPlan.Window w, List<String> input) {
        List<String> groups = new ArrayList<>();
        for (PhysicalPlan.WindowGroup g : w.groups()) {
            List<String> partition = new ArrayList<>();
            for (int k : g.partitionKeys()) {
                partition.add(input.get(k));
            }
            groups.add(g.calls().stream().map(c -> c.function() + "(" + (c.argument() < 0 ? "" : input.get(
                    c.argument())) + ")").collect(Collectors.joining(", ")) + " OVER (PARTITION BY "
                    + (partition.isEmpty() ? "()" : String.join(", ", partition)) + " ORDER BY "
                    + (g.orderKeys().isEmpty() ? "()" : g.orderKeys().stream().map(k -> input.get(k.column()) + " "
                    + direction(k)).collect(Collectors.joining(", "))) + " " + (g.rows() ? "ROWS" : "RANGE")
                    + " " + g.lower().kind() + (g.lower().offset() != 0 ? " " + g.lower().offset() : "") + " TO "
                    + g.upper().kind() + (g.upper().offset() != 0 ? " " + g.upper().offset() : "") + ")");
        }
        return "Window [rows sorted by partition and order keys in parallel runs, partitions shared out to "
                + WindowOperator.TASK_CLASS + " tasks]: " + String.join("; ", groups);
    }

    /** An aggregation over some of the keys of the one below, which its merge tasks finish bucket by bucket. */
    private static String describeFused(PhysicalPlan.Aggregate a, List<String> input, String when) {
        return "Aggregate [finished per bucket by the merge tasks of the aggregation below, whose buckets go by these"
                + " keys" + when + "]: group by " + keys(a, input) + "; " + a.calls().stream().map(c -> call(c, input))
                .collect(Collectors.joining(", "));
    }

    private static String keys(PhysicalPlan.Aggregate a, List<String> input) {
        List<String> keys = new ArrayList<>();
        for (int k : a.keys()) {
            keys.add(input.get(k));
        }
        return keys.isEmpty() ? "()" : String.join(", ", keys);
    }

    private static String call(AggregateCall c, List<String> input) {
        return c.function() + "(" + (c.distinct() ? "DISTINCT " : "") + (c.argument() < 0 ? "*"
                : input.get(c.argument())) + ")";
    }

    /** The direction, and where NULLs go when that is not the default (ASC NULLS LAST, DESC NULLS FIRST). */
    private static String direction(PhysicalPlan.SortKey key) {
        return (key.descending() ? "DESC" : "ASC") + (key.nullsFirst() == key.descending() ? ""
                : key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
    }

    private static void scan(List<String> lines, String indent, PhysicalPlan plan, PhysicalPlan.Scan scan,
                             boolean aggregated, int batchRows) {
        AggregateInput input = aggregated ? AggregateInput.of(scan, (PhysicalPlan.Aggregate) plan.ops().getFirst())
                : null;
        ScanProgram program = new ScanProgram(scan, input == null ? scan.outputs() : input.outputs(), batchRows);
        Schema schema = scan.table().schema();
        lines.add(indent + "Scan " + scan.table().name());
        String ranges = program.ranges().isEmpty() ? "none (every row)" : program.ranges().stream()
                .map(r -> range(r, schema)).collect(Collectors.joining(" AND "));
        lines.add(indent + "  phase 1 (" + PartScanJob.TASK_CLASS + " on packed value IDs, large parts split into row"
                + " chunks by the concurrency hint): " + ranges);
        if (input != null && input.countsOnly(scan.residual())) {
            lines.add(indent + "  phase 2: none (phase 1 counts the rows; nothing is materialized)");
        } else {
            lines.add(indent + "  phase 2 (" + MaterializeJob.TASK_CLASS + ", chunks sized by the concurrency"
                    + " hint): decode " + String.join(", ", program.inputNames())
                    + (program.residual() == null ? "" : "; filter " + program.residual())
                    + "; output " + program.outputs().stream().map(Object::toString)
                    .collect(Collectors.joining(", ")));
        }
        try (TableSnapshot snapshot = scan.table().snapshot()) {
            for (TablePart part : snapshot.parts()) {
                IndexScan byKey = IndexScan.plan(snapshot, part, program.ranges());
                lines.add(String.format(Locale.ROOT, "%s  part %d: %,d rows (+%d delta), %.1f MiB on node %d ->"
                                + " %s task%s on node %d, then %s tasks on node %d", indent, part.index(),
                        part.rows(), snapshot.deltaRows(part), part.byteSize() / 1048576.0, part.homeNode(),
                        PartScanJob.TASK_CLASS,
                        byKey != null ? " (" + byKey.describe(snapshot, program.ranges()) + ")" : "",
                        part.homeNode(), MaterializeJob.TASK_CLASS, part.homeNode()));
            }
        }
    }

    /** A physical bound as SQL shows it: scaled decimals with their point, epoch days as dates. */
    private static String value(Object v, io.locusdb.core.storage.type.ColumnType type) {
        return switch (type.kind()) {
            case DECIMAL -> v instanceof Long l ? java.math.BigDecimal.valueOf(l, type.scale()).toPlainString()
                    : String.valueOf(v);
            case DATE -> v instanceof Long l ? "DATE '" + java.time.LocalDate.ofEpochDay(l) + "'" : String.valueOf(v);
            case TIMESTAMP -> v instanceof Long l ? "TIMESTAMP '" + Timestamps.format(l) + "'" : String.valueOf(v);
            case TIMESTAMP_TZ -> v instanceof Long l ? PhysicalText.literal(type, l) : String.valueOf(v);
            case VARCHAR, CHAR -> "'" + v + "'";
            default -> String.valueOf(v);
        };
    }

    private static String range(ScanPredicate p, Schema schema) {
        return switch (p) {
            case ValueRange r -> range(r, schema);
            case ValueRangeUnion u -> {
                StringBuilder s = new StringBuilder("(");
                for (ValueRange r : u.ranges()) {
                    s.append(s.length() > 1 ? " OR " : "").append(range(r, schema));
                }
                yield s.append(')').toString();
            }
            case ValueSet v -> schema.column(v.column()).name() + " IN (" + v.size() + " values)";
        };
    }

    private static String range(ValueRange r, Schema schema) {
        String column = schema.column(r.column()).name();
        io.locusdb.core.storage.type.ColumnType type = schema.column(r.column()).type();
        StringBuilder s = new StringBuilder(column);
        if (r.lo() != null && r.hi() != null && r.lo().equals(r.hi())) {
            return s.append(" = ").append(value(r.lo(), type)).toString();
        }
        if (r.lo() != null) {
            s.append(r.loInclusive() ? " >= " : " > ").append(value(r.lo(), type));
        }
        if (r.hi() != null) {
            s.append(r.lo() != null ? " AND " + column : "").append(r.hiInclusive() ? " <= " : " < ")
                    .append(value(r.hi(), type));
        }
        return s.toString();
    }
}
