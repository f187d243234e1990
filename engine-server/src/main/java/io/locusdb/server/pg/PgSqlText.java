package io.locusdb.server.pg;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lexical work on SQL text as PostgreSQL clients write it, without parsing it: splitting a simple-query message into
 * its statements, finding its first words (for command tags and session commands) and turning {@code $n}
 * placeholders into the engine's positional {@code ?}. Strings ({@code '..'}, {@code E'..'} with backslash escapes,
 * {@code $tag$..$tag$}), quoted names and comments ({@code --}, nested {@code /* *}{@code /}) are skipped over.
 */
public final class PgSqlText {
    private PgSqlText() {
    }

    /** One statement of a message and where it starts in the message (0-based), for error positions. */
    public record Piece(String sql, int offset) {
    }

    /** The statements of {@code text}, without their ';'; empty when it holds only blanks and comments. */
    public static List<Piece> split(String text) {
        List<Piece> pieces = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ';') {
                add(pieces, text, start, i);
                start = i + 1;
                i++;
            } else {
                i = skip(text, i);
            }
        }
        add(pieces, text, start, text.length());
        return pieces;
    }

    private static void add(List<Piece> pieces, String text, int start, int end) {
        String sql = text.substring(start, end);
        if (!onlyCommentsAndBlanks(sql)) {
            pieces.add(new Piece(sql, start));
        }
    }

    public static boolean onlyCommentsAndBlanks(String sql) {
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (startsComment(sql, i)) {
                i = skip(sql, i);
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean startsComment(String s, int i) {
        return i + 1 < s.length() && ((s.charAt(i) == '-' && s.charAt(i + 1) == '-')
                || (s.charAt(i) == '/' && s.charAt(i + 1) == '*'));
    }

    /**
     * The index just past the token at {@code i} when it is a string, quoted name, dollar-quoted string or comment,
     * else {@code i + 1}. An unterminated one runs to the end of the text (the engine reports it).
     */
    static int skip(String s, int i) {
        char c = s.charAt(i);
        int n = s.length();
        if (c == '\'' ) {
            boolean backslashes = i > 0 && (s.charAt(i - 1) == 'E' || s.charAt(i - 1) == 'e')
                    && (i < 2 || !Character.isLetterOrDigit(s.charAt(i - 2)) && s.charAt(i - 2) != '_');
            int j = i + 1;
            while (j < n) {
                char d = s.charAt(j);
                if (backslashes && d == '\\') {
                    j += 2;
                } else if (d == '\'') {
                    if (j + 1 < n && s.charAt(j + 1) == '\'') {
                        j += 2;
                    } else {
                        return j + 1;
                    }
                } else {
                    j++;
                }
            }
            return n;
        }
        if (c == '"') {
            int j = i + 1;
            while (j < n) {
                if (s.charAt(j) == '"') {
                    if (j + 1 < n && s.charAt(j + 1) == '"') {
                        j += 2;
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return n;
        }
        if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
            int end = s.indexOf('\n', i);
            return end < 0 ? n : end + 1;
        }
        if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
            int depth = 1;
            int j = i + 2;
            while (j < n && depth > 0) {
                if (s.startsWith("/*", j)) {
                    depth++;
                    j += 2;
                } else if (s.startsWith("*/", j)) {
                    depth--;
                    j += 2;
                } else {
                    j++;
                }
            }
            return j;
        }
        if (c == '$' && (i == 0 || !isIdentifierPart(s.charAt(i - 1)))) {
            int j = i + 1;
            while (j < n && (Character.isLetter(s.charAt(j)) || s.charAt(j) == '_'
                    || (j > i + 1 && Character.isDigit(s.charAt(j))))) {
                j++;
            }
            if (j < n && s.charAt(j) == '$') {
                String tag = s.substring(i, j + 1);
                int end = s.indexOf(tag, j + 1);
                return end < 0 ? n : end + tag.length();
            }
        }
        return i + 1;
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** The first {@code count} words of {@code sql} in upper case, skipping blanks and comments. */
    public static List<String> firstWords(String sql, int count) {
        List<String> words = new ArrayList<>(count);
        int i = 0;
        int n = sql.length();
        while (i < n && words.size() < count) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (startsComment(sql, i)) {
                i = skip(sql, i);
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < n && isIdentifierPart(sql.charAt(j))) {
                    j++;
                }
                words.add(sql.substring(i, j).toUpperCase(Locale.ROOT));
                i = j;
            } else {
                break;
            }
        }
        return words;
    }

    /**
     * A token's value: a string literal ({@code '..'} or {@code E'..'} with its escapes) or a quoted name without
     * its quotes; anything else as it is.
     */
    static String unquote(String token) {
        if (token.length() >= 2 && token.startsWith("'") && token.endsWith("'")) {
            return token.substring(1, token.length() - 1).replace("''", "'");
        }
        if (token.length() >= 3 && (token.startsWith("E'") || token.startsWith("e'")) && token.endsWith("'")) {
            String standard = PgDialect.standardString(token.substring(2, token.length() - 1));
            return standard.substring(1, standard.length() - 1).replace("''", "'");
        }
        if (token.length() >= 2 && token.startsWith("\"") && token.endsWith("\"")) {
            return token.substring(1, token.length() - 1).replace("\"\"", "\"");
        }
        return token;
    }

    /** The index of the ')' closing the '(' at {@code open} (strings and comments skipped), or -1. */
    static int closingParen(String sql, int open) {
        int depth = 0;
        int i = open;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
            i = c == '(' || c == ')' ? i + 1 : skip(sql, i);
        }
        return -1;
    }

    /** {@code sql} with each {@code $n} a {@code ?}, and which {@code $n} each {@code ?} stands for, in order. */
    public record Placeholders(String sql, int[] order, int highest) {
    }

    public static Placeholders placeholders(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Integer> order = new ArrayList<>();
        int highest = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))
                    && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
                int j = i + 1;
                while (j < n && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                int index;
                try {
                    index = Integer.parseInt(sql.substring(i + 1, j));
                } catch (NumberFormatException e) {
                    index = Integer.MAX_VALUE;
                }
                if (index < 1 || index > 65_535) {
                    throw new PgDataException("42P02", "there is no parameter $" + sql.substring(i + 1, j));
                }
                order.add(index);
                highest = Math.max(highest, index);
                out.append('?');
                i = j;
            } else {
                int end = skip(sql, i);
                out.append(sql, i, end);
                i = end;
            }
        }
        return new Placeholders(out.toString(), order.stream().mapToInt(Integer::intValue).toArray(), highest);
    }
}
