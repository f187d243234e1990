package io.locusdb.core.query.pipeline;

import io.locusdb.core.exec.QueryContext;
import io.locusdb.core.query.expr.ArrayText;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.ExprCopier;
import io.locusdb.core.query.plan.PhysicalPlan;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ZonedTimestamps;
import io.locusdb.core.vector.ColumnVector;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * The rows of a set-returning function in FROM, computed when the plan runs: its arguments once (they need no
 * input row), then {@code generate_series}' numbers or an array's elements as a relation. The rows are reserved
 * against the query's memory budget before they are made.
 */
final class SetFunctionRows {
    /** Bytes a row of one BIGINT column holds in a relation (value and NULL flag). */
    private static final long BYTES_PER_NUMBER = Long.BYTES + 1;
    /** The same for a string, counted as Relation counts one (reference and object, on average). */
    private static final long BYTES_PER_STRING = 48 + 1;

    private SetFunctionRows() {
    }

    static Relation evaluate(PhysicalPlan.SetFunction function, QueryContext query) {
        List<Object> args = new ArrayList<>();
        for (Expr arg : function.args()) {
            args.add(ExprCopier.forTask().copy(arg).eval(new ColumnVector[0], 1).boxed(0));
        }
        ColumnVector values = switch (function.function()) {
            case GENERATE_SERIES -> series(args, function.types().getFirst(), query);
            case UNNEST -> unnest((String) args.getFirst(), function.types().getFirst(), query);
        };
        int rows = values.size();
        List<ColumnVector> columns = new ArrayList<>(List.of(values));
        if (function.ordinality()) {
            ColumnVector ordinal = new ColumnVector(function.types().getLast(), Math.max(1, rows));
            for (int r = 0; r < rows; r++) {
                ordinal.setLong(r, r + 1);
            }
            ordinal.setSize(rows);
            columns.add(ordinal);
        }
        return new Relation(columns, function.names(), rows);
    }

    /**
     * {@code LATERAL f(args)}: per row of {@code input}, the function's rows over the arguments that row gives, each
     * after a copy of the row; an outer lateral keeps a row whose call gives none, with NULLs.
     */
    static Relation lateral(PhysicalPlan.Lateral lateral, Relation input, QueryContext query) {
        ColumnVector[] inputs = input.chunk().vectors();
        int rows = input.rows();
        List<ColumnVector> args = new ArrayList<>();
        for (Expr arg : lateral.args()) {
            args.add(RelationOps.copy(ExprCopier.forTask().copy(arg).eval(inputs, rows), arg.type(), rows));
        }
        List<ColumnVector> out = new ArrayList<>();
        for (ColumnVector v : inputs) {
            out.add(new ColumnVector(v.type(), Math.max(1, rows)));
        }
        ColumnType type = lateral.types().getFirst();
        ColumnVector values = new ColumnVector(type, Math.max(1, rows));
        int at = 0;
        List<Object> boxed = new ArrayList<>(args.size());
        for (int r = 0; r < rows; r++) {
            query.checkCancelled();
            boxed.clear();
            for (ColumnVector a : args) {
                boxed.add(a.isNull(r) ? null : a.boxed(r));
            }
            ColumnVector series = switch (lateral.function()) {
                case GENERATE_SERIES -> series(boxed, type, query);
                case UNNEST -> unnest((String) boxed.getFirst(), type, query);
            };
            int n = series.size();
            int emitted = n == 0 && lateral.outer() ? 1 : n;
            for (ColumnVector c : out) {
                c.ensureCapacity(at + emitted);
            }
            values.ensureCapacity(at + emitted);
            for (int i = 0; i < emitted; i++) {
                for (int c = 0; c < inputs.length; c++) {
                    out.get(c).copyRow(inputs[c], r, at + i);
                }
                if (n == 0) {
                    values.setNull(at + i);
                } else {
                    values.copyRow(series, i, at + i);
                }
            }
            at += emitted;
        }
        out.add(values);
        return new Relation(out, lateral.names(), at);
    }

