package io.locusdb.core.storage.load;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ValueParser;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * Parses fields straight from the bytes of a mapped file, without making a String per field: integers, decimals and
 * ISO dates have byte-level fast paths; strings are validated (UTF-8, no NUL, length) in place. Errors are the same
 * {@link ValueFormatException}s as {@link ValueParser}'s.
 */
final class ByteFieldParser {
    private ByteFieldParser() {
    }

    static String text(MemorySegment s, long from, long to) {
        byte[] bytes = s.asSlice(from, to - from).toArray(ValueLayout.JAVA_BYTE);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static long parseInteger(MemorySegment s, long from, long to, ColumnType type) {
        long n = to - from;
        if (n == 0 || n > 19) {
            return ValueParser.parseInteger(text(s, from, to), type);
        }
        long i = from;
        boolean negative = false;
        byte first = s.get(ValueLayout.JAVA_BYTE, i);
        if (first == '-' || first == '+') {
            negative = first == '-';
            i++;
            if (i == to) {
                return ValueParser.parseInteger(text(s, from, to), type);
            }
        }
        long value = 0;
        for (; i < to; i++) {
            int d = s.get(ValueLayout.JAVA_BYTE, i) - '0';
            if (d < 0 || d > 9) {
                return ValueParser.parseInteger(text(s, from, to), type); // produces the error message
            }
            value = value * 10 + d;
        }
        if (n == 19 && value < 0) {
            return ValueParser.parseInteger(text(s, from, to), type);
        }
        value = negative ? -value : value;
        if (type.kind() == TypeKind.INTEGER && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            throw new ValueFormatException("'" + text(s, from, to) + "' is out of range for INTEGER");
        }
        return value;
    }

    /** Fast path for plain {@code [-]digits[.digits]} within the type's scale; anything else goes the slow way. */
    static long parseDecimal(MemorySegment s, long from, long to, ColumnType type) {
        long i = from;
        boolean negative = false;
        if (i < to) {
            byte first = s.get(ValueLayout.JAVA_BYTE, i);
            if (first == '-' || first == '+') {
                negative = first == '-';
                i++;
            }
        }
        long value = 0;
        int integerDigits = 0;
        int fractionDigits = -1;
        boolean leading = true;
        int seen = 0;
        for (; i < to; i++) {
            byte b = s.get(ValueLayout.JAVA_BYTE, i);
            if (b == '.' && fractionDigits < 0) {
                fractionDigits = 0;
                continue;
            }
            int d = b - '0';
            if (d < 0 || d > 9) {
                return ValueParser.parseDecimal(text(s, from, to), type);
            }
            seen++;
            if (fractionDigits >= 0) {
                if (++fractionDigits > type.scale()) {
                    return ValueParser.parseDecimal(text(s, from, to), type);
                }
            } else if (!(leading && d == 0)) {
                leading = false;
                integerDigits++;
            }
            value = value * 10 + d;
        }
        int scaleDigits = Math.max(fractionDigits, 0);
        if (seen == 0 || integerDigits > type.precision() - type.scale()) {
            return ValueParser.parseDecimal(text(s, from, to), type);
        }
        value *= ValueParser.powerOfTen(type.scale() - scaleDigits);
        return negative ? -value : value;
    }

    static long parseDate(MemorySegment s, long from, long to) {
        if (to - from == 10 && s.get(ValueLayout.JAVA_BYTE, from + 4) == '-'
                && s.get(ValueLayout.JAVA_BYTE, from + 7) == '-') {
            int year = digits(s, from, 4);
            int month = digits(s, from + 5, 2);
            int day = digits(s, from + 8, 2);
            if (year >= 0 && month >= 0 && day >= 0) {
                try {
                    return LocalDate.of(year, month, day).toEpochDay();
                } catch (DateTimeException e) {
                    throw new ValueFormatException("'" + text(s, from, to) + "' is not a DATE (expected yyyy-mm-dd)");
                }
            }
        }
        return ValueParser.parseDate(text(s, from, to));
    }

    private static int digits(MemorySegment s, long from, int count) {
        int value = 0;
        for (int k = 0; k < count; k++) {
            int d = s.get(ValueLayout.JAVA_BYTE, from + k) - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    /**
     * Checks a string field in place: valid UTF-8, no NUL, at most the column's length in characters. Returns the
     * field's bytes as a slice (no copy).
     */
    static MemorySegment checkString(MemorySegment s, long from, long to, ColumnType type) {
        if (type.kind() == io.locusdb.core.storage.type.TypeKind.CHAR) {
            // CHAR values are kept without trailing blanks (see ValueParser.checkString).
            while (to > from && s.get(ValueLayout.JAVA_BYTE, to - 1) == ' ') {
                to--;
            }
        }
        if (to - from >= 1 << 22) {
            throw new ValueFormatException("a text value of " + (to - from)
                    + " bytes is too long (values must be smaller than 4 MiB)");
        }
        boolean ascii = true;
        long chars = 0;
        for (long i = from; i < to; i++) {
            byte b = s.get(ValueLayout.JAVA_BYTE, i);
            if (b == 0) {
                throw new ValueFormatException("NUL character in text value (at byte " + (i - from) + ")");
            }
            if (b < 0) {
                ascii = false;
            }
            if ((b & 0xC0) != 0x80) {
                chars++;
            }
        }
        MemorySegment slice = s.asSlice(from, to - from);
        if (!ascii) {
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(slice.asByteBuffer());
            } catch (CharacterCodingException e) {
                throw new ValueFormatException("text is not valid UTF-8");
            }
        }
        if (type.length() > 0 && chars > type.length()) {
            throw new ValueFormatException("value of " + chars + " characters is longer than " + type);
        }
        return slice;
    }

    static double parseDouble(MemorySegment s, long from, long to) {
        return ValueParser.parseDouble(text(s, from, to));
    }

    static boolean parseBoolean(MemorySegment s, long from, long to) {
        return ValueParser.parseBoolean(text(s, from, to));
    }
}
