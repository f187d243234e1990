package io.locusdb.core.sql;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's interval literals with the units inside the quotes ({@code INTERVAL '3 days'}, {@code INTERVAL
 * '1 year 2 months'}, {@code INTERVAL '1 day 02:30:00'}, {@code INTERVAL '1.5 hours'}, {@code INTERVAL '2 weeks
 * ago'}), which is how most people write them, in the standard's form that the parser reads. One quantity of one
 * unit keeps that unit ({@code INTERVAL '3' DAY}); several, or a fraction, become the total in the family's form
 * ({@code INTERVAL '1 02:30:00' DAY(9) TO SECOND(6)}, {@code INTERVAL '14' MONTH(9)}). Years and months together with
 * days or time have no single value in LocusDB's intervals and are refused, naming the literal. A literal followed
 * by the standard's qualifier ({@code INTERVAL '3' DAY}) is left as it is. The text keeps its length where the
 * standard form is not longer, so that error positions still point into what the user wrote.
 */
final class IntervalLiterals {
    private static final Pattern LITERAL = Pattern.compile("\\binterval\\s+'([^']*)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern QUALIFIER = Pattern.compile("\\s*(year|month|day|hour|minute|second)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern QUANTITY = Pattern.compile(
            "\\s*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))\\s*([a-z]+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern CLOCK = Pattern.compile("\\s*([+-])?(\\d+):(\\d{1,2})(?::(\\d{1,2}(?:\\.\\d+)?))?");
    private static final Pattern AGO = Pattern.compile("\\s*ago", Pattern.CASE_INSENSITIVE);

    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long SECONDS_PER_DAY = 86_400L;

    private IntervalLiterals() {
    }

    static String rewrite(String sql) {
        if (sql.indexOf('\'') < 0) {
            return sql;
        }
        Matcher m = LITERAL.matcher(sql);
        if (!m.find()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int from = 0;
        do {
            if (QUALIFIER.matcher(sql).region(m.end(), sql.length()).lookingAt()) {
                continue;
            }
            String standard = standard(m.group(1));
            if (standard == null) {
                continue;
            }
            out.append(sql, from, m.start()).append(standard);
            out.append(" ".repeat(Math.max(0, m.end() - m.start() - standard.length())));
            from = m.end();
        } while (m.find());
        return out.append(sql, from, sql.length()).toString();
    }

    /** The standard form of PostgreSQL interval text, or null where it is not that (left to the parser). */
    private static String standard(String text) {
        BigDecimal months = BigDecimal.ZERO;
        BigDecimal seconds = BigDecimal.ZERO;
        int quantities = 0;
        String singleUnit = null;
        BigDecimal singleAmount = null;
        boolean fraction = false;
        int at = 0;
        boolean clockSeen = false;
        boolean ago = false;
        while (at < text.length() && !text.substring(at).isBlank()) {
            Matcher clock = CLOCK.matcher(text).region(at, text.length());
            Matcher quantity = QUANTITY.matcher(text).region(at, text.length());
            Matcher agoWord = AGO.matcher(text).region(at, text.length());
            if (!clockSeen && clock.lookingAt()) {
                BigDecimal total = new BigDecimal(clock.group(2)).multiply(BigDecimal.valueOf(3600))
                        .add(new BigDecimal(clock.group(3)).multiply(BigDecimal.valueOf(60)))
                        .add(clock.group(4) == null ? BigDecimal.ZERO : new BigDecimal(clock.group(4)));
                seconds = seconds.add("-".equals(clock.group(1)) ? total.negate() : total);
                clockSeen = true;
                quantities += 2;
                at = clock.end();
            } else if (quantity.lookingAt()) {
                BigDecimal amount = new BigDecimal(quantity.group(1));
                String unit = unit(quantity.group(2));
                if (unit == null) {
                    return null;
                }
                fraction |= amount.stripTrailingZeros().scale() > 0;
                switch (unit) {
                    case "YEAR" -> months = months.add(amount.multiply(BigDecimal.valueOf(12)));
                    case "MONTH" -> months = months.add(amount);
                    case "WEEK" -> seconds = seconds.add(amount.multiply(BigDecimal.valueOf(7 * SECONDS_PER_DAY)));
                    case "DAY" -> seconds = seconds.add(amount.multiply(BigDecimal.valueOf(SECONDS_PER_DAY)));
                    case "HOUR" -> seconds = seconds.add(amount.multiply(BigDecimal.valueOf(3600)));
                    case "MINUTE" -> seconds = seconds.add(amount.multiply(BigDecimal.valueOf(60)));
                    case "SECOND" -> seconds = seconds.add(amount);
                    case "MILLISECOND" -> seconds = seconds.add(amount.movePointLeft(3));
                    default -> seconds = seconds.add(amount.movePointLeft(6));
                }
                quantities++;
                singleUnit = unit;
                singleAmount = amount;
                at = quantity.end();
            } else if (quantities > 0 && agoWord.lookingAt()) {
                ago = true;
                at = agoWord.end();
            } else {
                return null;
            }
        }
        if (quantities == 0) {
            return null;
        }
        if (ago) {
            months = months.negate();
            seconds = seconds.negate();
            singleAmount = singleAmount == null ? null : singleAmount.negate();
        }
        if (months.signum() != 0 && seconds.signum() != 0) {
            throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "INTERVAL '" + text + "' mixes years or"
                    + " months with days or time: LocusDB's intervals hold one or the other; add two intervals"
                    + " (INTERVAL '1 month' + INTERVAL '2 days') to a date or timestamp instead");
        }
        if (quantities == 1 && !fraction && !"WEEK".equals(singleUnit) && !"MILLISECOND".equals(singleUnit)
                && !"MICROSECOND".equals(singleUnit)) {
            return "INTERVAL '" + singleAmount.toBigInteger() + "' " + singleUnit;
        }
        if (months.signum() != 0) {
            if (months.stripTrailingZeros().scale() > 0) {
                throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "INTERVAL '" + text + "' is not a"
                        + " whole number of months: LocusDB's year-month intervals hold whole months");
            }
            return "INTERVAL '" + months.toBigInteger() + "' MONTH(9)";
        }
        return "INTERVAL '" + dayToSecond(seconds) + "' DAY(9) TO SECOND(6)";
    }

    /** {@code [-]D HH:MM:SS.ffffff} for a number of seconds (rounded to the microsecond). */
    private static String dayToSecond(BigDecimal seconds) {
        long micros;
        try {
            micros = seconds.movePointRight(6).setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw new LocusSqlException(SqlState.DATETIME_FIELD_OVERFLOW, "interval out of range: " + seconds
                    + " seconds");
        }
        String sign = micros < 0 ? "-" : "";
        long abs = Math.abs(micros);
        long totalSeconds = abs / MICROS_PER_SECOND;
        return String.format(Locale.ROOT, "%s%d %02d:%02d:%02d.%06d", sign, totalSeconds / SECONDS_PER_DAY,
                totalSeconds % SECONDS_PER_DAY / 3600, totalSeconds % 3600 / 60, totalSeconds % 60,
                abs % MICROS_PER_SECOND);
    }

    /** PostgreSQL's unit words and abbreviations, as the standard's unit (or WEEK, MILLISECOND, MICROSECOND). */
    private static String unit(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "y", "yr", "yrs", "year", "years" -> "YEAR";
            case "mon", "mons", "month", "months" -> "MONTH";
            case "w", "week", "weeks" -> "WEEK";
            case "d", "day", "days" -> "DAY";
            case "h", "hr", "hrs", "hour", "hours" -> "HOUR";
            case "m", "min", "mins", "minute", "minutes" -> "MINUTE";
            case "s", "sec", "secs", "second", "seconds" -> "SECOND";
            case "ms", "msec", "msecs", "millisecond", "milliseconds" -> "MILLISECOND";
            case "us", "usec", "usecs", "microsecond", "microseconds" -> "MICROSECOND";
            default -> null;
        };
    }
}
