package io.locusdb.core.query.planner;

import io.locusdb.core.sql.CatalogSchema;
import io.locusdb.core.storage.table.Table;
import java.util.Arrays;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * The rows a logical plan yields and the distinct values of each of its columns, from what storage knows: a table's
 * rows, its dictionaries' sizes (a column's distinct values), and for a filter on a table the share of each part's
 * dictionary IDs its ranges select (as {@link JoinEstimates} does for the physical plan). Anything else falls back
 * to Calcite's metadata. The join order is chosen from these.
 *
 * @param rows     estimated rows, at least 1
 * @param distinct per output column, its estimated distinct values, at most {@code rows}
 */
record InputEstimate(double rows, double[] distinct) {
    /** Estimates {@code node}; {@code mq} answers for operators storage knows nothing about. */
    static InputEstimate of(RelNode node, RelMetadataQuery mq) {
        RelNode rel = node instanceof HepRelVertex vertex ? vertex.getCurrentRel() : node;
        return switch (rel) {
            case TableScan scan when table(scan) != null -> ofTable(table(scan));
            case Filter filter -> ofFilter(filter, mq);
            case Project project -> ofProject(project, mq);
            case Aggregate aggregate -> ofAggregate(aggregate, mq);
            default -> unknown(rel, mq);
        };
    }

    private static Table table(TableScan scan) {
        CatalogSchema.CatalogTable table = scan.getTable().unwrap(CatalogSchema.CatalogTable.class);
        return table == null ? null : table.table();
    }

    private static InputEstimate ofTable(Table table) {
        double rows = Math.max(1, JoinEstimates.tableRows(table));
        double[] distinct = new double[table.schema().columns().size()];
        for (int c = 0; c < distinct.length; c++) {
            distinct[c] = Math.min(rows, Math.max(1, JoinEstimates.tableDistinct(table, c)));
        }
        return new InputEstimate(rows, distinct);
    }

    private static InputEstimate ofFilter(Filter filter, RelMetadataQuery mq) {
        InputEstimate input = of(filter.getInput(), mq);
        double selectivity = selectivity(filter.getInput(), filter.getCondition(), mq);
        double rows = Math.max(1, input.rows * selectivity);
        double[] distinct = new double[input.distinct.length];
        for (int c = 0; c < distinct.length; c++) {
            distinct[c] = keptDistinct(input.distinct[c], input.rows, rows);
        }
        return new InputEstimate(rows, distinct);
    }

    /**
     * Distinct values left when {@code after} of {@code before} rows are kept at random (Cardenas' formula): a key
     * keeps one value a row, a column of few values keeps them all.
     */
    static double keptDistinct(double distinct, double before, double after) {
        if (after >= before) {
            return distinct;
        }
        double kept = distinct * (1 - Math.pow(1 - after / before, before / distinct));
        return Math.max(1, Math.min(after, kept));
    }

    private static InputEstimate ofProject(Project project, RelMetadataQuery mq) {
        InputEstimate input = of(project.getInput(), mq);
        double[] distinct = new double[project.getProjects().size()];
        for (int c = 0; c < distinct.length; c++) {
            RexNode e = project.getProjects().get(c);
            distinct[c] = e instanceof RexInputRef ref ? input.distinct[ref.getIndex()]
                    : e instanceof RexLiteral ? 1 : input.rows;
        }
        return new InputEstimate(input.rows, distinct);
    }

    private static InputEstimate ofAggregate(Aggregate aggregate, RelMetadataQuery mq) {
        InputEstimate input = of(aggregate.getInput(), mq);
        double groups = 1;
        for (int key : aggregate.getGroupSet()) {
            groups = Math.min(input.rows, groups * input.distinct[key]);
        }
        double[] distinct = new double[aggregate.getRowType().getFieldCount()];
        Arrays.fill(distinct, groups);
        int c = 0;
        for (int key : aggregate.getGroupSet()) {
            distinct[c++] = Math.min(groups, input.distinct[key]);
        }
        return new InputEstimate(Math.max(1, groups), distinct);
    }

    private static InputEstimate unknown(RelNode rel, RelMetadataQuery mq) {
        Double estimate = mq.getRowCount(rel);
        double rows = estimate == null || estimate.isNaN() ? 1_000_000 : Math.max(1, estimate);
        double[] distinct = new double[rel.getRowType().getFieldCount()];
        Arrays.fill(distinct, rows);
        return new InputEstimate(rows, distinct);
    }

    /**
     * The share of {@code input}'s rows that {@code condition} keeps: from the dictionaries when {@code input} is a
     * table (under projections of its columns), else Calcite's guess.
     */
    private static double selectivity(RelNode input, RexNode condition, RelMetadataQuery mq) {
        RelNode rel = input instanceof HepRelVertex vertex ? vertex.getCurrentRel() : input;
        int[] columns = null;
        while (rel instanceof Project project) {
            int[] mapped = new int[project.getProjects().size()];
            for (int c = 0; c < mapped.length; c++) {
                RexNode e = project.getProjects().get(c);
                mapped[c] = e instanceof RexInputRef ref ? ref.getIndex() : -1;
            }
            columns = columns == null ? mapped : through(columns, mapped);
            rel = project.getInput() instanceof HepRelVertex vertex ? vertex.getCurrentRel() : project.getInput();
        }
        if (!(rel instanceof TableScan scan) || table(scan) == null) {
            return RelMdUtil.guessSelectivity(condition);
        }
        Table table = table(scan);
        int[] toTable = columns;
        boolean[] unmapped = {false};
        RexNode onTable = toTable == null ? condition : condition.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int column = toTable[ref.getIndex()];
                if (column < 0) {
                    unmapped[0] = true;
                    return ref;
                }
                return new RexInputRef(column, ref.getType());
            }
        });
        if (unmapped[0]) {
            return RelMdUtil.guessSelectivity(condition);
        }
        PredicateExtractor.Extracted extracted = PredicateExtractor.extract(onTable, table.schema(),
                input.getCluster().getRexBuilder());
        double all = Math.max(1, JoinEstimates.tableRows(table));
        double kept = JoinEstimates.selectedRows(table, extracted.ranges());
        if (extracted.residual() != null) {
            kept *= RelMdUtil.guessSelectivity(extracted.residual());
        }
        return Math.min(1, kept / all);
    }

    /** The columns {@code above} refers to, followed one projection further down through {@code below}. */
    private static int[] through(int[] above, int[] below) {
        int[] composed = new int[above.length];
        for (int c = 0; c < above.length; c++) {
            composed[c] = above[c] < 0 ? -1 : below[above[c]];
        }
        return composed;
    }
}
