package io.locusdb.trino;

import io.airlift.slice.Slice;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Trino's pushed-down filter (a domain per column: ranges, value sets, NULL or not) as a LocusDB WHERE clause. Only
 * domains that LocusDB evaluates exactly as Trino does are taken: on numbers, dates, timestamps and booleans any
 * domain; on VARCHAR only values (equality, IN), since LocusDB orders strings by UTF-16 units and Trino by code
 * points, which differ above U+FFFF; CHAR (Trino compares it without padding), non-finite doubles and values
 * LocusDB cannot write as literals (years outside 1-9999, the least BIGINT) stay with Trino.
 */
final class PredicateSql {
    /** Above this many values an IN list is left to Trino (the text would be long for little gain). */
    private static final int MAX_IN_VALUES = 1_000;

    private PredicateSql() {
    }

    /** Whether LocusDB orders values of {@code type} as Trino does (so ranges, MIN/MAX and top N agree). */
    static boolean orderedAlike(Type type) {
        return type == BigintType.BIGINT || type == IntegerType.INTEGER || type == DateType.DATE
                || type == BooleanType.BOOLEAN || type instanceof DecimalType d && d.isShort()
                || type == TimestampType.TIMESTAMP_MICROS;
    }

    static boolean pushable(Domain domain) {
        Type type = domain.getType();
        if (!orderedAlike(type) && type != DoubleType.DOUBLE && !(type instanceof VarcharType)) {
            return false;
        }
        if (domain.isAll() || domain.isNone() || domain.isOnlyNull() || domain.getValues().isAll()) {
            return true;
        }
        if (type instanceof VarcharType && !domain.getValues().isDiscreteSet()) {
            return false;
        }
        if (domain.getValues().isDiscreteSet() && domain.getValues().getDiscreteSet().size() > MAX_IN_VALUES) {
            return false;
        }
        for (Range r : domain.getValues().getRanges().getOrderedRanges()) {
            if (!writable(type, r.getLowValue().orElse(null)) || !writable(type, r.getHighValue().orElse(null))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@link #literal} can write {@code value} (null: an unbounded end) so that LocusDB reads it back. */
    private static boolean writable(Type type, Object value) {
        return switch (value) {
            case null -> true;
            case Double d -> Double.isFinite(d);
            case Long l when type == DateType.DATE -> l >= MIN_DAY && l <= MAX_DAY;
            case Long l when type == TimestampType.TIMESTAMP_MICROS ->
                    Math.floorDiv(l, 86_400_000_000L) >= MIN_DAY && Math.floorDiv(l, 86_400_000_000L) <= MAX_DAY;
            case Long l -> l != Long.MIN_VALUE;
            default -> true;
        };
    }

    private static final long MIN_DAY = LocalDate.of(1, 1, 1).toEpochDay();
    private static final long MAX_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    /** The condition, or null when it is TRUE. */
    static String where(TupleDomain<ColumnHandle> constraint) {
        if (constraint.isNone()) {
            return "FALSE";
        }
        List<String> conjuncts = new ArrayList<>();
        for (Map.Entry<ColumnHandle, Domain> e : constraint.getDomains().orElseThrow().entrySet()) {
            String c = condition(quote(((LocusColumnHandle) e.getKey()).name()), e.getValue());
            if (c != null) {
                conjuncts.add(c);
            }
        }
        return conjuncts.isEmpty() ? null : String.join(" AND ", conjuncts);
    }

    private static String condition(String column, Domain domain) {
        if (domain.isAll()) {
            return null;
        }
        if (domain.isNone()) {
            return "FALSE";
        }
        if (domain.isOnlyNull()) {
            return column + " IS NULL";
        }
        String values;
        if (domain.getValues().isAll()) {
            values = column + " IS NOT NULL";
        } else if (domain.getValues().isDiscreteSet()) {
            List<String> literals = new ArrayList<>();
            for (Object v : domain.getValues().getDiscreteSet()) {
                literals.add(literal(domain.getType(), v));
            }
            values = literals.size() == 1 ? column + " = " + literals.getFirst()
                    : column + " IN (" + String.join(", ", literals) + ")";
        } else {
            List<String> ranges = new ArrayList<>();
            for (Range r : domain.getValues().getRanges().getOrderedRanges()) {
                ranges.add(range(column, domain.getType(), r));
            }
            values = ranges.size() == 1 ? ranges.getFirst() : "(" + String.join(" OR ", ranges) + ")";
        }
        return domain.isNullAllowed() ? "(" + values + " OR " + column + " IS NULL)" : values;
    }

    private static String range(String column, Type type, Range r) {
        if (r.isSingleValue()) {
            return column + " = " + literal(type, r.getSingleValue());
        }
        List<String> bounds = new ArrayList<>();
        if (!r.isLowUnbounded()) {
            bounds.add(column + (r.isLowInclusive() ? " >= " : " > ") + literal(type, r.getLowBoundedValue()));
        }
        if (!r.isHighUnbounded()) {
            bounds.add(column + (r.isHighInclusive() ? " <= " : " < ") + literal(type, r.getHighBoundedValue()));
        }
        return bounds.isEmpty() ? column + " IS NOT NULL" : "(" + String.join(" AND ", bounds) + ")";
    }

    /** A value in Trino's representation as a LocusDB literal of the column's type. */
    static String literal(Type type, Object value) {
        if (type == BooleanType.BOOLEAN) {
            return (Boolean) value ? "TRUE" : "FALSE";
        }
        if (type == DateType.DATE) {
            return "DATE '" + LocalDate.ofEpochDay((Long) value) + "'";
        }
        if (type == TimestampType.TIMESTAMP_MICROS) {
            long micros = (Long) value;
            LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000), 0, ZoneOffset.UTC);
            return String.format(Locale.ROOT, "TIMESTAMP '%s %02d:%02d:%02d.%06d'", t.toLocalDate(), t.getHour(),
                    t.getMinute(), t.getSecond(), Math.floorMod(micros, 1_000_000));
        }
        if (type instanceof DecimalType d) {
            return new BigDecimal(BigInteger.valueOf((Long) value), d.getScale()).toPlainString();
        }
        if (type == DoubleType.DOUBLE) {
            // Exact: the shortest text that reads back as the same double, typed DOUBLE.
            return "CAST(" + value + " AS DOUBLE)";
        }
        if (type instanceof VarcharType) {
            return "'" + ((Slice) value).toStringUtf8().replace("'", "''") + "'";
        }
        return value.toString();
    }

    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
