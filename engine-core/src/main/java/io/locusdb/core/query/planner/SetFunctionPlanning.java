package io.locusdb.core.query.planner;

import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.sql.GenerateSeries;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Set-returning functions in FROM as plan sources: {@code generate_series(...)} (a table function scan) and
 * {@code UNNEST(array)} (an uncollect over one computed row), and {@code LATERAL generate_series(...)} whose arguments
 * come from each row of the tables before it (a correlate). UNNEST of another table's rows is refused with SQLSTATE
 * 0A000.
 */
final class SetFunctionPlanning {
    private SetFunctionPlanning() {
    }

    static PlanDraft.SetFunction series(TableFunctionScan scan, ParameterBinder binder) {
        if (!(scan.getCall() instanceof RexCall call) || !(call.getOperator() instanceof GenerateSeries)) {
            throw unsupported("the table function " + scan.getCall());
        }
        if (!scan.getInputs().isEmpty()) {
            throw unsupported("table functions over a table's rows");
        }
        List<RexNode> args = new ArrayList<>();
        for (RexNode op : call.getOperands()) {
            args.add(rowFree(binder.bind(op), "generate_series"));
        }
        TypeKind kind = SqlTypes.of(scan.getRowType().getFieldList().getFirst().getType()).kind();
        if (kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMP_TZ) {
            args = timestampSeriesArguments(args, scan.getCluster().getRexBuilder(), kind == TypeKind.TIMESTAMP_TZ);
        }
        return new PlanDraft.SetFunction(PhysicalPlan.SetFunctionKind.GENERATE_SERIES, args, false,
                types(scan), scan.getRowType().getFieldNames());
    }

    /**
     * {@code FROM input, LATERAL generate_series(args)} (Calcite's correlate of the input and the table function):
     * the arguments as expressions over the input's row, the correlation variable's fields becoming the input's
     * columns. An inner correlate, or a left one (LEFT JOIN LATERAL ... ON TRUE) that keeps input rows whose call
     * gives no row.
     */
    static PlanDraft.Lateral lateral(Correlate correlate, RelNode function, PlanDraft input, ParameterBinder binder) {
        if (!(function instanceof TableFunctionScan scan) || !(scan.getCall() instanceof RexCall call)
                || !(call.getOperator() instanceof GenerateSeries) || !scan.getInputs().isEmpty()) {
            throw unsupported("LATERAL over anything but generate_series");
        }
        boolean outer = switch (correlate.getJoinType()) {
            case INNER -> false;
            case LEFT -> true;
            default -> throw unsupported(correlate.getJoinType() + " LATERAL joins");
        };
        RexBuilder rex = correlate.getCluster().getRexBuilder();
        List<RexNode> args = new ArrayList<>();
        for (RexNode op : call.getOperands()) {
            args.add(overJoinedRow(binder.bind(op), correlate));
        }
        TypeKind kind = SqlTypes.of(scan.getRowType().getFieldList().getFirst().getType()).kind();
        if (kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMP_TZ) {
            args = timestampSeriesArguments(args, rex, kind == TypeKind.TIMESTAMP_TZ);
        }
        return new PlanDraft.Lateral(input, PhysicalPlan.SetFunctionKind.GENERATE_SERIES, args, outer, types(scan),
                correlate.getRowType().getFieldNames());
    }

