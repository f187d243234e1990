package io.locusdb.core.query.planner;

import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Folds constant expressions while planning with LocusDB's own expression code, so that an expression means the
 * same whether the planner folds it ({@code EXTRACT(DOW FROM DATE '1996-08-17')}, a column pinned to a constant by
 * a predicate, a CASE whose condition simplifies) or the engine computes it per row. Calcite's own executor has
 * other semantics (Sunday as day 1, truncating casts and divisions, division by zero as infinity).
 *
 * <p>An expression the engine cannot compute, or whose evaluation fails (overflow), or whose value has no SQL
 * literal (an infinite DOUBLE, or NULL where the type cannot hold one), stays as it is: the engine then computes it at run time, with the same result or
 * error a column would give.
 */
public final class ConstantFolder implements RexExecutor {
    public static final ConstantFolder INSTANCE = new ConstantFolder();

    private static final ColumnVector[] NO_INPUTS = new ColumnVector[0];

    private ConstantFolder() {
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        for (RexNode expression : constExps) {
            reducedValues.add(fold(rexBuilder, expression));
        }
    }

    /** The value of a constant expression as a literal of its type, or the expression itself. */
    public static RexNode fold(RexBuilder rexBuilder, RexNode expression) {
        if (expression instanceof RexLiteral) {
            return expression;
        }
        try {
            // Folded into a plan that later sessions reuse: a value that depends on the session's zone stays.
            Expr compiled = SessionTimeZone.unknown(() -> new ExprCompiler(rexBuilder, List.of()).compile(expression));
            ColumnVector value = compiled.eval(NO_INPUTS, 1);
            RexNode literal = literal(rexBuilder, expression.getType(), value);
            return literal != null ? literal : expression;
        } catch (LocusSqlException | ArithmeticException | IllegalArgumentException | SessionTimeZone.ZoneNotKnown e) {
            // IllegalArgumentException: a value its Calcite type cannot hold as a literal.
            return expression;
        }
    }

    private static RexNode literal(RexBuilder rex, RelDataType type, ColumnVector value) {
        if (value.isNull(0)) {
            // NULL where Calcite's typing says NOT NULL: left for the run time to compute.
            return type.isNullable() ? rex.makeNullLiteral(type) : null;
        }
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> rex.makeLiteral(value.longs()[0] != 0, type);
            case TINYINT, SMALLINT, INTEGER, BIGINT -> rex.makeExactLiteral(BigDecimal.valueOf(value.longs()[0]),
                    type);
            case DECIMAL -> rex.makeExactLiteral(BigDecimal.valueOf(value.longs()[0], Math.max(0, type.getScale())),
                    type);
            case DOUBLE, FLOAT, REAL -> {
                double d = value.doubles()[0];
                yield Double.isFinite(d) ? rex.makeApproxLiteral(BigDecimal.valueOf(d), type) : null;
            }
            case DATE -> rex.makeDateLiteral(DateString.fromDaysSinceEpoch(Math.toIntExact(value.longs()[0])));
            case TIMESTAMP -> rex.makeTimestampLiteral(new TimestampString(Timestamps.format(value.longs()[0])),
                    Timestamps.PRECISION);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> rex.makeTimestampWithLocalTimeZoneLiteral(
                    new TimestampString(Timestamps.format(value.longs()[0])), Timestamps.PRECISION);
            case CHAR, VARCHAR -> rex.makeLiteral(value.string(0), type, true);
            default -> null;
        };
    }
}
