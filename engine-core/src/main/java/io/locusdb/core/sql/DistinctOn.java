package io.locusdb.core.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * PostgreSQL's {@code SELECT DISTINCT ON (e, ...) ...}: the first row of each group of rows equal on the
 * expressions, first in the query's ORDER BY. The parser has no such clause, so the text becomes a marker call in
 * the select list ({@code SELECT DISTINCT_ON(e, ...), ...}, nearly the same length, so error positions hold), and
 * the tree a {@code QUALIFY ROW_NUMBER() OVER (PARTITION BY e, ... ORDER BY <the query's ORDER BY>) = 1}. As in
 * PostgreSQL, the expressions and the ORDER BY items may name output columns or give their ordinals.
 */
final class DistinctOn {
    private static final String MARKER = "DISTINCT_ON";

    private DistinctOn() {
    }

    /** The text with each {@code SELECT DISTINCT ON (...)} written as the marker call; strings and comments kept. */
    static String rewriteText(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("distinct")) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 8);
        int i = 0;
        boolean changed = false;
        String lastWord = "";
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = quotedEnd(sql, i);
                out.append(sql, i, end);
                i = end;
                lastWord = "";
                continue;
            }
            if (c == '-' && sql.startsWith("--", i) || c == '/' && sql.startsWith("/*", i)) {
                int end = c == '-' ? lineEnd(sql, i) : commentEnd(sql, i);
                out.append(sql, i, end);
                i = end;
                continue;
            }
            if (Character.isLetter(c) && (i == 0 || !isWordPart(sql.charAt(i - 1)))) {
                int end = i;
                while (end < sql.length() && isWordPart(sql.charAt(end))) {
                    end++;
                }
                String word = sql.substring(i, end);
                int open = lastWord.equalsIgnoreCase("select") && word.equalsIgnoreCase("distinct")
                        ? onParenthesis(sql, end) : -1;
                if (open >= 0) {
                    int close = closingParenthesis(sql, open);
                    if (close < 0) {
                        return sql;
                    }
                    out.append(MARKER).append('(').append(sql, open + 1, close).append("),");
                    i = close + 1;
                    lastWord = "";
                    changed = true;
                    continue;
                }
                out.append(word);
                lastWord = word;
                i = end;
                continue;
            }
            if (!Character.isWhitespace(c)) {
                lastWord = "";
            }
            out.append(c);
            i++;
        }
        return changed ? out.toString() : sql;
    }

    /** Where the {@code (} after {@code ON} is, when {@code at} starts {@code ON (}; else -1. */
    private static int onParenthesis(String sql, int at) {
        int i = skipBlanks(sql, at);
        if (i + 2 > sql.length() || !sql.regionMatches(true, i, "on", 0, 2)
                || i + 2 < sql.length() && isWordPart(sql.charAt(i + 2))) {
            return -1;
        }
        int open = skipBlanks(sql, i + 2);
        return open < sql.length() && sql.charAt(open) == '(' ? open : -1;
    }

    private static int closingParenthesis(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = quotedEnd(sql, i) - 1;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int quotedEnd(String sql, int at) {
        char quote = sql.charAt(at);
        int i = at + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    private static int lineEnd(String sql, int at) {
        int end = sql.indexOf('\n', at);
        return end < 0 ? sql.length() : end;
    }

    private static int commentEnd(String sql, int at) {
        int end = sql.indexOf("*/", at + 2);
        return end < 0 ? sql.length() : end + 2;
    }

    private static int skipBlanks(String sql, int at) {
        while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
            at++;
        }
        return at;
    }

    private static boolean isWordPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** Each SELECT whose select list starts with the marker, as the same SELECT with a QUALIFY. */
    static SqlNode apply(SqlNode statement) {
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public @Nullable SqlNode visit(SqlCall call) {
                // The parser puts a query's ORDER BY around its SELECT (a subquery's may be inside it).
                if (call instanceof SqlOrderBy orderBy && orderBy.query instanceof SqlSelect select) {
                    distinctOn(select, orderBy.orderList);
                } else if (call instanceof SqlSelect select) {
                    distinctOn(select, select.getOrderList());
                }
                return super.visit(call);
            }
        });
        return rewritten == null ? statement : rewritten;
    }

    private static void distinctOn(SqlSelect select, @Nullable SqlNodeList orderList) {
        SqlNodeList list = select.getSelectList();
        if (list == null || list.isEmpty() || !(list.get(0) instanceof SqlBasicCall marker)
                || !marker.getOperator().getName().equalsIgnoreCase(MARKER)) {
            return;
        }
        SqlParserPos pos = marker.getParserPosition();
        if (select.isDistinct()) {
            throw new LocusSqlException(SqlState.SYNTAX_ERROR, "DISTINCT ON cannot follow DISTINCT",
                    pos.getLineNum(), pos.getColumnNum(), null);
        }
        if (marker.operandCount() == 0) {
            throw new LocusSqlException(SqlState.SYNTAX_ERROR, "DISTINCT ON needs at least one expression",
                    pos.getLineNum(), pos.getColumnNum(), null);
        }
        List<SqlNode> items = new ArrayList<>(list.subList(1, list.size()));
        SqlNodeList partition = new SqlNodeList(pos);
        for (SqlNode e : marker.getOperandList()) {
            partition.add(outputExpression(e, items));
        }
        SqlNodeList order = new SqlNodeList(pos);
        if (orderList != null) {
            for (SqlNode o : orderList) {
                order.add(orderItem(o, items));
            }
        }
        SqlWindow window = SqlWindow.create(null, null, partition, order, SqlLiteral.createBoolean(true, pos),
                null, null, null, pos);
        SqlNode first = SqlStdOperatorTable.EQUALS.createCall(pos,
                SqlStdOperatorTable.OVER.createCall(pos, SqlStdOperatorTable.ROW_NUMBER.createCall(pos), window),
                SqlLiteral.createExactNumeric("1", pos));
        select.setSelectList(new SqlNodeList(items, list.getParserPosition()));
        select.setQualify(select.getQualify() == null ? first
                : SqlStdOperatorTable.AND.createCall(pos, select.getQualify(), first));
    }

    /** An ORDER BY item with its expression read as {@link #outputExpression}; DESC and NULLS FIRST/LAST kept. */
    private static SqlNode orderItem(SqlNode item, List<SqlNode> items) {
        if (item instanceof SqlBasicCall call && (call.getKind() == SqlKind.DESCENDING
                || call.getKind() == SqlKind.NULLS_FIRST || call.getKind() == SqlKind.NULLS_LAST)) {
            return call.getOperator().createCall(call.getParserPosition(), orderItem(call.operand(0), items));
        }
        return outputExpression(item, items);
    }

    /**
     * What an ORDER BY or DISTINCT ON expression stands for: an ordinal is that output column's expression, a bare
     * name that is an output column's alias that column's expression (output names first, as in PostgreSQL).
     */
    private static SqlNode outputExpression(SqlNode e, List<SqlNode> items) {
        if (e instanceof SqlNumericLiteral n && n.isInteger()) {
            int k = n.intValue(true);
            if (k < 1 || k > items.size()) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "DISTINCT ON or ORDER BY position " + k
                        + " is not in the select list", e.getParserPosition().getLineNum(),
                        e.getParserPosition().getColumnNum(), null);
            }
            return unaliased(items.get(k - 1));
        }
        if (e instanceof SqlIdentifier id && id.isSimple()) {
            for (SqlNode item : items) {
                if (item.getKind() == SqlKind.AS && ((SqlCall) item).operand(1) instanceof SqlIdentifier alias
                        && alias.getSimple().equals(id.getSimple())) {
                    return ((SqlCall) item).operand(0);
                }
            }
        }
        return e;
    }

    private static SqlNode unaliased(SqlNode item) {
        return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }
}
