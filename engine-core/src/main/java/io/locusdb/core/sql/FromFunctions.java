package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Functions in FROM as PostgreSQL reads them. A set-returning function ({@code generate_series},
 * {@code unnest}) with a table alias and no column list names its one column after the alias
 * ({@code FROM generate_series(1, 3) AS i} has the column {@code i}), or after the function without an alias. Any
 * other function in FROM is a one-row table of its value ({@code FROM string_to_array(..) s}), which is the
 * subquery {@code (SELECT f(..)) AS s(s)} in the standard's terms.
 */
final class FromFunctions {
    private FromFunctions() {
    }

    static SqlNode rewrite(SqlNode statement) {
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    select.setFrom(fromItem(select.getFrom()));
                }
                return super.visit(call);
            }
        });
        return rewritten == null ? statement : rewritten;
    }

    private static SqlNode fromItem(SqlNode item) {
        if (item instanceof SqlJoin join) {
            join.setLeft(fromItem(join.getLeft()));
            join.setRight(fromItem(join.getRight()));
            return join;
        }
        if (!(item instanceof SqlCall call)) {
            return item;
        }
        if (call.getKind() == SqlKind.AS) {
            List<SqlNode> operands = call.getOperandList();
            SqlNode inner = operands.get(0);
            if (!isFunction(inner)) {
                return item;
            }
            SqlIdentifier alias = (SqlIdentifier) operands.get(1);
            List<SqlNode> columns = operands.subList(2, operands.size());
            return named(inner, alias, columns, call.getParserPosition());
        }
        if (isFunction(call)) {
            String name = functionName(call);
            return named(call, new SqlIdentifier(name, SqlParserPos.ZERO), List.of(), call.getParserPosition());
        }
        return item;
    }

    /** {@code f(..)} (parsed as TABLE(f(..))) or UNNEST(..) in FROM, possibly LATERAL. */
    private static boolean isFunction(SqlNode node) {
        if (node instanceof SqlCall call) {
            return switch (call.getKind()) {
                case COLLECTION_TABLE -> call.operand(0) instanceof SqlBasicCall;
                case UNNEST -> true;
                case LATERAL -> isFunction(call.operand(0));
                default -> false;
            };
        }
        return false;
    }

    private static SqlNode named(SqlNode function, SqlIdentifier alias, List<SqlNode> columns, SqlParserPos pos) {
        SqlCall call = unwrapLateral(function);
        boolean setReturning = call.getKind() == SqlKind.UNNEST || isTableFunction(call);
        SqlNode item = function;
        if (!setReturning) {
            // A scalar function: its value as a one-row table.
            SqlNode value = call.operand(0);
            item = new SqlSelect(pos, null, SqlNodeList.of(value), null, null, null, null, null, null, null,
                    null, null, null);
        }
        List<SqlNode> operands = new ArrayList<>();
        operands.add(item);
        operands.add(alias);
        if (!columns.isEmpty()) {
            operands.addAll(columns);
        } else if (call.getKind() != SqlKind.UNNEST || call.operandCount() == 1) {
            operands.add(new SqlIdentifier(alias.getSimple(), SqlParserPos.ZERO));
            if (call.getOperator() == SqlStdOperatorTable.UNNEST_WITH_ORDINALITY) {
                operands.add(new SqlIdentifier("ordinality", SqlParserPos.ZERO));
            }
        }
        return SqlStdOperatorTable.AS.createCall(pos, operands);
    }

    private static SqlCall unwrapLateral(SqlNode node) {
        SqlCall call = (SqlCall) node;
        return call.getKind() == SqlKind.LATERAL ? unwrapLateral(call.operand(0)) : call;
    }

    private static boolean isTableFunction(SqlCall collectionTable) {
        SqlCall function = collectionTable.operand(0);
        return nameOf(function).equalsIgnoreCase(GenerateSeries.NAME);
    }

    private static String functionName(SqlCall item) {
        SqlCall call = unwrapLateral(item);
        if (call.getKind() == SqlKind.UNNEST) {
            return "unnest";
        }
        return nameOf(call.operand(0)).toLowerCase(Locale.ROOT);
    }

    private static String nameOf(SqlCall function) {
        SqlIdentifier id = function.getOperator().getNameAsId();
        return id.names.getLast();
    }
}