    /**
     * An expression over the function's row and the correlation variable (the input's row) as one over the joined
     * row: the input's columns first, then the function's.
     */
    static RexNode overJoinedRow(RexNode e, Correlate correlate) {
        RexBuilder rex = correlate.getCluster().getRexBuilder();
        int inputColumns = correlate.getLeft().getRowType().getFieldCount();
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable
                        && variable.id.equals(correlate.getCorrelationId())) {
                    return rex.makeInputRef(access.getField().getType(), access.getField().getIndex());
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return rex.makeInputRef(ref.getType(), inputColumns + ref.getIndex());
            }
        });
    }

    /**
     * Over timestamps: start and stop as TIMESTAMPs (a DATE is its midnight), and the interval step, which has no
     * value of its own in the engine, as two BIGINTs: its microseconds and its months. Over instants, start and stop
     * as instants, and the step's whole days (of a literal counted in days) apart from its time, with the session's
     * zone, on whose calendar months and days are added.
     */
    private static List<RexNode> timestampSeriesArguments(List<RexNode> args, RexBuilder rex, boolean instants) {
        RelDataType timestamp = rex.getTypeFactory().createTypeWithNullability(rex.getTypeFactory().createSqlType(
                instants ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP, 6), true);
        if (!(args.get(2) instanceof RexLiteral step) || step.isNull()) {
            throw unsupported("generate_series with a step that is not a constant interval");
        }
        BigDecimal amount = step.getValueAs(BigDecimal.class);
        boolean months = step.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
        // Calcite holds a day-time interval in milliseconds.
        BigDecimal micros = months ? BigDecimal.ZERO : amount.movePointRight(3);
        if (instants) {
            BigDecimal days = BigDecimal.ZERO;
            if (!months && step.getType().getIntervalQualifier() != null
                    && step.getType().getIntervalQualifier().getStartUnit() == TimeUnit.DAY) {
                days = micros.divideToIntegralValue(BigDecimal.valueOf(Timestamps.MICROS_PER_DAY));
                micros = micros.subtract(days.multiply(BigDecimal.valueOf(Timestamps.MICROS_PER_DAY)));
            }
            return List.of(rex.makeCast(timestamp, args.get(0)), rex.makeCast(timestamp, args.get(1)),
                    rex.makeBigintLiteral(micros), rex.makeBigintLiteral(months ? amount : BigDecimal.ZERO),
                    rex.makeBigintLiteral(days), rex.makeLiteral(SessionTimeZone.get().getId()));
        }
        return List.of(rex.makeCast(timestamp, args.get(0)), rex.makeCast(timestamp, args.get(1)),
                rex.makeBigintLiteral(micros), rex.makeBigintLiteral(months ? amount : BigDecimal.ZERO));
    }

    static PlanDraft.SetFunction unnest(Uncollect uncollect, ParameterBinder binder) {
        List<RexNode> arrays = rowFreeExpressions(uncollect.getInput());
        if (arrays.size() != 1) {
            throw unsupported("UNNEST of " + arrays.size() + " arrays at once");
        }
        RexNode array = rowFree(binder.bind(arrays.getFirst()), "UNNEST");
        if (array.getType().getSqlTypeName() != SqlTypeName.ARRAY) {
            throw unsupported("UNNEST of " + array.getType().getFullTypeString());
        }
        if (array.getType().getComponentType().isStruct()) {
            throw unsupported("UNNEST of an array of rows");
        }
        return new PlanDraft.SetFunction(PhysicalPlan.SetFunctionKind.UNNEST, List.of(array),
                uncollect.withOrdinality, types(uncollect), uncollect.getRowType().getFieldNames());
    }

    /** The expressions of a one-row input made of literals and calls on them (what UNNEST(expr) plans as). */
    private static List<RexNode> rowFreeExpressions(RelNode input) {
        if (input instanceof Values values && values.getTuples().size() == 1) {
            return List.copyOf(values.getTuples().getFirst());
        }
        if (input instanceof Project project) {
            List<RexNode> below = rowFreeExpressions(project.getInput());
            List<RexNode> out = new ArrayList<>();
            for (RexNode e : project.getProjects()) {
                out.add(e.accept(new RexShuttle() {
                    @Override
                    public RexNode visitInputRef(RexInputRef ref) {
                        return below.get(ref.getIndex());
                    }
                }));
            }
            return out;
        }
        throw unsupported("UNNEST over the rows of another table (LATERAL)");
    }

    private static RexNode rowFree(RexNode arg, String function) {
        boolean[] correlated = {false};
        arg.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCorrelVariable(RexCorrelVariable variable) {
                correlated[0] = true;
                return null;
            }
        });
        if (correlated[0] || RexUtil.containsInputRef(arg)) {
            throw unsupported(function + " with arguments taken from another table's rows (LATERAL)");
        }
        return arg;
    }

    private static List<ColumnType> types(RelNode node) {
        List<ColumnType> types = new ArrayList<>();
        for (RelDataTypeField f : node.getRowType().getFieldList()) {
            types.add(SqlTypes.of(f.getType()));
        }
        return types;
    }

    private static LocusSqlException unsupported(String what) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported yet");
    }
}
