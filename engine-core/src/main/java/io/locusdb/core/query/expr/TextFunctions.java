package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.HexFormat;

/**
 * PostgreSQL's string functions beyond the standard's, as PostgreSQL defines them: lengths and positions count
 * characters (code points), not UTF-16 units; a negative count in {@code left}/{@code right} means "all but".
 */
public final class TextFunctions {
    private TextFunctions() {
    }

    /** The first {@code n} characters; for a negative {@code n}, all but the last {@code -n}. */
    public static String left(String s, long n) {
        int length = s.codePointCount(0, s.length());
        long keep = n >= 0 ? Math.min(n, length) : Math.max(0, length + n);
        return s.substring(0, s.offsetByCodePoints(0, (int) keep));
    }

    /** The last {@code n} characters; for a negative {@code n}, all but the first {@code -n}. */
    public static String right(String s, long n) {
        int length = s.codePointCount(0, s.length());
        long keep = n >= 0 ? Math.min(n, length) : Math.max(0, length + n);
        return s.substring(s.offsetByCodePoints(0, (int) (length - keep)));
    }

    /**
     * {@code lpad}/{@code rpad}: {@code s} filled to {@code length} characters with {@code fill} repeated (on the
     * left or the right), or cut to {@code length} when longer; an empty fill leaves a shorter text as it is.
     */
    public static String pad(String s, long length, String fill, boolean onTheLeft) {
        if (length <= 0) {
            return "";
        }
        int have = s.codePointCount(0, s.length());
        if (have >= length) {
            return s.substring(0, s.offsetByCodePoints(0, (int) length));
        }
        if (fill.isEmpty()) {
            return s;
        }
        if (length > Integer.MAX_VALUE / 4) {
            throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large: " + length);
        }
        int[] fillPoints = fill.codePoints().toArray();
        StringBuilder padding = new StringBuilder();
        for (long i = 0; i < length - have; i++) {
            padding.appendCodePoint(fillPoints[(int) (i % fillPoints.length)]);
        }
        return onTheLeft ? padding + s : s + padding;
    }

