package io.locusdb.core.sql;

import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * PostgreSQL's ordered-set {@code mode() WITHIN GROUP (ORDER BY x)} as the aggregate {@code MODE(x)}: the most
 * frequent value, the least of equally frequent ones, which is what the ascending order picks. A descending order
 * picks the greatest instead; that is refused by name rather than answered with the least.
 */
final class ModeWithinGroup {
    private ModeWithinGroup() {
    }

    static SqlNode rewrite(SqlNode statement) {
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.WITHIN_GROUP && call.operand(0) instanceof SqlBasicCall mode
                        && mode.getOperator().getName().equalsIgnoreCase("MODE") && mode.operandCount() == 0
                        && call.operand(1) instanceof SqlNodeList order && order.size() == 1) {
                    SqlNode key = order.get(0);
                    while (key instanceof SqlCall c && (c.getKind() == SqlKind.NULLS_FIRST
                            || c.getKind() == SqlKind.NULLS_LAST)) {
                        key = c.operand(0);
                    }
                    if (key instanceof SqlCall c && c.getKind() == SqlKind.DESCENDING) {
                        throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "mode() WITHIN GROUP (ORDER BY"
                                + " ... DESC) is not supported yet (ascending, the least of the most frequent values,"
                                + " is)");
                    }
                    return SqlStdOperatorTable.MODE.createCall(call.getParserPosition(),
                            List.of(key.accept(this)));
                }
                return super.visit(call);
            }
        });
        return rewritten == null ? statement : rewritten;
    }
}
