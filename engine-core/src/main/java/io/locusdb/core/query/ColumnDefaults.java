package io.locusdb.core.query;

import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.Statement;
import io.locusdb.core.storage.table.ColumnDef;
import io.locusdb.core.storage.table.ColumnDefault;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Column defaults between the statement and the table: a DEFAULT clause checked against its column and kept as a
 * physical value or a time to take when a row is written, and the values an insert that leaves columns out puts in
 * them. The time of a statement is one instant for all its rows, in the session's time zone.
 */
final class ColumnDefaults {
    private ColumnDefaults() {
    }

    /** {@code d} for column {@code column}; null for no default (or DEFAULT NULL). */
    static ColumnDefault resolve(Statement.Default d, ColumnDef column, BiFunction<Object, ColumnDef, Object> convert) {
        return switch (d) {
            case null -> null;
            case Statement.LiteralDefault l -> l.value() == null ? null : ColumnDefault.of(convert.apply(l.value(),
                    column));
            case Statement.TimeDefault t -> {
                TypeKind kind = column.type().kind();
                if (kind != TypeKind.TIMESTAMP && kind != TypeKind.TIMESTAMP_TZ && kind != TypeKind.DATE) {
                    throw new LocusSqlException(SqlState.DATATYPE_MISMATCH, "column " + column.name() + " is "
                            + column.type() + ": DEFAULT " + (t.date() ? "CURRENT_DATE" : "CURRENT_TIMESTAMP")
                            + " gives a " + (t.date() ? "date" : "timestamp"));
                }
                yield new ColumnDefault(t.date() ? ColumnDefault.Kind.CURRENT_DATE
                        : ColumnDefault.Kind.CURRENT_TIMESTAMP, null);
            }
        };
    }

    /** The defaults of a CREATE TABLE's columns, one per column (empty when none has one). */
    static List<ColumnDefault> resolveAll(List<Statement.Default> defaults, List<ColumnDef> columns,
                                          BiFunction<Object, ColumnDef, Object> convert) {
        List<ColumnDefault> resolved = new ArrayList<>();
        boolean any = false;
        for (int i = 0; i < columns.size(); i++) {
            ColumnDefault d = i < defaults.size() ? resolve(defaults.get(i), columns.get(i), convert) : null;
            any |= d != null;
            resolved.add(d);
        }
        return any ? resolved : List.of();
    }

    /** The physical value {@code d} gives a row of column type {@code kind} written at {@code now}. */
    static Object valueOf(ColumnDefault d, TypeKind kind, Instant now) {
        if (d == null) {
            return null;
        }
        if (d.kind() == ColumnDefault.Kind.VALUE) {
            return d.value();
        }
        ZoneId zone = SessionTimeZone.get();
        LocalDateTime wallClock = LocalDateTime.ofInstant(now, zone);
        if (d.kind() == ColumnDefault.Kind.CURRENT_DATE) {
            long day = wallClock.toLocalDate().toEpochDay();
            return switch (kind) {
                case DATE -> day;
                case TIMESTAMP -> Timestamps.ofDate(day);
                default -> wallClock.toLocalDate().atStartOfDay(zone).toEpochSecond() * Timestamps.MICROS_PER_SECOND;
            };
        }
        return switch (kind) {
            case DATE -> wallClock.toLocalDate().toEpochDay();
            case TIMESTAMP -> Timestamps.of(wallClock);
            default -> Math.multiplyExact(now.getEpochSecond(), Timestamps.MICROS_PER_SECOND) + now.getNano() / 1000;
        };
    }

    /** Fills the columns of {@code row} that the insert left out ({@code given}) with their defaults. */
    static void fill(Table table, boolean[] given, Object[] row, Instant now) {
        if (table.defaults().isEmpty()) {
            return;
        }
        for (int c = 0; c < row.length; c++) {
            if (!given[c]) {
                row[c] = valueOf(table.defaultOf(c), table.schema().column(c).type().kind(), now);
            }
        }
    }
}
