package io.locusdb.core.query.expr;

import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * CAST between LocusDB's types. Exact numbers convert with rounding half away from zero (to integers and to a
 * smaller scale), doubles to integers with rounding half to even (as PostgreSQL and DuckDB do: 2.5 becomes 2); values that do not fit are an error (22003); strings that do not parse as the target type are an error
 * (22018) naming the value.
 */
public final class Cast extends Expr {
    private final Expr input;
    /** The session's zone, for casts between TIMESTAMP WITH TIME ZONE and text, TIMESTAMP or DATE; else null. */
    private final ZoneId zone;

    /** A cast in the session's time zone (asked for only when the cast needs one). */
    public Cast(ColumnType type, Expr input) {
        this(type, input, needsZone(input.type().kind(), type.kind()) ? SessionTimeZone.get() : null);
    }

    private Cast(ColumnType type, Expr input, ZoneId zone) {
        super(type);
        this.input = input;
        this.zone = zone;
    }

    /** Whether a cast reads or shows wall-clock time of an instant: to or from TIMESTAMP WITH TIME ZONE. */
    static boolean needsZone(TypeKind from, TypeKind to) {
        return from != to && (from == TypeKind.TIMESTAMP_TZ || to == TypeKind.TIMESTAMP_TZ);
    }

    @Override
    public ColumnVector eval(ColumnVector[] inputs, int rows) {
        ColumnVector v = input.eval(inputs, rows);
        ColumnType from = input.type();
        ColumnVector out = out(rows);
        for (int i = 0; i < rows; i++) {
            if (v.isNull(i)) {
                out.setNull(i);
                continue;
            }
            convert(v, i, from, out);
        }
        return out;
    }

    private void convert(ColumnVector v, int i, ColumnType from, ColumnVector out) {
        TypeKind to = type.kind();
        if (Intervals.isInterval(from.kind()) && to != TypeKind.VARCHAR && to != TypeKind.CHAR && to != from.kind()) {
            throw cannot(from);
        }
        switch (to) {
            case VARCHAR, CHAR -> {
                String s = format(v, i, from);
                if (to == TypeKind.CHAR && s.length() > type.length()) {
                    s = s.substring(0, type.length());
                } else if (to == TypeKind.VARCHAR && type.length() > 0 && s.length() > type.length()) {
                    s = s.substring(0, type.length());
                }
                out.setString(i, s);
            }
            case DOUBLE -> out.setDouble(i, from.physical() == TypeKind.Physical.STRING
                    ? parseDouble(v.string(i)) : Numerics.asDouble(v, i));
            case DATE -> {
                if (from.kind() == TypeKind.DATE) {
                    out.setLong(i, v.longs()[i]);
                } else if (from.kind() == TypeKind.TIMESTAMP) {
                    out.setLong(i, Timestamps.dateOf(v.longs()[i]));
                } else if (from.kind() == TypeKind.TIMESTAMP_TZ) {
                    out.setLong(i, Timestamps.dateOf(ZonedTimestamps.toLocal(v.longs()[i], zone)));
                } else if (from.physical() == TypeKind.Physical.STRING) {
                    out.setLong(i, parseDate(v.string(i)));
                } else {
                    throw cannot(from);
                }
            }
            case TIMESTAMP -> {
                if (from.kind() == TypeKind.TIMESTAMP) {
                    out.setLong(i, v.longs()[i]);
                } else if (from.kind() == TypeKind.DATE) {
                    out.setLong(i, Timestamps.ofDate(v.longs()[i]));
                } else if (from.kind() == TypeKind.TIMESTAMP_TZ) {
                    out.setLong(i, ZonedTimestamps.toLocal(v.longs()[i], zone));
                } else if (from.physical() == TypeKind.Physical.STRING) {
                    out.setLong(i, parseTimestamp(v.string(i)));
                } else {
                    throw cannot(from);
                }
            }
            case TIMESTAMP_TZ -> {
                if (from.kind() == TypeKind.TIMESTAMP_TZ) {
                    out.setLong(i, v.longs()[i]);
                } else if (from.kind() == TypeKind.TIMESTAMP) {
                    out.setLong(i, instant(v.longs()[i], from));
                } else if (from.kind() == TypeKind.DATE) {
                    out.setLong(i, instant(Timestamps.ofDate(v.longs()[i]), from));
                } else if (from.physical() == TypeKind.Physical.STRING) {
                    try {
                        out.setLong(i, ZonedTimestamps.parse(v.string(i), zone));
                    } catch (ValueFormatException e) {
                        throw invalid(v.string(i));
                    }
                } else {
                    throw cannot(from);
                }
            }
            case BOOLEAN -> {
                if (from.physical() == TypeKind.Physical.STRING) {
                    out.setLong(i, parseBoolean(v.string(i)));
                } else if (from.physical() == TypeKind.Physical.DOUBLE) {
                    out.setLong(i, v.doubles()[i] != 0 ? 1 : 0);
                } else {
                    out.setLong(i, v.longs()[i] != 0 ? 1 : 0);
                }
            }
            case INTEGER, BIGINT, DECIMAL -> out.setLong(i, toExact(v, i, from));
            // Between interval types of one family (INTERVAL DAY to INTERVAL HOUR): the same value.
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> {
                if (from.kind() != to) {
                    throw cannot(from);
                }
                out.setLong(i, v.longs()[i]);
            }
        }
    }

