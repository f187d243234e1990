package io.locusdb.core.query.planner;

import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Calcite's window node to LocusDB's {@link PhysicalPlan.Window}: partition and order keys as input columns, the
 * frame's bounds with their offsets resolved (the window's constants), each call's function, argument, offset and
 * default. Anything the window operator does not evaluate is refused here, by name.
 */
final class WindowPlanning {
    private WindowPlanning() {
    }

    static PhysicalPlan.Window plan(Window window) {
        List<RelDataTypeField> input = window.getInput().getRowType().getFieldList();
        List<RelDataTypeField> output = window.getRowType().getFieldList();
        List<PhysicalPlan.WindowGroup> groups = new ArrayList<>();
        for (Window.Group group : window.groups) {
            if (group.exclude != RexWindowExclusion.EXCLUDE_NO_OTHER) {
                throw unsupported("window frames with " + group.exclude + " are");
            }
            List<PhysicalPlan.SortKey> order = new ArrayList<>();
            for (RelFieldCollation c : group.orderKeys.getFieldCollations()) {
                order.add(PlanLowering.sortKey(c));
            }
            ColumnType rangeKey = !group.isRows && order.size() == 1
                    ? SqlTypes.of(input.get(order.getFirst().column()).getType()) : null;
            PhysicalPlan.FrameBound lower = bound(group.lowerBound, window, group.isRows, rangeKey);
            PhysicalPlan.FrameBound upper = bound(group.upperBound, window, group.isRows, rangeKey);
            List<PhysicalPlan.WindowCall> calls = new ArrayList<>();
            for (Window.RexWinAggCall call : group.aggCalls) {
                calls.add(call(call, window, input, SqlTypes.of(call.getType())));
            }
            groups.add(new PhysicalPlan.WindowGroup(group.keys.toArray(), order, group.isRows, lower, upper, calls));
        }
        List<ColumnType> types = output.stream().map(f -> SqlTypes.of(f.getType())).toList();
        return new PhysicalPlan.Window(groups, types, window.getRowType().getFieldNames());
    }

