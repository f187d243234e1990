package io.locusdb.core.query.planner;

import io.locusdb.core.query.expr.Arithmetic;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.Literal;
import io.locusdb.core.query.expr.Numerics;
import io.locusdb.core.query.expr.Retyped;
import io.locusdb.core.query.expr.RowFunction;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;

/**
 * Expressions over INTERVAL values ({@link Intervals}: microseconds or months in a long). Sums, differences,
 * negation and whole multiples are the engine's exact long arithmetic on that long; what leaves one family's unit
 * (a fraction of a month) is refused rather than approximated.
 */
final class IntervalArithmetic {
    private static final long MICROS_PER_HOUR = 3_600L * Timestamps.MICROS_PER_SECOND;
    private static final long MICROS_PER_MINUTE = 60L * Timestamps.MICROS_PER_SECOND;

    private IntervalArithmetic() {
    }

    /** {@code a + b} or {@code a - b} of two intervals of one family. */
    static Expr plusMinus(ColumnType type, Expr a, Expr b, boolean subtract) {
        return onLongs(type, subtract ? Arithmetic.Op.SUBTRACT : Arithmetic.Op.ADD, a, b);
    }

    static Expr negate(ColumnType type, Expr x) {
        return onLongs(type, Arithmetic.Op.SUBTRACT, new Literal(type, 0L), x);
    }

    /** {@code timestamp - timestamp}: the microseconds between them, as an interval of days and time. */
    static Expr difference(ColumnType type, Expr a, Expr b) {
        return onLongs(type, Arithmetic.Op.SUBTRACT, a, b);
    }

    /** {@code interval * number} (either order). */
    static Expr times(ColumnType type, Expr a, Expr b) {
        Expr interval = Intervals.isInterval(a.type().kind()) ? a : b;
        Expr factor = interval == a ? b : a;
        if (wholeNumber(factor.type())) {
            return onLongs(type, Arithmetic.Op.MULTIPLY, interval, ExprCompiler.cast(ColumnType.BIGINT, factor));
        }
        if (type.kind() == TypeKind.INTERVAL_YEAR_MONTH) {
            throw fraction("multiplying a year-month interval by a fraction");
        }
        return new RowFunction("INTERVAL_TIMES", type, List.of(interval, ExprCompiler.cast(ColumnType.DOUBLE,
                factor)), false, v -> roundedMicros((Long) v[0] * (Double) v[1]));
    }

