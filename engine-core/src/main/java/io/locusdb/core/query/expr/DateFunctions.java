package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.vector.ColumnVector;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;
import java.util.Locale;

/** EXTRACT from dates and timestamps, date_trunc, and date or timestamp ± interval. */
public final class DateFunctions {
    private DateFunctions() {
    }

    public enum Field {
        YEAR, QUARTER, MONTH, WEEK, DAY, DOW, DOY, DECADE, CENTURY, MILLENNIUM, EPOCH, HOUR, MINUTE, SECOND,
        MILLISECOND, MICROSECOND, ISODOW, ISOYEAR
    }

    /**
     * PostgreSQL's {@code date_trunc(unit, date)} on a DATE (epoch days): the first day of its millennium, century,
     * decade, year, quarter, month or ISO week (a Monday), or the day itself for {@code day}; units are
     * case-insensitive, as in PostgreSQL. Units below a day are refused: a DATE has none.
     */
    public static long truncate(String unit, long epochDay) {
        LocalDate d = LocalDate.ofEpochDay(epochDay);
        LocalDate t = switch (unit.strip().toLowerCase(Locale.ROOT)) {
            case "millennium", "millennia" -> LocalDate.of((d.getYear() - 1) / 1000 * 1000 + 1, 1, 1);
            case "century", "centuries" -> LocalDate.of((d.getYear() - 1) / 100 * 100 + 1, 1, 1);
            case "decade", "decades" -> LocalDate.of(d.getYear() / 10 * 10, 1, 1);
            case "year", "years" -> d.withDayOfYear(1);
            case "quarter", "quarters" -> LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1);
            case "month", "months" -> d.withDayOfMonth(1);
            case "week", "weeks" -> d.minusDays(d.getDayOfWeek().getValue() - 1);
            case "day", "days" -> d;
            case "hour", "hours", "minute", "minutes", "second", "seconds", "millisecond", "milliseconds",
                 "microsecond", "microseconds" -> throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED,
                    "date_trunc('" + unit + "', date): a DATE has no time of day (cast it to TIMESTAMP)");
            default -> throw new LocusSqlException(SqlState.INVALID_PARAMETER, "date_trunc: unit '" + unit
                    + "' not recognized (millennium, century, decade, year, quarter, month, week or day)");
        };
        return t.toEpochDay();
    }

    /**
     * PostgreSQL's {@code date_trunc(unit, timestamp)}: the timestamp cut to the start of its microsecond,
     * millisecond, second, minute, hour, day, ISO week or any longer unit {@link #truncate} knows.
     */
    public static long truncateTimestamp(String unit, long micros) {
        long step = switch (unit.strip().toLowerCase(Locale.ROOT)) {
            case "microsecond", "microseconds" -> 1;
            case "millisecond", "milliseconds" -> 1_000;
            case "second", "seconds" -> Timestamps.MICROS_PER_SECOND;
            case "minute", "minutes" -> 60 * Timestamps.MICROS_PER_SECOND;
            case "hour", "hours" -> 3_600 * Timestamps.MICROS_PER_SECOND;
            default -> 0;
        };
        if (step > 0) {
            return Math.floorDiv(micros, step) * step;
        }
        return Timestamps.ofDate(truncate(unit, Timestamps.dateOf(micros)));
    }

    /**
     * DuckDB's {@code date_diff(unit, start, end)}: how many unit boundaries lie between two timestamps (from
     * {@code 23:59} to {@code 00:01} of the next day is one day and one hour).
     */
    public static long difference(String unit, long start, long end) {
        String u = unit.strip().toLowerCase(Locale.ROOT);
        long step = switch (u) {
            case "microsecond", "microseconds", "us" -> 1;
            case "millisecond", "milliseconds", "ms" -> 1_000;
            case "second", "seconds", "s" -> Timestamps.MICROS_PER_SECOND;
            case "minute", "minutes", "m" -> 60 * Timestamps.MICROS_PER_SECOND;
            case "hour", "hours", "h" -> 3_600 * Timestamps.MICROS_PER_SECOND;
            case "day", "days", "d" -> Timestamps.MICROS_PER_DAY;
            default -> 0;
        };
        if (step > 0) {
            return Math.floorDiv(end, step) - Math.floorDiv(start, step);
        }
        LocalDate a = LocalDate.ofEpochDay(Timestamps.dateOf(start));
        LocalDate b = LocalDate.ofEpochDay(Timestamps.dateOf(end));
        long months = (b.getYear() * 12L + b.getMonthValue()) - (a.getYear() * 12L + a.getMonthValue());
        return switch (u) {
            case "month", "months", "mon" -> months;
            case "quarter", "quarters" -> (b.getYear() * 4L + (b.getMonthValue() - 1) / 3)
                    - (a.getYear() * 4L + (a.getMonthValue() - 1) / 3);
            case "year", "years", "y" -> b.getYear() - a.getYear();
            case "decade", "decades" -> Math.floorDiv(b.getYear(), 10) - Math.floorDiv(a.getYear(), 10);
            case "century", "centuries" -> Math.floorDiv(b.getYear(), 100) - Math.floorDiv(a.getYear(), 100);
            default -> throw new LocusSqlException(SqlState.INVALID_PARAMETER, "date_diff: unit '" + unit
                    + "' not recognized (microsecond to century)");
        };
    }

    /** An expression of one long-valued input (a date or a timestamp), computed value by value; NULL stays NULL. */
    private abstract static class OfOneLong extends Expr {
        final Expr input;

        OfOneLong(ColumnType type, Expr input) {
            super(type);
            this.input = input;
        }

        abstract long apply(long value);

        @Override
        public final ColumnVector eval(ColumnVector[] inputs, int rows) {
            ColumnVector v = input.eval(inputs, rows);
            ColumnVector out = out(rows);
            long[] values = v.longs();
            long[] r = out.longs();
            for (int i = 0; i < rows; i++) {
                if (v.isNull(i)) {
                    out.setNull(i);
                } else {
                    r[i] = apply(values[i]);
                }
            }
            return out;
        }
    }

    public static final class Extract extends OfOneLong {
        private final Field field;
        private final boolean timestamp;

        public Extract(ColumnType type, Field field, Expr input) {
            super(type, input);
            this.field = field;
            this.timestamp = input.type().kind() == TypeKind.TIMESTAMP;
        }

        @Override
        long apply(long value) {
            return timestamp ? extractFromTimestamp(field, value) : extract(field, value);
        }

        /**
         * A field of a timestamp (microseconds): those of its date, its time of day's hour and minute, SECOND as whole
         * seconds, MILLISECOND and MICROSECOND including the seconds (PostgreSQL's and DuckDB's rule: 7.25 s is
         * 7250 ms), EPOCH as whole seconds.
         */
        static long extractFromTimestamp(Field field, long micros) {
            long ofDay = Math.floorMod(micros, Timestamps.MICROS_PER_DAY);
            long ofMinute = ofDay % (60 * Timestamps.MICROS_PER_SECOND);
            return switch (field) {
                case EPOCH -> Math.floorDiv(micros, Timestamps.MICROS_PER_SECOND);
                case HOUR -> ofDay / (3_600 * Timestamps.MICROS_PER_SECOND);
                case MINUTE -> ofDay / (60 * Timestamps.MICROS_PER_SECOND) % 60;
                case SECOND -> ofMinute / Timestamps.MICROS_PER_SECOND;
                case MILLISECOND -> ofMinute / 1_000;
                case MICROSECOND -> ofMinute;
                default -> extract(field, Timestamps.dateOf(micros));
            };
        }

        static long extract(Field field, long epochDay) {
            if (field == Field.EPOCH) {
                return epochDay * 86_400L;
            }
            LocalDate d = LocalDate.ofEpochDay(epochDay);
            return switch (field) {
                case YEAR -> d.getYear();
                case QUARTER -> (d.getMonthValue() - 1) / 3 + 1;
                case MONTH -> d.getMonthValue();
                case WEEK -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
                case DAY -> d.getDayOfMonth();
                // SQL's DOW: Sunday 0 .. Saturday 6 (PostgreSQL and DuckDB agree).
                case DOW -> d.getDayOfWeek().getValue() % 7;
                // ISO's: Monday 1 .. Sunday 7, and the year its weeks belong to (1 January may be in the last one's).
                case ISODOW -> d.getDayOfWeek().getValue();
                case ISOYEAR -> d.get(IsoFields.WEEK_BASED_YEAR);
                case DOY -> d.get(ChronoField.DAY_OF_YEAR);
                case DECADE -> Math.floorDiv(d.getYear(), 10);
                case CENTURY -> d.getYear() > 0 ? (d.getYear() + 99) / 100 : -((99 - d.getYear()) / 100);
                case MILLENNIUM -> d.getYear() > 0 ? (d.getYear() + 999) / 1000 : -((999 - d.getYear()) / 1000);
                // A DATE is midnight.
                case HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND -> 0;
                case EPOCH -> throw new IllegalStateException();
            };
        }

        @Override
        protected Expr copy(ExprCopier copier) {
            return new Extract(type, field, copier.copy(input));
        }

        @Override
        public String toString() {
            return "EXTRACT(" + field + " FROM " + input + ")";
        }
    }

    /** date + days, or date + months (end-of-month days clamp, as in SQL engines generally). */
    public static final class PlusInterval extends OfOneLong {
        private final long days;
        private final long months;

        public PlusInterval(Expr date, long days, long months) {
            super(ColumnType.DATE, date);
            this.days = days;
            this.months = months;
        }

        @Override
        long apply(long day) {
            return (months != 0 ? LocalDate.ofEpochDay(day).plusMonths(months).toEpochDay() : day) + days;
        }

        @Override
        protected Expr copy(ExprCopier copier) {
            return new PlusInterval(copier.copy(input), days, months);
        }

        @Override
        public String toString() {
            return input + (months != 0 ? " + INTERVAL '" + months + "' MONTH" : "")
                    + (days != 0 || months == 0 ? " + INTERVAL '" + days + "' DAY" : "");
        }
    }

    /** timestamp + microseconds, or timestamp + months (the day clamps to the month's end; the time stays). */
    public static final class TimestampPlusInterval extends OfOneLong {
        private final long micros;
        private final long months;

        public TimestampPlusInterval(Expr timestamp, long micros, long months) {
            super(ColumnType.TIMESTAMP, timestamp);
            this.micros = micros;
            this.months = months;
        }

        @Override
        long apply(long value) {
            try {
                return Timestamps.checked(Math.addExact(Timestamps.plusMonths(value, months), micros), "");
            } catch (ArithmeticException | IllegalArgumentException | DateTimeException e) {
                throw new LocusSqlException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
            }
        }

        @Override
        protected Expr copy(ExprCopier copier) {
            return new TimestampPlusInterval(copier.copy(input), micros, months);
        }

        @Override
        public String toString() {
            return input + (months != 0 ? " + INTERVAL '" + months + "' MONTH" : "")
                    + (micros != 0 || months == 0 ? " + INTERVAL '" + micros + "' MICROSECOND" : "");
        }
    }
}
