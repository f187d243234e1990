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
 * domains that LocusDB evaluates exactly as Trino does are taken: numbers, dates, timestamps, booleans and
 * VARCHAR; CHAR (Trino compares it without padding) and non-finite doubles stay with Trino.
 */
final class PredicateSql {
    /** Above this many values an IN list is left to Trino (the text would be long for little gain). */
    private static final int MAX_IN_VALUES = 1_000;

    private PredicateSql() {
    }

    static boolean pushable(Domain domain) {
        Type type = domain.getType();
        boolean typed = type == BigintType.BIGINT || type == IntegerType.INTEGER || type == DateType.DATE
                || type == BooleanType.BOOLEAN || type == DoubleType.DOUBLE || type instanceof VarcharType
                || type instanceof DecimalType d && d.isShort() || type == TimestampType.TIMESTAMP_MICROS;
        if (!typed) {
            return false;
        }
        if (domain.isAll() || domain.isNone() || domain.isOnlyNull()) {
            return true;
        }
        if (domain.getValues().isDiscreteSet() && domain.getValues().getDiscreteSet().size() > MAX_IN_VALUES) {
            return false;
        }
        for (Range r : domain.getValues().getRanges().getOrderedRanges()) {
            if (!finite(r.getLowValue().orElse(null)) || !finite(r.getHighValue().orElse(null))) {
                return false;
            }
        }
        return true;
    }

    private static boolean finite(Object value) {
        return !(value instanceof Double d) || Double.isFinite(d);
    }

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
