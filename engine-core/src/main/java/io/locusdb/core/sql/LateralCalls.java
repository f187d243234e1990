package io.locusdb.core.sql;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's {@code LATERAL f(args)} in FROM, which the parser reads only as {@code LATERAL TABLE(f(args))}: the
 * call is wrapped so. A LATERAL subquery ({@code LATERAL (SELECT ...)}), {@code LATERAL UNNEST(...)} (which the
 * parser reads) and the wrapped form stay as they are, and so does anything inside string literals, quoted names
 * and comments.
 */
final class LateralCalls {
    private static final Pattern LATERAL_CALL = Pattern.compile("(?i)\\blateral\\s+(?!(?:table|unnest)\\b)"
            + "([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?)\\s*\\(");

    private LateralCalls() {
    }

    static String rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("lateral")) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int copied = 0;
        Matcher m = LATERAL_CALL.matcher(sql);
        int from = 0;
        while (m.find(from)) {
            int open = m.end() - 1;
            int close = matchingParenthesis(sql, open);
            if (quoted(sql, m.start()) || close < 0) {
                from = m.end();
                continue;
            }
            out.append(sql, copied, m.start(1)).append("TABLE(").append(sql, m.start(1), close + 1).append(')');
            copied = close + 1;
            from = close + 1;
        }
        return copied == 0 ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** The position of the parenthesis closing the one at {@code open}, past strings and quoted names; -1 if none. */
    private static int matchingParenthesis(String sql, int open) {
        int depth = 0;
        for (int i = open; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = sql.indexOf(c, i + 1);
                if (end < 0) {
                    return -1;
                }
                i = end;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code at} lies inside a string literal, a quoted name or a comment. */
    private static boolean quoted(String sql, int at) {
        for (int i = 0; i < at; i++) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = sql.indexOf(c, i + 1);
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                end = sql.indexOf('\n', i);
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                end = sql.indexOf("*/", i + 2);
            } else {
                continue;
            }
            if (end < 0 || end >= at) {
                return true;
            }
            i = end;
        }
        return false;
    }
}