    /**
     * PostgreSQL's {@code generate_series(start, stop, step)}: start, start + step, ... while not past stop; no rows
     * when an argument is NULL or stop lies behind start; a step of 0 is an error.
     */
    private static ColumnVector series(List<Object> args, ColumnType type, QueryContext query) {
        ColumnVector out = new ColumnVector(type, 1);
        if (args.contains(null)) {
            out.setSize(0);
            return out;
        }
        if (type.kind() == TypeKind.TIMESTAMP) {
            return timestampSeries((Long) args.get(0), (Long) args.get(1), (Long) args.get(2), (Long) args.get(3),
                    out, query);
        }
        if (type.kind() == TypeKind.TIMESTAMP_TZ) {
            return instantSeries((Long) args.get(0), (Long) args.get(1), (Long) args.get(2), (Long) args.get(3),
                    (Long) args.get(4), ZoneId.of((String) args.get(5)), out, query);
        }
        long start = ((Number) args.get(0)).longValue();
        long stop = ((Number) args.get(1)).longValue();
        long step = args.size() > 2 ? ((Number) args.get(2)).longValue() : 1;
        if (step == 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "generate_series: step size cannot equal zero");
        }
        // In BigInteger: the span between two longs, and a step of Long.MIN_VALUE, do not fit a long.
        BigInteger span = BigInteger.valueOf(stop).subtract(BigInteger.valueOf(start));
        BigInteger steps = span.signum() != 0 && span.signum() != Long.signum(step) ? BigInteger.valueOf(-1)
                : span.divide(BigInteger.valueOf(step));
        BigInteger rows = steps.add(BigInteger.ONE);
        long count = rows.bitLength() > 62 ? Long.MAX_VALUE : rows.longValueExact();
        if (count > Integer.MAX_VALUE - 16) {
            throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "generate_series would make " + rows
                    + " rows; LocusDB computes a set-returning function's rows at once and takes at most "
                    + (Integer.MAX_VALUE - 16));
        }
        query.memory().reserve(count * BYTES_PER_NUMBER);
        out.ensureCapacity((int) Math.max(1, count));
        long value = start;
        for (int r = 0; r < count; r++) {
            if ((r & 0xFFFF) == 0) {
                query.checkCancelled();
            }
            out.setLong(r, value);
            // The last value is within [start, stop]; only the step after it could leave the long range.
            if (r + 1 < count) {
                value += step;
            }
        }
        out.setSize((int) count);
        return out;
    }

    /**
     * PostgreSQL's {@code generate_series(start, stop, interval)} over timestamps: each value is the one before plus
     * the interval (months first, so Jan 31 + 1 month is Feb 29 and then Mar 29, as in PostgreSQL), while not past
     * stop in the interval's direction.
     */
    private static ColumnVector timestampSeries(long start, long stop, long micros, long months, ColumnVector out,
                                                QueryContext query) {
        if (micros == 0 && months == 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "generate_series: step size cannot equal zero");
        }
        return stepped(start, stop, months > 0 || months == 0 && micros > 0,
                value -> Math.addExact(Timestamps.plusMonths(value, months), micros), out, query);
    }

    /**
     * {@code generate_series(start, stop, interval)} over instants, as PostgreSQL steps a timestamptz: the months
     * and days of the step on the wall clock of {@code zone} (the session's), its time on the time line.
     */
    private static ColumnVector instantSeries(long start, long stop, long micros, long months, long days, ZoneId zone,
                                              ColumnVector out, QueryContext query) {
        if (micros == 0 && months == 0 && days == 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "generate_series: step size cannot equal zero");
        }
        return stepped(start, stop, months > 0 || months == 0 && (days > 0 || days == 0 && micros > 0), value -> {
            long moved = value;
            if (months != 0 || days != 0) {
                long local = Timestamps.plusMonths(ZonedTimestamps.toLocal(value, zone), months);
                moved = ZonedTimestamps.fromLocal(Math.addExact(local, Math.multiplyExact(days,
                        Timestamps.MICROS_PER_DAY)), zone);
            }
            return Math.addExact(moved, micros);
        }, out, query);
    }

    /** start, next(start), ... while not past stop in the step's direction, or until a step leaves the range. */
    private static ColumnVector stepped(long start, long stop, boolean forward, LongUnaryOperator next,
                                        ColumnVector out, QueryContext query) {
        long value = start;
        int rows = 0;
        while (forward ? value <= stop : value >= stop) {
            if ((rows & 0xFFF) == 0) {
                query.checkCancelled();
                query.memory().reserve(0x1000 * BYTES_PER_NUMBER);
                out.ensureCapacity(rows + 0x1000);
            }
            if (rows == Integer.MAX_VALUE - 16) {
                throw new LocusSqlException(SqlState.PROGRAM_LIMIT_EXCEEDED, "generate_series would make more than "
                        + rows + " rows");
            }
            out.setLong(rows++, value);
            try {
                value = Timestamps.checked(next.applyAsLong(value), "");
            } catch (ArithmeticException | IllegalArgumentException | DateTimeException e) {
                break;
            }
        }
        out.setSize(rows);
        return out;
    }

    /** {@code UNNEST(array)}: one row per element, in order; a NULL array gives no rows. */
    private static ColumnVector unnest(String array, ColumnType type, QueryContext query) {
        List<String> elements = array == null ? List.of() : ArrayText.parse(array);
        query.memory().reserve(elements.size()
                * (type.physical() == TypeKind.Physical.STRING ? BYTES_PER_STRING : BYTES_PER_NUMBER));
        ColumnVector out = new ColumnVector(type, Math.max(1, elements.size()));
        for (int r = 0; r < elements.size(); r++) {
            Object value = ArrayText.value(elements.get(r), type);
            switch (value) {
                case null -> out.setNull(r);
                case Long l -> out.setLong(r, l);
                case Double d -> out.setDouble(r, d);
                default -> out.setString(r, (String) value);
            }
        }
        out.setSize(elements.size());
        out.refreshNulls();
        return out;
    }
}
