package io.locusdb.core.query.expr;

import io.locusdb.core.vector.ColumnVector;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import java.time.LocalDate;
import java.util.Locale;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;

/** EXTRACT from dates, and date ± interval. */
public final class DateFunctions {
    private DateFunctions() {
    }

    public enum Field {
        YEAR, QUARTER, MONTH, WEEK, DAY, DOW, DOY, DECADE, CENTURY, MILLENNIUM, EPOCH
    }

    /** EXTRACT(field FROM date) as BIGINT. */
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
            case "hour", "minute", "second", "milliseconds", "microseconds" -> throw new LocusSqlException(
                    SqlState.FEATURE_NOT_SUPPORTED, "date_trunc('" + unit + "', date): LocusDB's DATE has no time of"
                    + " day (there is no TIMESTAMP yet)");
            default -> throw new LocusSqlException(SqlState.INVALID_PARAMETER, "date_trunc: unit '" + unit
                    + "' not recognized (millennium, century, decade, year, quarter, month, week or day)");
        };
        return t.toEpochDay();
    }

    public static final class Extract extends Expr {
        private final Field field;
        private final Expr input;

        public Extract(ColumnType type, Field field, Expr input) {
            super(type);
            this.field = field;
            this.input = input;
        }

        @Override
        public ColumnVector eval(ColumnVector[] inputs, int rows) {
            ColumnVector v = input.eval(inputs, rows);
            ColumnVector out = out(rows);
            long[] days = v.longs();
            long[] r = out.longs();
            for (int i = 0; i < rows; i++) {
                if (v.isNull(i)) {
                    out.setNull(i);
                } else {
                    r[i] = extract(field, days[i]);
                }
            }
            return out;
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
                case DOY -> d.get(ChronoField.DAY_OF_YEAR);
                case DECADE -> Math.floorDiv(d.getYear(), 10);
                case CENTURY -> d.getYear() > 0 ? (d.getYear() + 99) / 100 : -((99 - d.getYear()) / 100);
                case MILLENNIUM -> d.getYear() > 0 ? (d.getYear() + 999) / 1000 : -((999 - d.getYear()) / 1000);
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
    public static final class PlusInterval extends Expr {
        private final Expr date;
        private final long days;
        private final long months;

        public PlusInterval(Expr date, long days, long months) {
            super(ColumnType.DATE);
            this.date = date;
            this.days = days;
            this.months = months;
        }

        @Override
        public ColumnVector eval(ColumnVector[] inputs, int rows) {
            ColumnVector v = date.eval(inputs, rows);
            ColumnVector out = out(rows);
            long[] d = v.longs();
            long[] r = out.longs();
            for (int i = 0; i < rows; i++) {
                if (v.isNull(i)) {
                    out.setNull(i);
                } else {
                    long day = d[i];
                    if (months != 0) {
                        day = LocalDate.ofEpochDay(day).plusMonths(months).toEpochDay();
                    }
                    r[i] = day + days;
                }
            }
            return out;
        }

        @Override
        protected Expr copy(ExprCopier copier) {
            return new PlusInterval(copier.copy(date), days, months);
        }

        @Override
        public String toString() {
            return date + (months != 0 ? " + INTERVAL '" + months + "' MONTH" : "")
                    + (days != 0 || months == 0 ? " + INTERVAL '" + days + "' DAY" : "");
        }
    }
}
