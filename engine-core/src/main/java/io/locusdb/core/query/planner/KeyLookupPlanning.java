package io.locusdb.core.query.planner;

import com.google.common.collect.Range;
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
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;

/**
 * Recognizes, in Calcite's plan of a statement, a read of rows by their whole primary key: a scan of a keyed table,
 * a filter that is exactly one equality per key column with a parameter or a literal, or on a key of one column an
 * IN list of them ({@code k IN (?, ?)}, which Calcite writes as an OR of equalities, or with literals only as a
 * SEARCH of points), and a projection of columns (or of the constant the planner put in place of a key column).
 * Such statements get a {@link KeyLookupPlan}.
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
        int[][] probes;
        Object[][] probeLiterals;
        List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
        if (keyColumns.length == 1 && conjuncts.size() == 1 && (conjuncts.getFirst().getKind() == SqlKind.OR
                || conjuncts.getFirst().getKind() == SqlKind.SEARCH)) {
            List<Object> values = inList(conjuncts.getFirst(), keyColumns[0], schema);
            if (values == null || values.size() > KeyLookupPlan.MAX_KEYS) {
                return null;
            }
            probes = new int[values.size()][1];
            probeLiterals = new Object[values.size()][1];
            for (int p = 0; p < values.size(); p++) {
                if (values.get(p) instanceof RexDynamicParam param) {
                    probes[p][0] = param.getIndex();
                } else {
                    probes[p][0] = -1;
                    probeLiterals[p][0] = values.get(p);
                }
            }
        } else {
            probes = new int[][] {new int[keyColumns.length]};
            probeLiterals = new Object[][] {new Object[keyColumns.length]};
            if (!equalities(conjuncts, key, schema, probes[0], probeLiterals[0])) {
                return null;
            }
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
        return new KeyLookupPlan(table, keyColumns, probes, probeLiterals, outputs, constants, columns);
    }

    /** {@code column = value} in either order. */
    private record ColumnEquality(RexInputRef column, RexNode value) {
        /** The equality {@code node} is, or null when it is not one of a column and something else. */
        static ColumnEquality of(RexNode node) {
            if (!(node instanceof RexCall call) || call.getKind() != SqlKind.EQUALS) {
                return null;
            }
            RexNode left = call.getOperands().get(0);
            RexNode right = call.getOperands().get(1);
            if (left instanceof RexInputRef ref) {
                return new ColumnEquality(ref, right);
            }
            return right instanceof RexInputRef ref ? new ColumnEquality(ref, left) : null;
        }
    }

    /**
     * The conjuncts as one equality per key column with a parameter or a literal, into {@code parameters} and
     * {@code literals}; false when they are anything else.
     */
    private static boolean equalities(List<RexNode> conjuncts, List<Integer> key, Schema schema, int[] parameters,
                                      Object[] literals) {
        boolean[] bound = new boolean[key.size()];
        if (conjuncts.size() != key.size()) {
            return false;
        }
        for (RexNode conjunct : conjuncts) {
            ColumnEquality equality = ColumnEquality.of(conjunct);
            if (equality == null) {
                return false;
            }
            RexInputRef ref = equality.column();
            RexNode right = equality.value();
            int k = key.indexOf(ref.getIndex());
            if (k < 0 || bound[k] || !KeyLookupPlan.lookupType(schema.column(ref.getIndex()).type())) {
                return false;
            }
            RexNode value = right.getKind() == SqlKind.CAST ? ((RexCall) right).getOperands().getFirst() : right;
            if (value instanceof RexDynamicParam param && right == value) {
                parameters[k] = param.getIndex();
            } else if (right instanceof RexLiteral literal) {
                parameters[k] = -1;
                literals[k] = KeyLookupPlan.physical(schema.column(ref.getIndex()).type(), literal.getValue2());
                if (literals[k] == null && literal.getValue2() != null) {
                    return false;
                }
            } else {
                return false;
            }
            bound[k] = true;
        }
        return true;
    }

    /**
     * The values of {@code k IN (...)} on {@code column}: a parameter ({@link RexDynamicParam}) or a literal as the
     * column stores it, per element; null when the condition is anything else.
     */
    private static List<Object> inList(RexNode condition, int column, Schema schema) {
        if (!KeyLookupPlan.lookupType(schema.column(column).type())) {
            return null;
        }
        List<Object> values = new ArrayList<>();
        if (condition.getKind() == SqlKind.SEARCH) {
            RexCall search = (RexCall) condition;
            if (!(search.getOperands().get(0) instanceof RexInputRef ref) || ref.getIndex() != column
                    || !(search.getOperands().get(1) instanceof RexLiteral literal)) {
                return null;
            }
            Sarg<?> sarg = literal.getValueAs(Sarg.class);
            if (sarg == null || !sarg.isPoints()) {
                return null;
            }
            for (Range<?> range : sarg.rangeSet.asRanges()) {
                Object point = range.lowerEndpoint() instanceof NlsString text ? text.getValue()
                        : range.lowerEndpoint();
                Object value = KeyLookupPlan.physical(schema.column(column).type(), point);
                if (value == null) {
                    return null;
                }
                values.add(value);
            }
            return values;
        }
        for (RexNode disjunct : RelOptUtil.disjunctions(condition)) {
            ColumnEquality equality = ColumnEquality.of(disjunct);
            if (equality == null || equality.column().getIndex() != column) {
                return null;
            }
            RexNode right = equality.value();
            if (right instanceof RexDynamicParam param) {
                values.add(param);
            } else if (right instanceof RexLiteral literal) {
                Object value = KeyLookupPlan.physical(schema.column(column).type(), literal.getValue2());
                if (value == null) {
                    return null;
                }
                values.add(value);
            } else {
                return null;
            }
        }
        return values;
    }
}