    /** {@code ltrim}/{@code rtrim}/{@code btrim}: the characters of {@code chars} removed from one or both ends. */
    public static String trim(String s, String chars, boolean leading, boolean trailing) {
        int start = 0;
        int end = s.length();
        while (leading && start < end && chars.indexOf(s.codePointAt(start)) >= 0) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (trailing && end > start && chars.indexOf(s.codePointBefore(end)) >= 0) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    public static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    /** The MD5 digest of the text's UTF-8 bytes, as 32 lower-case hexadecimal digits. */
    public static String md5(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(
                    s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    /** The character with code point {@code code}; 0 and values beyond Unicode are refused, as in PostgreSQL. */
    public static String chr(long code) {
        if (code == 0) {
            throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
        }
        if (code < 0 || code > Character.MAX_CODE_POINT || code >= Character.MIN_SURROGATE
                && code <= Character.MAX_SURROGATE) {
            throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested character not valid for"
                    + " encoding: " + code);
        }
        return Character.toString((int) code);
    }

    /** Where {@code sub} first starts in {@code s}, counted in characters from 1; 0 when it does not occur. */
    public static long strpos(String s, String sub) {
        int at = s.indexOf(sub);
        return at < 0 ? 0 : s.codePointCount(0, at) + 1;
    }

    /**
     * {@code overlay(s PLACING r FROM start [FOR count])}: {@code s} with its {@code count} characters from
     * {@code start} (1-based; {@code count} is {@code r}'s length when not given) replaced by {@code r}, as
     * PostgreSQL computes it: the text before {@code start}, then {@code r}, then the text from
     * {@code start + count}. A start below 1 or a negative count is refused.
     */
    public static String overlay(String s, String r, long start, Long count) {
        int[] chars = s.codePoints().toArray();
        long length = count != null ? count : r.codePointCount(0, r.length());
        if (start < 1 || length < 0) {
            // PostgreSQL takes a negative FOR (the text from before start follows r again); the result would be
            // longer than the type the planner gave it, the sum of both lengths.
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "OVERLAY needs FROM at least 1 and FOR at least"
                    + " 0, got FROM " + start + (count == null ? "" : " FOR " + count));
        }
        // Both clamped to the text's length before they are added: a FOR near Long.MAX_VALUE must not wrap.
        int before = (int) Math.min(chars.length, start - 1);
        int afterStart = (int) Math.min(chars.length, before + Math.min(length, chars.length));
        StringBuilder out = new StringBuilder();
        out.append(new String(chars, 0, before)).append(r);
        if (afterStart < chars.length) {
            out.append(new String(chars, afterStart, chars.length - afterStart));
        }
        return out.toString();
    }

    /** {@code concat(...)}: the non-NULL arguments one after the other; never NULL (empty when every one is). */
    public static String concat(Object[] args) {
        StringBuilder out = new StringBuilder();
        for (Object a : args) {
            if (a != null) {
                out.append(a);
            }
        }
        return out.toString();
    }

    /**
     * {@code concat_ws(separator, ...)}: the non-NULL arguments joined by the separator; NULL only when the separator
     * is.
     */
    public static String concatWithSeparator(Object[] args) {
        if (args[0] == null) {
            return null;
        }
        String separator = args[0].toString();
        StringBuilder out = new StringBuilder();
        boolean first = true;
        for (int i = 1; i < args.length; i++) {
            if (args[i] != null) {
                if (!first) {
                    out.append(separator);
                }
                out.append(args[i]);
                first = false;
            }
        }
        return out.toString();
    }

    /**
     * {@code translate(s, from, to)}: each character of {@code from} in {@code s} replaced by the character at the
     * same place in {@code to}, or removed where {@code to} is shorter; a character repeated in {@code from} counts
     * at its first place.
     */
    public static String translate(String s, String from, String to) {
        int[] source = from.codePoints().toArray();
        int[] target = to.codePoints().toArray();
        StringBuilder out = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            int at = -1;
            for (int i = 0; i < source.length; i++) {
                if (source[i] == c) {
                    at = i;
                    break;
                }
            }
            if (at < 0) {
                out.appendCodePoint(c);
            } else if (at < target.length) {
                out.appendCodePoint(target[at]);
            }
        });
        return out.toString();
    }

    /** Hexadecimal digits of an integer; a negative one as its two's complement in the argument's width. */
    public static String toHex(long value, boolean thirtyTwoBits) {
        return thirtyTwoBits ? Integer.toHexString((int) value) : Long.toHexString(value);
    }

    /** {@code make_date(year, month, day)} as an epoch day; a date that does not exist is refused (22008). */
    public static long makeDate(long year, long month, long day) {
        try {
            if (year == 0 || Math.abs(year) > 294_276) {
                throw new DateTimeException("year " + year);
            }
            // PostgreSQL counts years before 1 as BC (-1 is 1 BC, year 0 in ISO terms).
            return LocalDate.of(Math.toIntExact(year < 0 ? year + 1 : year), Math.toIntExact(month),
                    Math.toIntExact(day)).toEpochDay();
        } catch (DateTimeException | ArithmeticException e) {
            throw new LocusSqlException(SqlState.DATETIME_FIELD_OVERFLOW, "date field value out of range: " + year
                    + "-" + month + "-" + day);
        }
    }

    /** {@code repeat(s, n)}: {@code s} n times; nothing for n ≤ 0. */
    public static String repeat(String s, long n) {
        if (n <= 0 || s.isEmpty()) {
            return "";
        }
        if (n > Integer.MAX_VALUE / 4 / s.length()) {
            throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "requested length too large");
        }
        return s.repeat((int) n);
    }

    /** {@code initcap}: each word upper case first, the rest lower case (words: runs of letters and digits). */
    public static String initcap(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean inWord = false;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            out.appendCodePoint(inWord ? Character.toLowerCase(c) : Character.toUpperCase(c));
            inWord = Character.isLetterOrDigit(c);
            i += Character.charCount(c);
        }
        return out.toString();
    }

    /** {@code quote_literal}: the text as a SQL string literal, quotes doubled (and E'' where it holds a backslash). */
    public static String quoteLiteral(String s) {
        String quoted = "'" + s.replace("'", "''") + "'";
        return s.indexOf('\\') >= 0 ? "E" + quoted.replace("\\", "\\\\") : quoted;
    }
}
