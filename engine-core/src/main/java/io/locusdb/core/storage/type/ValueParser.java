package io.locusdb.core.storage.type;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Text → physical value, for loaders. Failures throw {@link ValueFormatException} with a reason a person can act
 * on; the loader adds file, line and column.
 */
public final class ValueParser {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private ValueParser() {
    }

    public static long powerOfTen(int exponent) {
        return POWERS_OF_TEN[exponent];
    }

    public static boolean parseBoolean(CharSequence text) {
        String t = text.toString().trim();
        return switch (t.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "t", "1", "yes", "y" -> true;
            case "false", "f", "0", "no", "n" -> false;
            default -> throw new ValueFormatException("'" + t + "' is not a BOOLEAN (true/false)");
        };
    }

    public static long parseInteger(CharSequence text, ColumnType type) {
        long value = parseLong(text, type);
        if (type.kind() == TypeKind.INTEGER && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            throw new ValueFormatException("'" + text + "' is out of range for INTEGER");
        }
        return value;
    }

    private static long parseLong(CharSequence text, ColumnType type) {
        int n = text.length();
        if (n == 0) {
            throw new ValueFormatException("empty text is not a number");
        }
        int i = 0;
        boolean negative = false;
        char first = text.charAt(0);
        if (first == '-' || first == '+') {
            negative = first == '-';
            i = 1;
            if (n == 1) {
                throw new ValueFormatException("'" + text + "' is not a number");
            }
        }
        long value = 0;
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new ValueFormatException("'" + text + "' is not " + (type.kind() == TypeKind.INTEGER
                        ? "an INTEGER" : "a " + type));
            }
            // Accumulate negatively so Long.MIN_VALUE parses; overflow checked per digit.
            if (value < (Long.MIN_VALUE + (c - '0')) / 10) {
                throw new ValueFormatException("'" + text + "' is out of range for " + type);
            }
            value = value * 10 - (c - '0');
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                throw new ValueFormatException("'" + text + "' is out of range for " + type);
            }
            value = -value;
        }
        return value;
    }

    public static double parseDouble(CharSequence text) {
        try {
            return Double.parseDouble(text.toString());
        } catch (NumberFormatException e) {
            throw new ValueFormatException("'" + text + "' is not a DOUBLE");
        }
    }

    /** DECIMAL text → value × 10^scale, exact: more fractional digits than the scale (unless zeros) and overflow fail. */
    public static long parseDecimal(CharSequence text, ColumnType type) {
        String t = text.toString();
        int i = 0;
        boolean negative = false;
        if (!t.isEmpty() && (t.charAt(0) == '-' || t.charAt(0) == '+')) {
            negative = t.charAt(0) == '-';
            i = 1;
        }
        int dot = t.indexOf('.', i);
        String integer = dot < 0 ? t.substring(i) : t.substring(i, dot);
        String fraction = dot < 0 ? "" : t.substring(dot + 1);
        if ((integer.isEmpty() && fraction.isEmpty()) || !allDigits(integer) || !allDigits(fraction)) {
            throw new ValueFormatException("'" + t + "' is not a " + type);
        }
        int scale = type.scale();
        if (fraction.length() > scale) {
            if (!fraction.substring(scale).chars().allMatch(c -> c == '0')) {
                throw new ValueFormatException("'" + t + "' has more than " + scale + " fractional digits for "
                        + type);
            }
            fraction = fraction.substring(0, scale);
        }
        String significant = integer.replaceFirst("^0+", "");
        if (significant.length() > type.precision() - scale) {
            throw new ValueFormatException("'" + t + "' is out of range for " + type);
        }
        long value = 0;
        for (int k = 0; k < significant.length(); k++) {
            value = value * 10 + (significant.charAt(k) - '0');
        }
        for (int k = 0; k < scale; k++) {
            value = value * 10 + (k < fraction.length() ? fraction.charAt(k) - '0' : 0);
        }
        return negative ? -value : value;
    }

    private static boolean allDigits(String s) {
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** ISO date (yyyy-mm-dd) → days since the epoch. */
    public static long parseDate(CharSequence text) {
        try {
            return LocalDate.parse(text).toEpochDay();
        } catch (DateTimeParseException e) {
            throw new ValueFormatException("'" + text + "' is not a DATE (expected yyyy-mm-dd)");
        }
    }

    /** Checks a string against its column: length in characters and no NUL characters. */
    public static String checkString(String text, ColumnType type) {
        if (type.kind() == TypeKind.CHAR) {
            // CHAR(n) compares as if blank-padded: kept without trailing blanks, so grouping, DISTINCT and LIKE
            // see one value for 'ab' and 'ab  '.
            int end = text.length();
            while (end > 0 && text.charAt(end - 1) == ' ') {
                end--;
            }
            text = text.substring(0, end);
        }
        if (text.indexOf('\0') >= 0) {
            throw new ValueFormatException("NUL character in text value (at character " + text.indexOf('\0') + ")");
        }
        if (type.length() > 0) {
            int chars = text.codePointCount(0, text.length());
            if (chars > type.length()) {
                throw new ValueFormatException("value of " + chars + " characters is longer than " + type);
            }
        }
        return text;
    }
}
