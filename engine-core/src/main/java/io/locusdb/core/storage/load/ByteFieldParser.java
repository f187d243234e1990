package io.locusdb.core.storage.load;

import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ValueParser;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Parses fields straight from the bytes of a mapped file, without making a String per field: integers, decimals and
 * ISO dates have byte-level fast paths; strings are validated (UTF-8, no NUL, length) in place. Errors are the same
 * {@link ValueFormatException}s as {@link ValueParser}'s.
 */
final class ByteFieldParser {
    private static final ValueLayout.OfLong LONG_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long DOTS = SwarBytes.broadcast((byte) '.');
    private static final ValueLayout.OfShort SHORT_LE =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ByteFieldParser() {
    }

    static String text(MemorySegment s, long from, long to) {
        byte[] bytes = s.asSlice(from, to - from).toArray(ValueLayout.JAVA_BYTE);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static long parseInteger(MemorySegment s, long from, long to, ColumnType type) {
        long n = to - from;
        if (n >= 1 && n <= Long.BYTES && from + Long.BYTES <= s.byteSize()) {
            // Up to 8 plain digits (keys, counts) in one read; at most 99,999,999, so within INTEGER too.
            long value = SwarBytes.parseDigits(s.get(LONG_LE, from), (int) n);
            if (value >= 0) {
                return value;
            }
        }
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
        long n = to - from;
        if (n >= 2 && n <= Long.BYTES && from + Long.BYTES <= s.byteSize()) {
            long fast = parseShortDecimal(s.get(LONG_LE, from), (int) n, type);
            if (fast >= 0) {
                return fast;
            }
        }
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

    /**
     * Up to 8 bytes of digits with at most one '.' (prices, rates, quantities), in one read: the dot is dropped
     * from the word and the digits are parsed together. Returns -1 for anything else (signs, exponents, too many
     * fraction digits, too many integer digits by count), which the general loop then parses or rejects.
     */
    private static long parseShortDecimal(long word, int n, ColumnType type) {
        long inField = -1L >>> ((Long.BYTES - n) << 3);
        long dots = SwarBytes.equalBytes(word, DOTS) & inField;
        int integerDigits = n;
        int fractionDigits = 0;
        long digits = word;
        int digitCount = n;
        if (dots != 0) {
            if ((dots & (dots - 1)) != 0) {
                return -1;
            }
            integerDigits = Long.numberOfTrailingZeros(dots) >>> 3;
            fractionDigits = n - 1 - integerDigits;
            long below = (1L << (integerDigits << 3)) - 1;
            digits = (word & below) | ((word >>> Byte.SIZE) & ~below);
            digitCount = n - 1;
        }
        if (fractionDigits > type.scale() || integerDigits > type.precision() - type.scale()) {
            return -1;
        }
        long value = SwarBytes.parseDigits(digits, digitCount);
        return value < 0 ? -1 : value * ValueParser.powerOfTen(type.scale() - fractionDigits);
    }

    static long parseDate(MemorySegment s, long from, long to) {
        if (to - from == 10) {
            // yyyy-mm-dd from two reads instead of ten: the bytes are taken apart in registers.
            long head = s.get(LONG_LE, from);
            long tail = s.get(SHORT_LE, from + 8);
            int y0 = digitAt(head, 0);
            int y1 = digitAt(head, 1);
            int y2 = digitAt(head, 2);
            int y3 = digitAt(head, 3);
            int m0 = digitAt(head, 5);
            int m1 = digitAt(head, 6);
            int d0 = digitAt(tail, 0);
            int d1 = digitAt(tail, 1);
            boolean dashes = ((head >>> 32) & 0xFF) == '-' && ((head >>> 56) & 0xFF) == '-';
            // A non-digit byte gives a value outside 0..9, which sets a bit above the low four of some digit or
            // is one of 10..15.
            boolean digits = ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) & ~0xF) == 0 && y0 < 10 && y1 < 10 && y2 < 10
                    && y3 < 10 && m0 < 10 && m1 < 10 && d0 < 10 && d1 < 10;
            if (dashes && digits) {
                int year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
                int month = m0 * 10 + m1;
                int day = d0 * 10 + d1;
                if (month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month)) {
                    throw new ValueFormatException("'" + text(s, from, to) + "' is not a DATE (expected yyyy-mm-dd)");
                }
                return epochDay(year, month, day);
            }
        }
        return ValueParser.parseDate(text(s, from, to));
    }

    /** Byte {@code index} of a little-endian word as a digit: '0'..'9' give 0..9, other bytes something else. */
    private static int digitAt(long word, int index) {
        return ((int) (word >>> (index << 3)) & 0xFF) - '0';
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /**
     * Days since 1970-01-01 of a valid proleptic Gregorian date (what {@code LocalDate.toEpochDay} gives), without
     * making a LocalDate per field: counts from March, so the leap day ends the year (H. Hinnant's days_from_civil).
     */
    static long epochDay(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yearOfEra = y - era * 400;
        int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return (long) era * 146097 + dayOfEra - 719468;
    }


    /**
     * Checks a string field in place: valid UTF-8, no NUL, at most the column's length in characters. Returns the
     * field's end (CHAR values lose their trailing blanks); the bytes are not copied.
     */
    static long checkString(MemorySegment s, long from, long to, ColumnType type) {
        return checkString(s, from, to, type, false);
    }

    /**
     * Like {@link #checkString(MemorySegment, long, long, ColumnType)}; {@code plainAscii} says the caller saw
     * every byte of the field already and none was NUL or above 0x7F, so only lengths are left to check.
     */
    static long checkString(MemorySegment s, long from, long to, ColumnType type, boolean plainAscii) {
        if (type.kind() == TypeKind.CHAR) {
            // CHAR values are kept without trailing blanks (see ValueParser.checkString).
            while (to > from && s.get(ValueLayout.JAVA_BYTE, to - 1) == ' ') {
                to--;
            }
        }
        if (to - from >= 1 << 22) {
            throw new ValueFormatException("a text value of " + (to - from)
                    + " bytes is too long (values must be smaller than 4 MiB)");
        }
        // Eight bytes at a time while they are plain ASCII without NUL, the common case; byte by byte after.
        long i = plainAscii ? to : from;
        while (i + Long.BYTES <= to) {
            long word = s.get(LONG_LE, i);
            if ((word & HIGH_BITS) != 0 || SwarBytes.hasZeroByte(word)) {
                break;
            }
            i += Long.BYTES;
        }
        boolean ascii = true;
        long chars = i - from;
        for (; i < to; i++) {
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
        if (!ascii) {
            try {
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(s.asSlice(from, to - from)
                                .asByteBuffer());
            } catch (CharacterCodingException e) {
                throw new ValueFormatException("text is not valid UTF-8");
            }
        }
        if (type.length() > 0 && chars > type.length()) {
            throw new ValueFormatException("value of " + chars + " characters is longer than " + type);
        }
        return to;
    }

    static double parseDouble(MemorySegment s, long from, long to) {
        return ValueParser.parseDouble(text(s, from, to));
    }

    static boolean parseBoolean(MemorySegment s, long from, long to) {
        return ValueParser.parseBoolean(text(s, from, to));
    }
}
