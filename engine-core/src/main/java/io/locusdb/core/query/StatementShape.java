package io.locusdb.core.query;

/**
 * A statement's text with its literals taken out: the same query with other constants (TPC-H's substitution
 * parameters written into the text, as most tools send them) has the same shape, so what its earlier runs cost
 * says what the next will. Comments and runs of white space go too; quoted identifiers and parameter markers
 * ({@code ?}, {@code $1}) stay. Only a key for estimates: a wrong shape costs a worse guess, never a wrong answer.
 */
final class StatementShape {
    /** Texts longer than this are keyed by their first part: shapes are for queries, not bulk VALUES lists. */
    private static final int MAX_LENGTH = 16_384;

    private StatementShape() {
    }

    static String of(String sql) {
        int n = Math.min(sql.length(), MAX_LENGTH);
        StringBuilder out = new StringBuilder(Math.min(n, 1024));
        int i = 0;
        boolean space = false;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'') {
                i = skipQuoted(sql, i, n, '\'');
                space = appendToken(out, space, "?");
            } else if (c == '"') {
                int end = skipQuoted(sql, i, n, '"');
                space = appendToken(out, space, sql.substring(i, end));
                i = end;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
                space = true;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 || end >= n ? n : end + 2;
                space = true;
            } else if (Character.isWhitespace(c)) {
                i++;
                space = true;
            } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(sql.charAt(i + 1)))) {
                if (out.length() > 0 && !space && isWordChar(out.charAt(out.length() - 1))) {
                    // a digit inside a name (l_2) or a parameter marker ($1)
                    out.append(c);
                    i++;
                } else {
                    i = skipNumber(sql, i, n);
                    space = appendToken(out, space, "?");
                }
            } else {
                if (space && out.length() > 0) {
                    out.append(' ');
                }
                space = false;
                out.append(Character.toLowerCase(c));
                i++;
            }
        }
        return out.toString();
    }

    private static boolean appendToken(StringBuilder out, boolean space, String token) {
        if (space && out.length() > 0) {
            out.append(' ');
        }
        out.append(token);
        return false;
    }

    /** The index after the quoted text starting at {@code start}; a doubled quote stays inside. */
    private static int skipQuoted(String sql, int start, int n, char quote) {
        int i = start + 1;
        while (i < n) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return n;
    }

    private static int skipNumber(String sql, int start, int n) {
        int i = start;
        while (i < n) {
            char c = sql.charAt(i);
            if (isDigit(c) || c == '.') {
                i++;
            } else if ((c == 'e' || c == 'E') && i + 1 < n && (isDigit(sql.charAt(i + 1))
                    || ((sql.charAt(i + 1) == '+' || sql.charAt(i + 1) == '-') && i + 2 < n
                    && isDigit(sql.charAt(i + 2))))) {
                i += 2;
            } else {
                return i;
            }
        }
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