    private static PhysicalPlan.WindowCall call(Window.RexWinAggCall call, Window window,
                                                List<RelDataTypeField> input, ColumnType resultType) {
        if (call.distinct) {
            throw unsupported("DISTINCT in window functions is");
        }
        if (call.ignoreNulls) {
            throw unsupported("IGNORE NULLS in window functions is");
        }
        PhysicalPlan.WindowFunction function = switch (call.getOperator().getKind()) {
            case ROW_NUMBER -> PhysicalPlan.WindowFunction.ROW_NUMBER;
            case RANK -> PhysicalPlan.WindowFunction.RANK;
            case DENSE_RANK -> PhysicalPlan.WindowFunction.DENSE_RANK;
            case PERCENT_RANK -> PhysicalPlan.WindowFunction.PERCENT_RANK;
            case CUME_DIST -> PhysicalPlan.WindowFunction.CUME_DIST;
            case NTILE -> PhysicalPlan.WindowFunction.NTILE;
            case LAG -> PhysicalPlan.WindowFunction.LAG;
            case LEAD -> PhysicalPlan.WindowFunction.LEAD;
            case FIRST_VALUE -> PhysicalPlan.WindowFunction.FIRST_VALUE;
            case LAST_VALUE -> PhysicalPlan.WindowFunction.LAST_VALUE;
            case COUNT -> PhysicalPlan.WindowFunction.COUNT;
            case SUM -> PhysicalPlan.WindowFunction.SUM;
            case SUM0 -> PhysicalPlan.WindowFunction.SUM0;
            case AVG -> PhysicalPlan.WindowFunction.AVG;
            case MIN -> PhysicalPlan.WindowFunction.MIN;
            case MAX -> PhysicalPlan.WindowFunction.MAX;
            default -> throw unsupported("the window function " + call.getOperator().getName() + " is");
        };
        List<RexNode> operands = call.getOperands();
        int argument = -1;
        ColumnType argumentType = null;
        long offset = 1;
        Object defaultValue = null;
        switch (function) {
            case NTILE -> {
                offset = constant(operands.getFirst(), window).longValueExact();
                if (offset <= 0) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "NTILE needs a positive number of"
                            + " buckets, got " + offset);
                }
            }
            case LAG, LEAD -> {
                argument = column(operands.getFirst(), window);
                argumentType = SqlTypes.of(input.get(argument).getType());
                if (operands.size() > 1) {
                    offset = constant(operands.get(1), window).longValueExact();
                }
                if (operands.size() > 2) {
                    defaultValue = physical(operands.get(2), window, argumentType);
                }
            }
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST -> {
            }
            default -> {
                if (!operands.isEmpty()) {
                    argument = column(operands.getFirst(), window);
                    argumentType = SqlTypes.of(input.get(argument).getType());
                }
            }
        }
        return new PhysicalPlan.WindowCall(function, argument, offset, defaultValue, argumentType, resultType);
    }

    private static PhysicalPlan.FrameBound bound(RexWindowBound bound, Window window, boolean rows,
                                                 ColumnType rangeKey) {
        if (bound.isUnbounded()) {
            return new PhysicalPlan.FrameBound(bound.isPreceding() ? PhysicalPlan.FrameBound.Kind.UNBOUNDED_PRECEDING
                    : PhysicalPlan.FrameBound.Kind.UNBOUNDED_FOLLOWING, 0);
        }
        if (bound.isCurrentRow()) {
            return new PhysicalPlan.FrameBound(PhysicalPlan.FrameBound.Kind.CURRENT_ROW, 0);
        }
        PhysicalPlan.FrameBound.Kind kind = bound.isPreceding() ? PhysicalPlan.FrameBound.Kind.PRECEDING
                : PhysicalPlan.FrameBound.Kind.FOLLOWING;
        RexNode offsetNode = bound.getOffset();
        if (rows) {
            return new PhysicalPlan.FrameBound(kind, constant(offsetNode, window).longValueExact());
        }
        if (rangeKey == null || rangeKey.physical() != TypeKind.Physical.LONG) {
            throw unsupported("RANGE frames with an offset need one ORDER BY key of an integer, decimal or date"
                    + " type; they are");
        }
        RexLiteral literal = literal(offsetNode, window);
        BigDecimal value;
        if (literal.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
            // Day-time intervals are milliseconds; a date key counts days.
            value = literal.getValueAs(BigDecimal.class).divide(BigDecimal.valueOf(86_400_000L));
        } else {
            value = literal.getValueAs(BigDecimal.class).movePointRight(rangeKey.kind() == TypeKind.DECIMAL
                    ? rangeKey.scale() : 0);
        }
        if (value.signum() < 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "a frame offset must not be negative, got "
                    + value);
        }
        return new PhysicalPlan.FrameBound(kind, value.setScale(0, RoundingMode.DOWN).longValueExact());
    }

    /** The input column an operand names. */
    private static int column(RexNode operand, Window window) {
        if (operand instanceof RexInputRef ref && ref.getIndex() < window.getInput().getRowType().getFieldCount()) {
            return ref.getIndex();
        }
        throw unsupported("window function arguments other than columns are");
    }

    private static RexLiteral literal(RexNode operand, Window window) {
        if (operand instanceof RexLiteral literal) {
            return literal;
        }
        if (operand instanceof RexInputRef ref) {
            int constant = ref.getIndex() - window.getInput().getRowType().getFieldCount();
            if (constant >= 0 && constant < window.constants.size()) {
                return window.constants.get(constant);
            }
        }
        throw unsupported("window offsets other than constants are");
    }

    private static BigDecimal constant(RexNode operand, Window window) {
        RexLiteral literal = literal(operand, window);
        if (literal.isNull()) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "a window offset must not be NULL");
        }
        return literal.getValueAs(BigDecimal.class);
    }

    /** A default value as the argument's physical value. */
    private static Object physical(RexNode operand, Window window, ColumnType type) {
        RexLiteral literal = literal(operand, window);
        if (literal.isNull()) {
            return null;
        }
        return switch (type.physical()) {
            case DOUBLE -> literal.getValueAs(BigDecimal.class).doubleValue();
            case STRING -> literal.getValueAs(String.class);
            case LONG -> {
                Object value = ExprCompiler.literal(literal).value();
                if (value instanceof Long l && type.kind() == TypeKind.DECIMAL
                        && literal.getType().getScale() != type.scale()) {
                    yield literal.getValueAs(BigDecimal.class).movePointRight(type.scale()).longValueExact();
                }
                yield value;
            }
        };
    }

    private static LocusSqlException unsupported(String what) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " not supported yet");
    }
}
