package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * A result's column names as PostgreSQL gives them where the query names none, instead of Calcite's
 * {@code EXPR$n}: a function call is named by its function ({@code count}, {@code sum}, {@code coalesce}), also
 * under OVER, FILTER or WITHIN GROUP ({@code row_number}), a CAST by what it casts when that has a name, CASE
 * {@code case}, anything else {@code ?column?}. Clients show these
 * names, and tools key on them.
 */
final class ColumnNames {
    private static final String CALCITE_PREFIX = "EXPR$";

    private ColumnNames() {
    }

    /**
     * What PostgreSQL would name each item of the outermost select list, or null when the list holds a {@code *}
     * (whose columns only validation knows).
     */
    static List<String> beforeValidation(SqlNode parsed) {
        SqlSelect select = outermostSelect(parsed);
        if (select == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (SqlNode item : select.getSelectList().getList()) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                return null;
            }
            names.add(item.getKind() == SqlKind.AS ? null : postgresName(item));
        }
        return names;
    }

    /** The validated names with Calcite's {@code EXPR$n} replaced by PostgreSQL's. */
    static List<String> of(List<String> itemNames, List<String> names) {
        if (itemNames == null || itemNames.size() != names.size()
                || names.stream().noneMatch(n -> n.startsWith(CALCITE_PREFIX))) {
            return names;
        }
        List<String> named = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            named.add(name.startsWith(CALCITE_PREFIX) && itemNames.get(i) != null ? itemNames.get(i) : name);
        }
        return named;
    }

    private static SqlSelect outermostSelect(SqlNode node) {
        return switch (node) {
            case SqlSelect select -> select;
            case SqlOrderBy orderBy -> outermostSelect(orderBy.query);
            case SqlBasicCall call when call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.INTERSECT
                    || call.getKind() == SqlKind.EXCEPT -> outermostSelect(call.operand(0));
            default -> null;
        };
    }

    static String postgresName(SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return id.names.getLast();
        }
        if (node instanceof SqlCall call) {
            if (call.getKind() == SqlKind.CAST && !call.getOperandList().isEmpty()) {
                return postgresName(call.operand(0));
            }
            if (call.getKind() == SqlKind.CASE) {
                return "case";
            }
            // A window, FILTER or WITHIN GROUP is named by the aggregate or window function it applies.
            if ((call.getKind() == SqlKind.OVER || call.getKind() == SqlKind.FILTER
                    || call.getKind() == SqlKind.WITHIN_GROUP) && !call.getOperandList().isEmpty()) {
                return postgresName(call.operand(0));
            }
            if (call.getOperator() instanceof SqlFunction function) {
                return function.getName().toLowerCase(Locale.ROOT);
            }
        }
        return "?column?";
    }
}
