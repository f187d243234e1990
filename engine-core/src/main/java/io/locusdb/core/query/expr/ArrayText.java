package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One-dimensional arrays as LocusDB computes with them: a string in PostgreSQL's array syntax ({@code {1,2,NULL}},
 * {@code {"a b","c\"d"}}), so that they flow through the engine as VARCHAR values and reach PostgreSQL clients in
 * the form those clients parse. Elements are kept as their text; a function that needs an element's value
 * converts it with the engine's own CAST rules. Lower bounds are always 1; multi-dimensional arrays are refused.
 */
public final class ArrayText {
    private ArrayText() {
    }

    /** The elements of {@code text} (null for NULL), or an error naming the malformed value. */
    public static List<String> parse(String text) {
        String s = text.strip();
        if (s.length() < 2 || s.charAt(0) != '{' || s.charAt(s.length() - 1) != '}') {
            throw malformed(text, "an array value starts with \"{\" and ends with \"}\"");
        }
        List<String> elements = new ArrayList<>();
        int i = 1;
        int end = s.length() - 1;
        i = skipBlanks(s, i, end);
        if (i == end) {
            return elements;
        }
        while (true) {
            i = skipBlanks(s, i, end);
            if (i >= end) {
                throw malformed(text, "an element is missing after \",\"");
            }
            char c = s.charAt(i);
            if (c == '{') {
                throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED,
                        "multi-dimensional arrays are not supported: \"" + text + "\"");
            }
            StringBuilder element = new StringBuilder();
            boolean quoted = c == '"';
            // Characters up to here were escaped: trailing blanks after them are kept, and the element is text.
            int escapedUpTo = 0;
            if (quoted) {
                i++;
                while (i < end && s.charAt(i) != '"') {
                    if (s.charAt(i) == '\\' && i + 1 < end) {
                        i++;
                    }
                    element.append(s.charAt(i++));
                }
                if (i >= end) {
                    throw malformed(text, "a quoted element is not closed");
                }
                i++;
                i = skipBlanks(s, i, end);
            } else {
                while (i < end && s.charAt(i) != ',') {
                    char e = s.charAt(i);
                    if (e == '{' || e == '}' || e == '"') {
                        throw malformed(text, "unexpected \"" + e + "\" in an element");
                    }
                    if (e == '\\' && i + 1 < end) {
                        i++;
                        element.append(s.charAt(i++));
                        escapedUpTo = element.length();
                        continue;
                    }
                    element.append(s.charAt(i++));
                }
            }
            String value = quoted ? element.toString() : stripTrailing(element, escapedUpTo);
            if (!quoted && value.isEmpty() && escapedUpTo == 0) {
                throw malformed(text, "an element is empty (write \"\" for an empty string)");
            }
            elements.add(!quoted && escapedUpTo == 0 && value.equalsIgnoreCase("NULL") ? null : value);
            if (i == end) {
                return elements;
            }
            if (s.charAt(i) != ',') {
                throw malformed(text, "expected \",\" after an element");
            }
            i++;
        }
    }

    /** PostgreSQL's output form: elements quoted where they would not read back as themselves. */
    public static String format(List<String> elements) {
        StringBuilder out = new StringBuilder("{");
        for (int k = 0; k < elements.size(); k++) {
            if (k > 0) {
                out.append(',');
            }
            String e = elements.get(k);
            if (e == null) {
                out.append("NULL");
            } else if (needsQuotes(e)) {
                out.append('"');
                for (int i = 0; i < e.length(); i++) {
                    char c = e.charAt(i);
                    if (c == '"' || c == '\\') {
                        out.append('\\');
                    }
                    out.append(c);
                }
                out.append('"');
            } else {
                out.append(e);
            }
        }
        return out.append('}').toString();
    }

    private static boolean needsQuotes(String e) {
        if (e.isEmpty() || e.equalsIgnoreCase("NULL")) {
            return true;
        }
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || Character.isWhitespace(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * One element's text as a value of {@code type} in its physical form (Long, Double or String), by the rules of
     * CAST from VARCHAR: a value that does not parse is an error naming it.
     */
    public static Object value(String element, ColumnType type) {
        if (element == null) {
            return null;
        }
        return new Cast(type, textInput(element)).eval(new ColumnVector[0], 1).boxed(0);
    }

    /** One element's text in the canonical form of {@code type} ({@code ' 7'} as INTEGER is {@code 7}). */
    public static String canonical(String element, ColumnType type) {
        if (element == null) {
            return null;
        }
        if (type.physical() == TypeKind.Physical.STRING) {
            return element;
        }
        return elementText(value(element, type), type);
    }

    /** A physical value of {@code type} as an array element's text (booleans as {@code t} and {@code f}). */
    public static String elementText(Object value, ColumnType type) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case BOOLEAN -> ((Long) value) != 0 ? "t" : "f";
            case DECIMAL -> BigDecimal.valueOf((Long) value, type.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Long) value).toString();
            case TIMESTAMP -> Timestamps.format((Long) value);
            // Array values are kept as text: an instant's is at UTC, whatever the session's zone.
            case TIMESTAMP_TZ -> ZonedTimestamps.format((Long) value, ZoneOffset.UTC);
            case INTEGER, BIGINT, DOUBLE, VARCHAR, CHAR -> value.toString();
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> Intervals.text(type.kind(), (Long) value);
        };
    }

    /** The array's length, or an error if the value is not an array. */
    public static int length(String text) {
        return parse(text).size();
    }

    private static Literal textInput(String element) {
        return new Literal(ColumnType.VARCHAR, element);
    }

    /** The element without trailing blanks, keeping the first {@code keep} characters (escaped ones) whole. */
    private static String stripTrailing(StringBuilder element, int keep) {
        int end = element.length();
        while (end > keep && Character.isWhitespace(element.charAt(end - 1))) {
            end--;
        }
        return element.substring(0, end);
    }

    private static int skipBlanks(String s, int i, int end) {
        while (i < end && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static LocusSqlException malformed(String text, String why) {
        return new LocusSqlException(SqlState.INVALID_TEXT_REPRESENTATION, String.format(Locale.ROOT,
                "malformed array literal: \"%s\" (%s)", text, why));
    }
}
