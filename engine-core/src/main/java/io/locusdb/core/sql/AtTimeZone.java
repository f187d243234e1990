package io.locusdb.core.sql;

import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's {@code value AT TIME ZONE zone}, which the parser does not read, as the function
 * {@code AT_TIME_ZONE(value, zone)}: a TIMESTAMP is read as wall-clock time in {@code zone} (giving a TIMESTAMP WITH
 * TIME ZONE), a TIMESTAMP WITH TIME ZONE is shown as the wall-clock time in {@code zone} (giving a TIMESTAMP). The
 * operand is what binds tighter than {@code AT} in PostgreSQL's grammar: the primary just before it — a column
 * (possibly qualified or quoted), a literal (with its type word), a parenthesized expression, a function call, with
 * any {@code ::type} casts. The zone is a string literal, a parameter or a column. Text the rewrite cannot take
 * apart is left for the parser, which refuses it with its position.
 */
final class AtTimeZone {
    /** The name the rewritten calls take. */
    static final String FUNCTION = "AT_TIME_ZONE";
    private static final Pattern AT = Pattern.compile("(?i)\\bat\\s+time\\s+zone\\b\\s*");
    private static final Pattern ZONE = Pattern.compile("'(?:[^']|'')*'|\\?|\\$\\d+|[A-Za-z_][A-Za-z0-9_.]*|\"[^\"]+\"");
    private static final Pattern TYPE_WORD = Pattern.compile("(?i)timestamptz|timestamp|date|text|varchar");

    private AtTimeZone() {
    }

    static String rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("time zone")) {
            return sql;
        }
        String text = sql;
        for (int guard = 0; guard < 1_000; guard++) {
            Matcher m = AT.matcher(text);
            int at = -1;
            while (m.find()) {
                if (!insideString(text, m.start())) {
                    at = m.start();
                    break;
                }
            }
            if (at < 0) {
                return text;
            }
            int operandStart = operandStart(text, at);
            Matcher zone = ZONE.matcher(text).region(m.end(), text.length());
            if (operandStart < 0 || !zone.lookingAt()) {
                return text;
            }
            String operand = text.substring(operandStart, at).strip();
            text = text.substring(0, operandStart) + FUNCTION + "(" + operand + ", " + zone.group() + ")"
                    + text.substring(zone.end());
        }
        return text;
    }

    /** Where the primary that ends just before {@code end} (after blanks) starts; -1 when there is none. */
    private static int operandStart(String text, int end) {
        int i = blanksBack(text, end - 1);
        if (i < 0) {
            return -1;
        }
        int start;
        char c = text.charAt(i);
        if (c == ')') {
            int open = matchingOpen(text, i);
            if (open < 0) {
                return -1;
            }
            start = open;
            // A function's name (or CAST) before the parenthesis.
            int nameEnd = blanksBack(text, open - 1) + 1;
            int name = wordBack(text, nameEnd, ch -> Character.isLetterOrDigit(ch) || ch == '_' || ch == '.');
            if (name < nameEnd && !isKeyword(text.substring(name, nameEnd))) {
                start = name;
            }
        } else if (c == '\'') {
            int open = i - 1;
            while (open >= 0) {
                if (text.charAt(open) == '\'') {
                    if (open > 0 && text.charAt(open - 1) == '\'') {
                        open -= 2;
                        continue;
                    }
                    break;
                }
                open--;
            }
            if (open < 0) {
                return -1;
            }
            start = open;
            // The literal's type word (TIMESTAMP '...').
            int wordEnd = blanksBack(text, open - 1) + 1;
            int word = wordBack(text, wordEnd, Character::isLetter);
            if (word < wordEnd && TYPE_WORD.matcher(text.substring(word, wordEnd)).matches()) {
                start = word;
            }
        } else if (c == '"' || Character.isLetterOrDigit(c) || c == '_') {
            int j = i;
            while (j >= 0) {
                char d = text.charAt(j);
                if (d == '"') {
                    int open = text.lastIndexOf('"', j - 1);
                    if (open < 0) {
                        return -1;
                    }
                    j = open - 1;
                } else if (Character.isLetterOrDigit(d) || d == '_' || d == '.') {
                    j--;
                } else {
                    break;
                }
            }
            start = j + 1;
            if (isKeyword(text.substring(start, i + 1))) {
                return -1;
            }
        } else {
            return -1;
        }
        // x::type: the cast belongs to the operand.
        int k = start - 1;
        if (k >= 1 && text.charAt(k) == ':' && text.charAt(k - 1) == ':') {
            return operandStart(text, k - 1);
        }
        return start;
    }

    /** The last index at or before {@code i} that is not blank; -1 when there is none. */
    private static int blanksBack(String text, int i) {
        while (i >= 0 && Character.isWhitespace(text.charAt(i))) {
            i--;
        }
        return i;
    }

    /** Where the run of characters {@code part} accepts that ends just before {@code end} starts. */
    private static int wordBack(String text, int end, IntPredicate part) {
        int j = end - 1;
        while (j >= 0 && part.test(text.charAt(j))) {
            j--;
        }
        return j + 1;
    }

    private static boolean isKeyword(String word) {
        return switch (word.toUpperCase(Locale.ROOT)) {
            case "SELECT", "WHERE", "AND", "OR", "NOT", "ON", "BY", "FROM", "AS", "IN", "WHEN", "THEN", "ELSE",
                 "CASE", "HAVING", "IS", "BETWEEN", "LIKE", "VALUES", "SET" -> true;
            default -> false;
        };
    }

    private static int matchingOpen(String text, int close) {
        int depth = 0;
        boolean inString = false;
        for (int i = close; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '\'') {
                inString = !inString;
            } else if (!inString && c == ')') {
                depth++;
            } else if (!inString && c == '(') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        return -1;
    }

    private static boolean insideString(String text, int at) {
        boolean inString = false;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\'') {
                inString = !inString;
            }
        }
        return inString;
    }
}
