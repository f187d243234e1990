package io.locusdb.core.sql;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Turns {@code CAST(decimal AS VARCHAR)} into {@link #DECIMAL_TEXT}, a call Calcite's simplifier leaves alone.
 *
 * <p>The simplifier drops an inner cast it considers lossless: {@code CAST(CAST(i AS DECIMAL(11,1)) AS VARCHAR)}
 * becomes {@code CAST(i AS VARCHAR)}, which is right for the value but not for its text (-345 instead of -345.0).
 * Such inner casts come from the query's own CASTs, and from CASE and COALESCE, whose branches are cast to the
 * common type: {@code CAST(CASE WHEN FALSE THEN 1.5 ELSE i END AS VARCHAR)} must print -345.0. The engine compiles
 * DECIMAL_TEXT as the CAST it stands for.
 */
public final class DecimalText extends RexShuttle {
    /** CAST of a DECIMAL to a string type; its type is the string type of the CAST it replaces. */
    public static final SqlOperator DECIMAL_TEXT = SqlBasicFunction.create("DECIMAL_TEXT",
            ReturnTypes.VARCHAR, OperandTypes.NUMERIC, SqlFunctionCategory.STRING);

    private final RexBuilder rex;

    private DecimalText(RexBuilder rex) {
        this.rex = rex;
    }

    /** The plan with every decimal-to-text CAST in it replaced. */
    static RelNode apply(RelNode plan) {
        DecimalText shuttle = new DecimalText(plan.getCluster().getRexBuilder());
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(shuttle);
            }
        });
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexCall visited = (RexCall) super.visitCall(call);
        if (visited.getKind() == SqlKind.CAST && SqlTypeUtil.inCharFamily(visited.getType())
                && visited.getOperands().getFirst().getType().getSqlTypeName() == SqlTypeName.DECIMAL) {
            return rex.makeCall(visited.getType(), DECIMAL_TEXT, visited.getOperands());
        }
        return visited;
    }
}
