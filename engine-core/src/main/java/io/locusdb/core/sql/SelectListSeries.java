package io.locusdb.core.sql;

import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * PostgreSQL's {@code generate_series(...)} as an item of a select list: each row of the FROM clause (or the one row
 * of a select without FROM) comes out once per value of its series, which is what {@code FROM ..., LATERAL
 * generate_series(...) AS g(g)} gives with {@code g} in the item's place. The standard has no set-returning
 * functions outside FROM, so the tree is rewritten so. Refused (0A000): two of them in one select list (PostgreSQL
 * zips them) and one in a grouped or DISTINCT select (PostgreSQL expands it after grouping).
 */
final class SelectListSeries {
    /** The FROM item the rewrite adds; a name no user table is likely to have. */
    private static final String TABLE = "generate_series$";

    private SelectListSeries() {
    }

    static SqlNode rewrite(SqlNode statement) {
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    rewrite(select);
                }
                return super.visit(call);
            }
        });
        return rewritten == null ? statement : rewritten;
    }

    private static void rewrite(SqlSelect select) {
        SqlNodeList items = select.getSelectList();
        int at = -1;
        for (int i = 0; i < items.size(); i++) {
            if (series(items.get(i)) != null) {
                if (at >= 0) {
                    throw unsupported(items.get(i), "two set-returning functions in one select list");
                }
                at = i;
            }
        }
        if (at < 0) {
            return;
        }
        SqlNode item = items.get(at);
        if (select.getGroup() != null || select.getHaving() != null || select.isDistinct()) {
            throw unsupported(item, "generate_series in the select list of a grouped or DISTINCT query (write it"
                    + " in FROM)");
        }
        for (SqlNode other : items) {
            if (other instanceof SqlIdentifier id && id.isStar()) {
                throw unsupported(other, "* beside generate_series in a select list (name the columns)");
            }
        }
        SqlBasicCall call = series(item);
        String column = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(1).toString() : "generate_series";
        SqlParserPos pos = call.getParserPosition();
        SqlNode function = SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, call);
        if (select.getFrom() != null) {
            function = SqlStdOperatorTable.LATERAL.createCall(pos, function);
        }
        SqlNode named = SqlStdOperatorTable.AS.createCall(pos, function, new SqlIdentifier(TABLE, pos),
                new SqlIdentifier(column, pos));
        select.setFrom(select.getFrom() == null ? named : new SqlJoin(pos, select.getFrom(),
                SqlLiteral.createBoolean(false, pos), JoinType.COMMA.symbol(pos), named,
                JoinConditionType.NONE.symbol(pos), null));
        items.set(at, SqlStdOperatorTable.AS.createCall(pos, new SqlIdentifier(List.of(TABLE, column), pos),
                new SqlIdentifier(column, pos)));
    }

    /** The generate_series call an item is (possibly under AS), or null. */
    private static SqlBasicCall series(SqlNode item) {
        SqlNode expression = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        if (expression instanceof SqlBasicCall call && call.getOperator().getNameAsId().names.getLast()
                .equalsIgnoreCase(GenerateSeries.NAME)) {
            return call;
        }
        return null;
    }

    private static LocusSqlException unsupported(SqlNode at, String what) {
        SqlParserPos pos = at.getParserPosition();
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported yet",
                pos.getLineNum(), pos.getColumnNum(), null);
    }
}