    private long toExact(ColumnVector v, int i, ColumnType from) {
        int scale = Numerics.scale(type);
        long value;
        switch (from.physical()) {
            case DOUBLE -> value = type.kind() == TypeKind.DECIMAL ? Numerics.fromDouble(v.doubles()[i], scale)
                    : Numerics.roundToInteger(v.doubles()[i]);
            case STRING -> {
                try {
                    BigDecimal d = new BigDecimal(v.string(i).strip()).setScale(scale, RoundingMode.HALF_UP);
                    value = d.unscaledValue().longValueExact();
                } catch (NumberFormatException e) {
                    throw invalid(v.string(i));
                } catch (ArithmeticException e) {
                    throw Numerics.overflow();
                }
            }
            default -> {
                if (from.kind() == TypeKind.DATE || from.kind() == TypeKind.TIMESTAMP
                        || from.kind() == TypeKind.TIMESTAMP_TZ) {
                    throw cannot(from);
                }
                value = Numerics.rescale(v.longs()[i], Numerics.scale(from), scale);
            }
        }
        if (type.kind() == TypeKind.INTEGER && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            throw Numerics.overflow();
        }
        if (type.kind() == TypeKind.DECIMAL && Math.abs(value) >= Numerics.pow10(type.precision())
                && value != Long.MIN_VALUE) {
            throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "value does not fit " + type);
        }
        return value;
    }

    private long instant(long local, ColumnType from) {
        try {
            return Timestamps.checked(ZonedTimestamps.fromLocal(local, zone), Timestamps.format(local));
        } catch (ValueFormatException | ArithmeticException e) {
            throw new LocusSqlException(SqlState.DATETIME_FIELD_OVERFLOW, "CAST of " + from + " '"
                    + Timestamps.format(local) + "' to " + type + ": out of range");
        }
    }

    private String format(ColumnVector v, int i, ColumnType from) {
        return switch (from.kind()) {
            case VARCHAR, CHAR -> v.string(i);
            case DECIMAL -> BigDecimal.valueOf(v.longs()[i], from.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay(v.longs()[i]).toString();
            case TIMESTAMP -> Timestamps.format(v.longs()[i]);
            case TIMESTAMP_TZ -> ZonedTimestamps.format(v.longs()[i], zone);
            case BOOLEAN -> v.longs()[i] != 0 ? "true" : "false";
            case DOUBLE -> Double.toString(v.doubles()[i]);
            case INTEGER, BIGINT -> Long.toString(v.longs()[i]);
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> Intervals.text(from.kind(), v.longs()[i]);
        };
    }

    private double parseDouble(String s) {
        try {
            return Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            throw invalid(s);
        }
    }

    private long parseDate(String s) {
        String t = s.strip();
        // As PostgreSQL reads dates: a time of day or a zone after the date is allowed and dropped
        // ("2024-01-02 00:00:00", "2024-01-02 +00" as pgjdbc writes dates).
        if (t.length() > 10 && DATE_SUFFIX.matcher(t).region(10, t.length()).matches()) {
            t = t.substring(0, 10);
        }
        try {
            return LocalDate.parse(t).toEpochDay();
        } catch (DateTimeParseException e) {
            throw invalid(s);
        }
    }

    private long parseTimestamp(String s) {
        try {
            return Timestamps.parse(s);
        } catch (ValueFormatException e) {
            throw invalid(s);
        }
    }

    private static final Pattern DATE_SUFFIX = Pattern.compile(
            "[ T]\\s*(\\d{1,2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?\\s*([-+]\\d{1,2}(:?\\d{2})?|Z|UTC)?");

    private long parseBoolean(String s) {
        return switch (s.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "t", "1", "yes" -> 1;
            case "false", "f", "0", "no" -> 0;
            default -> throw invalid(s);
        };
    }

    private LocusSqlException invalid(String s) {
        return new LocusSqlException(SqlState.INVALID_CAST, "invalid value for CAST to " + type + ": '" + s + "'");
    }

    private LocusSqlException cannot(ColumnType from) {
        return new LocusSqlException(SqlState.DATATYPE_MISMATCH, "cannot CAST " + from + " to " + type);
    }

    @Override
    protected Expr copy(ExprCopier copier) {
        return new Cast(type, copier.copy(input), zone);
    }

    @Override
    public String toString() {
        return "CAST(" + input + " AS " + type + ")";
    }
}
