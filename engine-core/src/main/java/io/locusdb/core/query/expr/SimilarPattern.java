package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The standard's SIMILAR TO pattern as a Java regular expression matched against the whole text: {@code %} is any
 * text, {@code _} any character; {@code | * + ? ( ) { }} and bracket expressions keep their regular-expression
 * meaning; the escape character (a backslash unless ESCAPE names another, none for ESCAPE '') makes the next
 * character literal; every other character is itself.
 */
public final class SimilarPattern {
    private static final Map<String, String> POSIX_CLASSES = Map.ofEntries(Map.entry("alpha", "\\p{Alpha}"),
            Map.entry("digit", "\\p{Digit}"), Map.entry("alnum", "\\p{Alnum}"), Map.entry("upper", "\\p{Upper}"),
            Map.entry("lower", "\\p{Lower}"), Map.entry("space", "\\s"), Map.entry("punct", "\\p{Punct}"),
            Map.entry("xdigit", "\\p{XDigit}"), Map.entry("blank", "\\p{Blank}"), Map.entry("cntrl", "\\p{Cntrl}"),
            Map.entry("print", "\\p{Print}"), Map.entry("graph", "\\p{Graph}"), Map.entry("word", "\\w"));

    private SimilarPattern() {
    }

    public static Pattern compile(String pattern, String escape) {
        if (escape.length() > 1) {
            throw new LocusSqlException(SqlState.INVALID_ESCAPE_SEQUENCE, "invalid escape string '" + escape
                    + "': it must be empty or one character");
        }
        int escapeChar = escape.isEmpty() ? -1 : escape.charAt(0);
        StringBuilder regex = new StringBuilder();
        boolean inBracket = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == escapeChar) {
                if (i + 1 >= pattern.length()) {
                    throw new LocusSqlException(SqlState.INVALID_ESCAPE_SEQUENCE, "SIMILAR TO pattern '" + pattern
                            + "' ends with its escape character");
                }
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
                continue;
            }
            if (inBracket) {
                if (c == ']') {
                    inBracket = false;
                    regex.append(']');
                } else if (c == '[' && pattern.startsWith("[:", i)) {
                    // A POSIX class, [:digit:] and the like, as Java's \p{...}.
                    int end = pattern.indexOf(":]", i + 2);
                    String name = end < 0 ? "" : pattern.substring(i + 2, end);
                    String java = POSIX_CLASSES.get(name);
                    if (java == null) {
                        throw new LocusSqlException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid SIMILAR TO"
                                + " pattern '" + pattern + "': unknown character class [:" + name + ":]");
                    }
                    regex.append(java);
                    i = end + 1;
                } else {
                    // Java reads [, & (&&) and \ inside a class as operators: here they are characters.
                    regex.append(c == '\\' || c == '[' || c == '&' ? "\\" + c : String.valueOf(c));
                }
                continue;
            }
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                case '[' -> {
                    inBracket = true;
                    regex.append('[');
                    // A ] right after [ (or [^) is a member, not the end.
                    if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '^') {
                        regex.append('^');
                        i++;
                    }
                    if (i + 1 < pattern.length() && pattern.charAt(i + 1) == ']') {
                        regex.append("\\]");
                        i++;
                    }
                }
                case '{' -> {
                    // A repetition's bounds, {m}, {m,} or {m,n}, as they are.
                    int end = pattern.indexOf('}', i);
                    if (end < 0 || !pattern.substring(i + 1, end).matches("\\d+(,\\d*)?")) {
                        throw new LocusSqlException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid SIMILAR TO pattern '"
                                + pattern + "': a { must start a repetition such as {2} or {2,5}");
                    }
                    regex.append(pattern, i, end + 1);
                    i = end;
                }
                case '|', '*', '+', '?', '(', ')' -> regex.append(c);
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        try {
            return Pattern.compile(regex.toString(), Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            throw new LocusSqlException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid SIMILAR TO pattern '"
                    + pattern + "': " + e.getDescription());
        }
    }
}
