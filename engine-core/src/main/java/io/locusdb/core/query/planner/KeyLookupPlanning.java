package io.locusdb.core.query.planner;

import io.locusdb.core.query.lookup.KeyLookupPlan;
import io.locusdb.core.result.ResultColumn;
import io.locusdb.core.sql.CatalogSchema;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.table.Table;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * Recognizes, in Calcite's plan of a statement, a read of one row by its whole primary key: a scan of a keyed table,
 * a filter that is exactly one equality per key column with a parameter or a literal, and a projection of columns
 * (or of the constant the planner put in place of a key column). Such statements get a {@link KeyLookupPlan}.
 */
public final class KeyLookupPlanning {
    private KeyLookupPlanning() {
    }

    /** The lookup plan of {@code root}, or null when it is not a projection of one row by its whole key. */
    public static KeyLookupPlan match(RelNode root, List<ResultColumn> columns) {
        List<RelNode> chain = new ArrayList<>();
        for (RelNode node = root; ; node = node.getInput(0)) {
            chain.addFirst(node);
            if (node.getInputs().size() != 1) {
                break;
            }
        }
        if (!(chain.getFirst() instanceof TableScan scan) || chain.size() < 2 || chain.size() > 3
                || !(chain.get(1) instanceof Filter filter)
                || chain.size() == 3 && !(chain.get(2) instanceof Project)) {
            return null;
        }
        CatalogSchema.CatalogTable catalogTable = scan.getTable().unwrap(CatalogSchema.CatalogTable.class);
        if (catalogTable == null || !catalogTable.table().schema().isKeyed()) {
            return null;
        }
        Table table = catalogTable.table();
        Schema schema = table.schema();
        List<Integer> key = schema.primaryKey();
        int[] keyColumns = key.stream().mapToInt(Integer::intValue).toArray();
        int[] parameters = new int[keyColumns.length];
        Object[] literals = new Object[keyColumns.length];
        boolean[] bound = new boolean[keyColumns.length];
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        if (conjuncts.size() != keyColumns.length) {
            return null;
        }
        for (RexNode conjunct : conjuncts) {
            if (!(conjunct instanceof RexCall call) || call.getKind() != SqlKind.EQUALS) {
                return null;
            }
            RexNode left = call.getOperands().get(0);
            RexNode right = call.getOperands().get(1);
            if (!(left instanceof RexInputRef)) {
                RexNode swap = left;
                left = right;
                right = swap;
            }
            if (!(left instanceof RexInputRef ref)) {
                return null;
            }
            int k = key.indexOf(ref.getIndex());
            if (k < 0 || bound[k] || !KeyLookupPlan.lookupType(schema.column(ref.getIndex()).type())) {
                return null;
            }
            RexNode value = right.getKind() == SqlKind.CAST ? ((RexCall) right).getOperands().getFirst() : right;
            if (value instanceof RexDynamicParam param && right == value) {
                parameters[k] = param.getIndex();
            } else if (right instanceof RexLiteral literal) {
                parameters[k] = -1;
                literals[k] = KeyLookupPlan.physical(schema.column(ref.getIndex()).type(), literal.getValue2());
                if (literals[k] == null && literal.getValue2() != null) {
                    return null;
                }
            } else {
                return null;
            }
            bound[k] = true;
        }
        int[] outputs;
        Object[] constants = new Object[columns.size()];
        if (chain.size() == 3) {
            List<RexNode> projects = ((Project) chain.get(2)).getProjects();
            outputs = new int[projects.size()];
            constants = new Object[projects.size()];
            for (int i = 0; i < outputs.length; i++) {
                if (projects.get(i) instanceof RexInputRef ref) {
                    outputs[i] = ref.getIndex();
                } else if (projects.get(i) instanceof RexLiteral literal && KeyLookupPlan.lookupType(columns.get(i).type())) {
                    // The planner writes the key column as the constant it was compared with.
                    outputs[i] = KeyLookupPlan.CONSTANT;
                    constants[i] = KeyLookupPlan.physical(columns.get(i).type(), literal.getValue2());
                    if (constants[i] == null) {
                        return null;
                    }
                } else {
                    return null;
                }
            }
        } else {
            outputs = new int[schema.size()];
            for (int i = 0; i < outputs.length; i++) {
                outputs[i] = i;
            }
        }
        if (outputs.length != columns.size()) {
            return null;
        }
        for (int i = 0; i < outputs.length; i++) {
            if (outputs[i] != KeyLookupPlan.CONSTANT && !columns.get(i).type().equals(schema.column(outputs[i]).type())) {
                return null;
            }
        }
        return new KeyLookupPlan(table, keyColumns, parameters, literals, outputs, constants, columns);
    }

}