    /** {@code interval / number}: rounded to the microsecond, as PostgreSQL does; by zero an error (22012). */
    static Expr divide(ColumnType type, Expr interval, Expr divisor) {
        if (!Intervals.isInterval(interval.type().kind())) {
            throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "dividing a number by an interval");
        }
        if (type.kind() == TypeKind.INTERVAL_YEAR_MONTH) {
            throw fraction("dividing a year-month interval");
        }
        if (wholeNumber(divisor.type())) {
            return new RowFunction("INTERVAL_DIVIDE", type, List.of(interval,
                    ExprCompiler.cast(ColumnType.BIGINT, divisor)), false, v -> {
                long n = (Long) v[0];
                long d = nonZero((Long) v[1]);
                return BigDecimal.valueOf(n).divide(BigDecimal.valueOf(d), 0, RoundingMode.HALF_UP).longValueExact();
            });
        }
        return new RowFunction("INTERVAL_DIVIDE", type, List.of(interval, ExprCompiler.cast(ColumnType.DOUBLE,
                divisor)), false, v -> {
            double d = (Double) v[1];
            if (d == 0) {
                throw divisionByZero();
            }
            return roundedMicros((Long) v[0] / d);
        });
    }

    /**
     * {@code timestamp ± interval} or {@code date ± interval} where the interval is computed (a constant one is
     * folded by the caller): months move the calendar date (the day clamped to the month's end), days and time move
     * the instant. A DATE moves by whole days only.
     */
    static Expr shift(ColumnType type, Expr datetime, Expr interval, boolean subtract) {
        long sign = subtract ? -1 : 1;
        boolean months = interval.type().kind() == TypeKind.INTERVAL_YEAR_MONTH;
        boolean timestamp = datetime.type().kind() == TypeKind.TIMESTAMP;
        if (timestamp && !months) {
            return new Retyped(type, new Arithmetic(ColumnType.BIGINT,
                    subtract ? Arithmetic.Op.SUBTRACT : Arithmetic.Op.ADD, new Retyped(ColumnType.BIGINT, datetime),
                    new Retyped(ColumnType.BIGINT, interval)));
        }
        if (timestamp) {
            return new RowFunction("TIMESTAMP_PLUS_MONTHS", type, List.of(datetime, interval), false,
                    v -> Timestamps.of(Timestamps.toLocalDateTime((Long) v[0]).plusMonths(sign * (Long) v[1])));
        }
        if (months) {
            return new RowFunction("DATE_PLUS_MONTHS", type, List.of(datetime, interval), false,
                    v -> LocalDate.ofEpochDay((Long) v[0]).plusMonths(sign * (Long) v[1]).toEpochDay());
        }
        return new RowFunction("DATE_PLUS_INTERVAL", type, List.of(datetime, interval), false, v -> {
            long micros = (Long) v[1];
            if (micros % Timestamps.MICROS_PER_DAY != 0) {
                throw new LocusSqlException(SqlState.INVALID_PARAMETER, "the interval "
                        + Intervals.text(TypeKind.INTERVAL_DAY_TIME, micros) + " is not a whole number of days:"
                        + " a DATE moves by days (cast it to TIMESTAMP to move it by hours, minutes or seconds)");
            }
            return Math.addExact((Long) v[0], sign * (micros / Timestamps.MICROS_PER_DAY));
        });
    }

    /**
     * {@code EXTRACT(field FROM interval)} as PostgreSQL reads an interval's fields: days and the time of day from a
     * days-and-time interval (whose whole days are split from the time, as its text shows them), years and months
     * from a year-month one, zero for the fields the family has not; EPOCH is the total in seconds (a month 30 days,
     * a year 365.25 days).
     */
    static Expr extract(ColumnType type, TimeUnitRange unit, Expr interval) {
        boolean months = interval.type().kind() == TypeKind.INTERVAL_YEAR_MONTH;
        return new RowFunction("EXTRACT", type, List.of(interval), false, v -> {
            long value = (Long) v[0];
            BigDecimal field = months ? monthField(unit, value) : timeField(unit, value);
            return switch (type.kind()) {
                case DOUBLE -> field.doubleValue();
                case DECIMAL -> field.setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue().longValueExact();
                default -> field.setScale(0, RoundingMode.DOWN).longValueExact();
            };
        });
    }

    private static BigDecimal monthField(TimeUnitRange unit, long months) {
        long years = months / 12;
        return switch (unit) {
            case YEAR -> BigDecimal.valueOf(years);
            case MONTH -> BigDecimal.valueOf(months % 12);
            case QUARTER -> BigDecimal.valueOf(months % 12 / 3 + 1);
            case DECADE -> BigDecimal.valueOf(years / 10);
            case CENTURY -> BigDecimal.valueOf(years / 100);
            case MILLENNIUM -> BigDecimal.valueOf(years / 1000);
            case EPOCH -> BigDecimal.valueOf(Intervals.epochSeconds(TypeKind.INTERVAL_YEAR_MONTH, months));
            case DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND -> BigDecimal.ZERO;
            default -> throw notAField(unit);
        };
    }

    private static BigDecimal timeField(TimeUnitRange unit, long micros) {
        long ofDay = micros % Timestamps.MICROS_PER_DAY;
        long ofMinute = micros % MICROS_PER_MINUTE;
        return switch (unit) {
            case DAY -> BigDecimal.valueOf(micros / Timestamps.MICROS_PER_DAY);
            case HOUR -> BigDecimal.valueOf(ofDay / MICROS_PER_HOUR);
            case MINUTE -> BigDecimal.valueOf(ofDay % MICROS_PER_HOUR / MICROS_PER_MINUTE);
            case SECOND -> BigDecimal.valueOf(ofMinute, 6);
            case MILLISECOND -> BigDecimal.valueOf(ofMinute, 3);
            case MICROSECOND -> BigDecimal.valueOf(ofMinute);
            case EPOCH -> BigDecimal.valueOf(micros, 6);
            case YEAR, MONTH, QUARTER, DECADE, CENTURY, MILLENNIUM -> BigDecimal.ZERO;
            default -> throw notAField(unit);
        };
    }

    private static LocusSqlException notAField(TimeUnitRange unit) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, "EXTRACT(" + unit + ") from an interval");
    }

    /** An interval operation as the same operation on the interval's long, overflow checked, read back as {@code type}. */
    private static Expr onLongs(ColumnType type, Arithmetic.Op op, Expr a, Expr b) {
        return new Retyped(type, new Arithmetic(ColumnType.BIGINT, op, new Retyped(ColumnType.BIGINT, a),
                new Retyped(ColumnType.BIGINT, b)));
    }

    private static boolean wholeNumber(ColumnType type) {
        return type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT
                || type.kind() == TypeKind.DECIMAL && type.scale() == 0;
    }

    private static long roundedMicros(double micros) {
        if (Double.isNaN(micros) || Math.abs(micros) >= 0x1p63) {
            throw Numerics.overflow();
        }
        return Math.round(micros);
    }

    private static long nonZero(long divisor) {
        if (divisor == 0) {
            throw divisionByZero();
        }
        return divisor;
    }

    private static LocusSqlException divisionByZero() {
        return new LocusSqlException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }

    private static LocusSqlException fraction(String what) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported: its months would"
                + " spill into days, and an interval here holds months or days and time, not both");
    }
}
