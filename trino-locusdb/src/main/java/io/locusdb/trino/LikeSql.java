package io.locusdb.trino;

import io.airlift.slice.Slice;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Constant;
import io.trino.spi.expression.StandardFunctions;
import io.trino.spi.expression.Variable;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.VarcharType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The part of Trino's filter expression that LocusDB evaluates as Trino does and that domains cannot state:
 * {@code column [NOT] LIKE 'pattern' [ESCAPE 'c']} on a VARCHAR column, which LocusDB evaluates once per dictionary
 * entry of each part rather than once per row. Both engines match {@code _} to one code point and {@code %} to any
 * run of them, line breaks included. Everything else stays with Trino.
 */
final class LikeSql {
    private LikeSql() {
    }

    /** The conditions ANDed in {@code expression} (itself alone when it is not an AND; none when it is TRUE). */
    static List<ConnectorExpression> conjuncts(ConnectorExpression expression) {
        List<ConnectorExpression> out = new ArrayList<>();
        if (expression instanceof Call call && call.getFunctionName().equals(StandardFunctions.AND_FUNCTION_NAME)) {
            for (ConnectorExpression argument : call.getArguments()) {
                out.addAll(conjuncts(argument));
            }
        } else if (!expression.equals(Constant.TRUE)) {
            out.add(expression);
        }
        return out;
    }

    /** The AND of {@code conditions} as Trino states it: TRUE for none. */
    static ConnectorExpression and(List<ConnectorExpression> conditions) {
        if (conditions.isEmpty()) {
            return Constant.TRUE;
        }
        return conditions.size() == 1 ? conditions.getFirst()
                : new Call(BooleanType.BOOLEAN, StandardFunctions.AND_FUNCTION_NAME, List.copyOf(conditions));
    }

    /** LocusDB's SQL for {@code condition}, or null when it is not a LIKE this connector pushes. */
    static String of(ConnectorExpression condition, Map<String, ColumnHandle> assignments) {
        boolean negated = false;
        ConnectorExpression like = condition;
        if (condition instanceof Call not && not.getFunctionName().equals(StandardFunctions.NOT_FUNCTION_NAME)
                && not.getArguments().size() == 1) {
            negated = true;
            like = not.getArguments().getFirst();
        }
        if (!(like instanceof Call call) || !call.getFunctionName().equals(StandardFunctions.LIKE_FUNCTION_NAME)) {
            return null;
        }
        List<ConnectorExpression> args = call.getArguments();
        if (args.size() < 2 || args.size() > 3 || !(args.get(0) instanceof Variable v)
                || !(assignments.get(v.getName()) instanceof LocusColumnHandle column)
                || !(column.type() instanceof VarcharType)) {
            return null;
        }
        String pattern = text(args.get(1));
        String escape = args.size() == 3 ? text(args.get(2)) : null;
        if (pattern == null || args.size() == 3 && (escape == null || escape.codePointCount(0, escape.length()) != 1
                || escape.equals("%") || escape.equals("_"))) {
            return null;
        }
        return PredicateSql.quote(column.name()) + (negated ? " NOT LIKE " : " LIKE ") + literal(pattern)
                + (escape == null ? "" : " ESCAPE " + literal(escape));
    }

    private static String text(ConnectorExpression e) {
        return e instanceof Constant c && c.getType() instanceof VarcharType && c.getValue() instanceof Slice s
                ? s.toStringUtf8() : null;
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
