package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * PostgreSQL's {@code to_char(number, template)} for the patterns reports use: {@code 9} (a digit, a space where the
 * digit is a leading zero), {@code 0} (a digit, zeros kept from there on), {@code .} or {@code D} (the decimal
 * point), {@code ,} or {@code G} (a group separator, a space before the first digit), {@code S} (the sign, + or -,
 * right before the number when it leads the template, else where it stands), {@code SG}, {@code MI} and {@code PL}
 * (the sign, the minus, the plus, where they stand), and the {@code FM} prefix (no
 * padding, no trailing zeros in the fraction). Without a sign pattern a place is kept before the number for its
 * minus. The value is rounded half away from zero to the template's fraction digits; one with more integer digits
 * than the template has is all {@code #}, as in PostgreSQL. Other characters are copied.
 */
public final class NumberFormat {
    private NumberFormat() {
    }

    /** The most significant digits a double's text shows, as PostgreSQL's (DBL_DIG). */
    private static final int DOUBLE_DIGITS = 15;

    /** An exact number, rounded half away from zero, as PostgreSQL rounds numeric. */
    public static String format(BigDecimal value, String template) {
        return format(value, template, false);
    }

    /**
     * A double as PostgreSQL's float8 to_char prints it: its binary value rounded (half to even) at the template's
     * fraction digits, but to no more than 15 significant digits in all, zeros after them (2.5 with '9' is 2; 2.675
     * with '9.99' is 2.67, its binary value being 2.67499...).
     */
    public static String formatDouble(double value, String template) {
        return format(new BigDecimal(value), template, true);
    }

    private static String format(BigDecimal value, String template, boolean binary) {
        String t = template;
        boolean fill = false;
        if (t.regionMatches(true, 0, "FM", 0, 2)) {
            fill = true;
            t = t.substring(2);
        }
        // A leading S is anchored to the number: + or - right before its first character.
        boolean anchoredPlus = false;
        if (!t.isEmpty() && (t.charAt(0) == 'S' || t.charAt(0) == 's') && !t.regionMatches(true, 0, "SG", 0, 2)) {
            anchoredPlus = true;
            t = t.substring(1);
        }
        checkPatterns(t, template);
        int point = indexOfPoint(t);
        String integerPart = point < 0 ? t : t.substring(0, point);
        String fractionPart = point < 0 ? "" : t.substring(point + 1);
        int integerDigits = count(integerPart);
        int fractionDigits = count(fractionPart);
        if (integerDigits + fractionDigits == 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "to_char: the template '" + template
                    + "' has no digit positions (9 or 0)");
        }
        BigDecimal rounded;
        if (binary) {
            int integerLength = value.abs().setScale(0, RoundingMode.HALF_EVEN).toPlainString().length();
            int shown = integerLength >= DOUBLE_DIGITS ? 0 : Math.min(fractionDigits, DOUBLE_DIGITS - integerLength);
            rounded = value.abs().setScale(shown, RoundingMode.HALF_EVEN).setScale(fractionDigits);
        } else {
            rounded = value.abs().setScale(fractionDigits, RoundingMode.HALF_UP);
        }
        // What rounds to zero has no sign: -0.004 with '9.99' is .00, as in PostgreSQL.
        boolean negative = value.signum() < 0 && rounded.signum() != 0;
        String plain = rounded.toPlainString();
        int dot = plain.indexOf('.');
        String digits = dot < 0 ? plain : plain.substring(0, dot);
        String fraction = dot < 0 ? "" : plain.substring(dot + 1);
        if (digits.equals("0") && (fractionDigits > 0 || integerDigits == 0)) {
            digits = "";
        }
        boolean overflow = digits.length() > integerDigits;
        // PL shows a plus only: a minus still takes the place before the number.
        boolean plusOnly = containsIgnoreCase(t, "PL");
        boolean explicitSign = !anchoredPlus && (containsIgnoreCase(t, "S") || containsIgnoreCase(t, "MI"));
        StringBuilder out = new StringBuilder();
        // Where the sign's place is: before the number's first position (after text such as "Total:").
        boolean placed = explicitSign;
        int firstZero = firstZeroPosition(integerPart);
        int position = 0;
        int leading = integerDigits - digits.length();
        boolean printed = false;
        for (int i = 0; i < integerPart.length(); i++) {
            char c = integerPart.charAt(i);
            if (!placed && (c == '9' || c == '0' || c == ',' || c == 'G' || c == 'g')) {
                out.append('\u0000');
                placed = true;
            }
            if (c == '9' || c == '0') {
                if (overflow) {
                    out.append('#');
                } else if (position < leading) {
                    if (firstZero >= 0 && position >= firstZero) {
                        out.append('0');
                        printed = true;
                    } else if (!fill) {
                        out.append(' ');
                    }
                } else {
                    out.append(digits.charAt(position - leading));
                    printed = true;
                }
                position++;
            } else if (c == ',' || c == 'G' || c == 'g') {
                if (printed || overflow) {
                    out.append(',');
                } else if (!fill) {
                    out.append(' ');
                }
            } else {
                i = sign(integerPart, i, negative, fill, out);
            }
        }
        if (!placed) {
            out.append('\u0000');
        }
        if (!explicitSign) {
            // The minus (or a space) goes right before the first character of the number.
            int at = out.indexOf("\u0000");
            out.deleteCharAt(at);
            int first = at;
            while (first < out.length() && out.charAt(first) == ' ') {
                first++;
            }
            if (negative) {
                out.insert(first, '-');
            } else if (anchoredPlus) {
                out.insert(first, '+');
            } else if (!fill && !plusOnly) {
                out.insert(first, ' ');
            }
        }
        if (point >= 0) {
            out.append('.');
            StringBuilder tail = new StringBuilder();
            int f = 0;
            for (int i = 0; i < fractionPart.length(); i++) {
                char c = fractionPart.charAt(i);
                if (c == '9' || c == '0') {
                    tail.append(overflow ? '#' : fraction.charAt(f));
                    f++;
                } else {
                    i = sign(fractionPart, i, negative, fill, tail);
                }
            }
            if (fill && !overflow) {
                // FM drops the fraction's trailing zeros (those at 9 positions), as PostgreSQL does.
                int end = tail.length();
                while (end > 0 && tail.charAt(end - 1) == '0' && lastDigitIsNine(fractionPart, end)) {
                    end--;
                }
                tail.setLength(end);
            }
            out.append(tail);
        }
        return out.toString();
    }

    /** Appends what the template character at {@code i} stands for; returns the index of its last character. */
    private static int sign(String part, int i, boolean negative, boolean fill, StringBuilder out) {
        if (part.regionMatches(true, i, "MI", 0, 2)) {
            if (negative || !fill) {
                out.append(negative ? '-' : ' ');
            }
            return i + 1;
        }
        if (part.regionMatches(true, i, "PL", 0, 2)) {
            if (!negative || !fill) {
                out.append(negative ? ' ' : '+');
            }
            return i + 1;
        }
        if (part.regionMatches(true, i, "SG", 0, 2)) {
            out.append(negative ? '-' : '+');
            return i + 1;
        }
        char c = part.charAt(i);
        if (c == '"') {
            int end = part.indexOf('"', i + 1);
            out.append(part, i + 1, end);
            return end;
        }
        if (c == 'S' || c == 's') {
            out.append(negative ? '-' : '+');
        } else if (c == 'D' || c == 'd') {
            out.append('.');
        } else {
            out.append(c);
        }
        return i;
    }

    /**
     * Refuses the patterns PostgreSQL has that this does not (L, PR, V, EEEE, RN, TH, B, ...) by name, rather than
     * copying their letters into the text; quoted text is skipped.
     */
    private static void checkPatterns(String t, String template) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '"') {
                int end = t.indexOf('"', i + 1);
                if (end < 0) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "to_char: unterminated quoted text in"
                            + " template '" + template + "'");
                }
                i = end;
            } else if (Character.isLetter(c)) {
                String two = i + 1 < t.length() ? t.substring(i, i + 2).toUpperCase(Locale.ROOT) : "";
                if (two.equals("MI") || two.equals("PL") || two.equals("SG")) {
                    i++;
                } else if ("SDG".indexOf(Character.toUpperCase(c)) < 0) {
                    throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "to_char of a number: the pattern"
                            + " starting at '" + t.substring(i) + "' in '" + template + "' is not supported yet (9, 0,"
                            + " ., D, ',', G, S, SG, MI, PL, FM and quoted text are)");
                }
            }
        }
    }

    /** Where the decimal point is, outside quoted text; -1 for none. */
    private static int indexOfPoint(String t) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '"') {
                i = t.indexOf('"', i + 1);
                continue;
            }
            if (c == '.' || c == 'D' || c == 'd') {
                return i;
            }
        }
        return -1;
    }

    private static int count(String part) {
        int n = 0;
        for (int i = 0; i < part.length(); i++) {
            if (part.charAt(i) == '"') {
                i = part.indexOf('"', i + 1);
                continue;
            }
            n += part.charAt(i) == '9' || part.charAt(i) == '0' ? 1 : 0;
        }
        return n;
    }

    /** The digit position of the first 0 in the integer part (zeros are printed from there on), or -1. */
    private static int firstZeroPosition(String integerPart) {
        int position = 0;
        for (int i = 0; i < integerPart.length(); i++) {
            char c = integerPart.charAt(i);
            if (c == '"') {
                i = integerPart.indexOf('"', i + 1);
                continue;
            }
            if (c == '0') {
                return position;
            }
            position += c == '9' ? 1 : 0;
        }
        return -1;
    }

    /** Whether the fraction's digit position number {@code n} (1-based) is a 9. */
    private static boolean lastDigitIsNine(String fractionPart, int n) {
        int position = 0;
        for (int i = 0; i < fractionPart.length(); i++) {
            char c = fractionPart.charAt(i);
            if (c == '"') {
                i = fractionPart.indexOf('"', i + 1);
                continue;
            }
            if (c == '9' || c == '0') {
                position++;
                if (position == n) {
                    return c == '9';
                }
            }
        }
        return false;
    }

    private static boolean containsIgnoreCase(String t, String pattern) {
        for (int i = 0; i + pattern.length() <= t.length(); i++) {
            if (t.regionMatches(true, i, pattern, 0, pattern.length())) {
                return true;
            }
        }
        return false;
    }
}
