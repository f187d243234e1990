package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Qualifies the unqualified column names of a SELECT over many tables with the one table that has them, before
 * validation: {@code x36} in {@code FROM t1, ..., t64} becomes {@code t36.x36}. Calcite resolves an unqualified name
 * by asking every table of the FROM list, and for each the whole list again, so a 64-table statement spent a third
 * of its planning there; a qualified name is one look-up. The rewrite changes no meaning: it is made only where the
 * FROM list is plain tables and views joined without USING or NATURAL, in the select list, WHERE and ON conditions
 * (not in nested queries, which have scopes of their own), for names exactly one table has and no select item is
 * called; everything else is left to the validator, errors included.
 */
final class ColumnQualifier {
    /** Below this many tables in one FROM list the validator's own resolution is cheap enough. */
    static final int MIN_TABLES = 8;

    private ColumnQualifier() {
    }

    /**
     * Rewrites {@code statement} in place. {@code columnsOf} gives the columns of a table or view by its
     * unqualified name, or null for anything else (then that SELECT is left as it is).
     */
    static void qualify(SqlNode statement, Function<String, List<String>> columnsOf) {
        List<SqlSelect> selects = new ArrayList<>();
        boolean[] hasWith = new boolean[1];
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.WITH) {
                    // A common table expression may share a table's name: names then mean something else.
                    hasWith[0] = true;
                }
                if (call instanceof SqlSelect select) {
                    selects.add(select);
                }
                return super.visit(call);
            }
        });
        if (hasWith[0]) {
            return;
        }
        for (SqlSelect select : selects) {
            qualify(select, columnsOf);
        }
    }

    private static void qualify(SqlSelect select, Function<String, List<String>> columnsOf) {
        if (select.getFrom() == null) {
            return;
        }
        Map<String, String> tableOf = new HashMap<>();
        Set<String> aliases = new HashSet<>();
        List<SqlJoin> joins = new ArrayList<>();
        if (!collect(select.getFrom(), columnsOf, tableOf, aliases, joins) || aliases.size() < MIN_TABLES) {
            return;
        }
        for (SqlNode item : select.getSelectList()) {
            if (item.getKind() == SqlKind.AS) {
                tableOf.remove(key(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple()));
            }
        }
        tableOf.values().removeIf(table -> table == null);
        Qualify shuttle = new Qualify(tableOf);
        select.setSelectList((SqlNodeList) select.getSelectList().accept(shuttle));
        if (select.getWhere() != null) {
            select.setWhere(select.getWhere().accept(shuttle));
        }
        for (SqlJoin join : joins) {
            if (join.getCondition() != null) {
                join.setOperand(5, join.getCondition().accept(shuttle));
            }
        }
    }

    /**
     * Adds a FROM item's tables: each column name to its table's alias (null where two tables have it). False when
     * the item is anything but tables and views joined on conditions (or without any).
     */
    private static boolean collect(SqlNode from, Function<String, List<String>> columnsOf, Map<String, String> tableOf,
                                   Set<String> aliases, List<SqlJoin> joins) {
        if (from instanceof SqlJoin join) {
            if (join.isNatural() || join.getConditionType() == JoinConditionType.USING) {
                return false;
            }
            joins.add(join);
            return collect(join.getLeft(), columnsOf, tableOf, aliases, joins)
                    && collect(join.getRight(), columnsOf, tableOf, aliases, joins);
        }
        SqlIdentifier table;
        String alias;
        if (from instanceof SqlIdentifier id) {
            table = id;
            alias = id.isSimple() ? id.getSimple() : null;
        } else if (from.getKind() == SqlKind.AS && ((SqlCall) from).operandCount() == 2
                && ((SqlCall) from).operand(0) instanceof SqlIdentifier id
                && ((SqlCall) from).operand(1) instanceof SqlIdentifier name) {
            table = id;
            alias = name.getSimple();
        } else {
            return false;
        }
        List<String> columns = table.isSimple() ? columnsOf.apply(table.getSimple()) : null;
        if (columns == null || alias == null || !aliases.add(key(alias))) {
            return false;
        }
        for (String column : columns) {
            String k = key(column);
            tableOf.put(k, tableOf.containsKey(k) ? null : alias);
        }
        return true;
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Qualifies the names it knows; leaves nested queries, aliases and window names alone. */
    private static final class Qualify extends SqlShuttle {
        private final Map<String, String> tableOf;

        Qualify(Map<String, String> tableOf) {
            this.tableOf = tableOf;
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            if (!id.isSimple() || id.isStar()) {
                return id;
            }
            String table = tableOf.get(key(id.getSimple()));
            return table == null ? id : new SqlIdentifier(List.of(table, id.getSimple()), id.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (call.getKind().belongsTo(SqlKind.QUERY)) {
                return call;
            }
            switch (call.getKind()) {
                case WITH, EXISTS, SCALAR_QUERY, ARRAY_QUERY_CONSTRUCTOR, MAP_QUERY_CONSTRUCTOR,
                     MULTISET_QUERY_CONSTRUCTOR, LATERAL -> {
                    return call;
                }
                case AS, OVER -> {
                    // Only the expression: what follows is a name (the item's, or a window's).
                    SqlNode operand = call.operand(0);
                    SqlNode qualified = operand.accept(this);
                    if (qualified != operand) {
                        call.setOperand(0, qualified);
                    }
                    return call;
                }
                default -> {
                    return super.visit(call);
                }
            }
        }
    }
}
