package io.locusdb.core.query.planner;

import io.locusdb.core.query.expr.Arithmetic;
import io.locusdb.core.query.expr.CaseWhen;
import io.locusdb.core.query.expr.Cast;
import io.locusdb.core.query.expr.Comparison;
import io.locusdb.core.query.expr.DateFunctions;
import io.locusdb.core.query.expr.DateTimeFormat;
import io.locusdb.core.query.expr.DateTimeParse;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.InputRef;
import io.locusdb.core.query.expr.Like;
import io.locusdb.core.query.expr.Literal;
import io.locusdb.core.query.expr.Logic;
import io.locusdb.core.query.expr.NumberFormat;
import io.locusdb.core.query.expr.NumberFunctions;
import io.locusdb.core.query.expr.Numerics;
import io.locusdb.core.query.expr.PgFormat;
import io.locusdb.core.query.expr.Retyped;
import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.query.expr.RowFunction;
import io.locusdb.core.query.expr.Shared;
import io.locusdb.core.query.expr.SimilarPattern;
import io.locusdb.core.query.expr.TextFunctions;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.sql.pg.PgOids;
import io.locusdb.core.sql.pg.PgTypeInfo;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Intervals;
import io.locusdb.core.storage.type.TimeZones;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.TypeKind;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ZonedTimestamps;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimestampString;

/**
 * Calcite row expressions to {@link Expr} trees. Input references resolve against the names of the input columns
 * (for EXPLAIN); SEARCH (IN lists, ranges) is expanded into comparisons first. Whatever has no kernel is rejected
 * with SQLSTATE 0A000 naming the operator.
 */
public final class ExprCompiler {
    private final RexBuilder rex;
    private final List<String> inputNames;
    /** Calls compiled so far, by digest: a repeated subexpression is computed once per batch. */
    private final Map<String, Expr> compiled = new HashMap<>();
    private final Set<String> repeated = new HashSet<>();

    public ExprCompiler(RexBuilder rex, List<String> inputNames) {
        this.rex = rex;
        this.inputNames = List.copyOf(inputNames);
    }

    public Expr compile(RexNode node) {
        return build(RexUtil.expandSearch(rex, null, node));
    }

    public List<Expr> compileAll(List<? extends RexNode> nodes) {
        List<Expr> out = new ArrayList<>(nodes.size());
        for (RexNode n : nodes) {
            out.add(compile(n));
        }
        return out;
    }

    private Expr build(RexNode node) {
        return switch (node) {
            case RexInputRef ref -> new InputRef(ref.getIndex(), SqlTypes.of(ref.getType()),
                    ref.getIndex() < inputNames.size() ? inputNames.get(ref.getIndex()) : ref.toString());
            case RexLiteral literal -> literal(literal);
            case RexCall call -> shared(call);
            default -> throw unsupported("the expression " + node);
        };
    }

    private Expr shared(RexCall call) {
        String digest = call.toString();
        // random() twice is two values, not one computed once.
        if (!repeated.contains(digest) || !RexUtil.isDeterministic(call)) {
            return call(call);
        }
        Expr memo = compiled.get(digest);
        if (memo == null) {
            memo = new Shared(call(call));
            compiled.put(digest, memo);
        }
        return memo;
    }

    /**
     * Declares the expressions about to be compiled with this compiler (e.g. a filter and a projection), so that
     * calls occurring more than once among them are computed once per batch.
     */
    public ExprCompiler sharing(List<RexNode> nodes) {
        Map<String, Integer> counts = new HashMap<>();
        for (RexNode node : nodes) {
            if (node == null) {
                continue;
            }
            RexUtil.expandSearch(rex, null, node).accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitCall(RexCall call) {
                    if (counts.merge(call.toString(), 1, Integer::sum) == 1) {
                        return super.visitCall(call);
                    }
                    // Counted once more; its operands are inside the shared result already.
                    return null;
                }
            });
        }
        counts.forEach((digest, n) -> {
            if (n > 1) {
                repeated.add(digest);
            }
        });
        return this;
    }

    public static Literal literal(RexLiteral literal) {
        ColumnType type = SqlTypes.of(literal.getType());
        if (literal.isNull()) {
            return new Literal(type, null);
        }
        Object value = switch (type.kind()) {
            // Calcite holds a day-time interval in milliseconds, a year-month one in months.
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> {
                try {
                    BigDecimal amount = literal.getValueAs(BigDecimal.class);
                    yield type.kind() == TypeKind.INTERVAL_YEAR_MONTH ? amount.longValueExact()
                            : amount.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
                } catch (ArithmeticException e) {
                    throw Numerics.overflow();
                }
            }
            case BOOLEAN -> Boolean.TRUE.equals(literal.getValueAs(Boolean.class)) ? 1L : 0L;
            case INTEGER, BIGINT, DECIMAL -> {
                BigDecimal d = literal.getValueAs(BigDecimal.class);
                try {
                    yield d.setScale(Numerics.scale(type), RoundingMode.HALF_UP).unscaledValue().longValueExact();
                } catch (ArithmeticException e) {
                    throw Numerics.overflow();
                }
            }
            case DOUBLE -> literal.getValueAs(Double.class);
            case DATE -> (long) literal.getValueAs(DateString.class).getDaysSinceEpoch();
            // Calcite holds an instant's literal as its date-time at UTC.
            case TIMESTAMP, TIMESTAMP_TZ -> Timestamps.parse(literal.getValueAs(TimestampString.class).toString());
            case VARCHAR, CHAR -> {
                NlsString nls = literal.getValueAs(NlsString.class);
                yield nls != null ? nls.getValue() : literal.getValueAs(String.class);
            }
        };
        return new Literal(type, value);
    }

    private Expr call(RexCall call) {
        if (call.getOperator().getName().equalsIgnoreCase("_PG_EXPANDARRAY")) {
            throw unsupported("information_schema._pg_expandarray (a set-returning function in a select list)");
        }
        if (ArrayCalls.handles(call)) {
            return new ArrayCalls(this::build).compile(call);
        }
        ColumnType type = call.getKind() == SqlKind.IS_NULL || call.getKind() == SqlKind.IS_NOT_NULL
                ? ColumnType.BOOLEAN : resultType(call);
        List<RexNode> ops = call.getOperands();
        return switch (call.getKind()) {
            case PLUS, MINUS -> plusMinus(call, type);
            case TIMES -> Intervals.isInterval(type.kind()) ? IntervalArithmetic.times(type, build(ops.get(0)),
                    build(ops.get(1))) : new Arithmetic(type, Arithmetic.Op.MULTIPLY, build(ops.get(0)),
                    build(ops.get(1)));
            case DIVIDE -> Intervals.isInterval(type.kind()) ? IntervalArithmetic.divide(type, build(ops.get(0)),
                    build(ops.get(1))) : new Arithmetic(type, Arithmetic.Op.DIVIDE, build(ops.get(0)),
                    build(ops.get(1)));
            case MOD -> new Arithmetic(type, Arithmetic.Op.MODULO, build(ops.get(0)), build(ops.get(1)));
            case MINUS_PREFIX -> Intervals.isInterval(type.kind())
                    ? IntervalArithmetic.negate(type, build(ops.get(0)))
                    : new Arithmetic(type, Arithmetic.Op.SUBTRACT, zero(type), build(ops.get(0)));
            case PLUS_PREFIX -> build(ops.get(0));
            case EQUALS -> compare(Comparison.Op.EQ, ops);
            case NOT_EQUALS -> compare(Comparison.Op.NE, ops);
            case LESS_THAN -> compare(Comparison.Op.LT, ops);
            case LESS_THAN_OR_EQUAL -> compare(Comparison.Op.LE, ops);
            case GREATER_THAN -> compare(Comparison.Op.GT, ops);
            case GREATER_THAN_OR_EQUAL -> compare(Comparison.Op.GE, ops);
            case AND -> new Logic(Logic.Op.AND, buildAll(ops));
            case OR -> new Logic(Logic.Op.OR, buildAll(ops));
            case NOT -> new Logic(Logic.Op.NOT, buildAll(ops));
            case IS_NULL -> new Logic(Logic.Op.IS_NULL, buildAll(ops));
            case IS_NOT_NULL -> new Logic(Logic.Op.IS_NOT_NULL, buildAll(ops));
            case IS_TRUE -> new Logic(Logic.Op.IS_TRUE, buildAll(ops));
            case IS_NOT_TRUE -> new Logic(Logic.Op.IS_NOT_TRUE, buildAll(ops));
            case IS_FALSE -> new Logic(Logic.Op.IS_FALSE, buildAll(ops));
            case IS_NOT_FALSE -> new Logic(Logic.Op.IS_NOT_FALSE, buildAll(ops));
            case CASE -> caseWhen(call, type);
            case CAST -> cast(type, build(ops.getFirst()));
            case LIKE -> like(call);
            case EXTRACT -> extract(call, type);
            case COALESCE -> coalesce(call, type);
            default -> function(call, type);
        };
    }

    private ColumnType resultType(RexCall call) {
        return SqlTypes.of(call.getType());
    }

    private List<Expr> buildAll(List<RexNode> nodes) {
        List<Expr> out = new ArrayList<>(nodes.size());
        for (RexNode n : nodes) {
            out.add(build(n));
        }
        return out;
    }

    private static Literal zero(ColumnType type) {
        return new Literal(type, type.kind() == TypeKind.DOUBLE ? (Object) 0.0 : (Object) 0L);
    }

    private Expr plusMinus(RexCall call, ColumnType type) {
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        boolean subtract = call.getKind() == SqlKind.MINUS;
        if (isInterval(a) && isInterval(b)) {
            return IntervalArithmetic.plusMinus(type, build(a), build(b), subtract);
        }
        if (isInterval(b) || isInterval(a)) {
            RexNode date = isInterval(b) ? a : b;
            RexNode interval = isInterval(b) ? b : a;
            if (subtract && interval == a) {
                throw unsupported("INTERVAL - " + SqlTypes.of(date.getType()) + " (write the "
                        + SqlTypes.of(date.getType()) + " first)");
            }
            if (!(interval instanceof RexLiteral literal)) {
                if (SqlTypes.of(date.getType()).kind() == TypeKind.TIMESTAMP_TZ) {
                    return zonedShift(build(date), interval, subtract);
                }
                return IntervalArithmetic.shift(type, build(date), build(interval), subtract);
            }
            if (SqlTypes.of(date.getType()).kind() == TypeKind.TIMESTAMP_TZ) {
                return zonedShift(build(date), interval, subtract);
            }
            BigDecimal amount = literal.getValueAs(BigDecimal.class);
            long sign = subtract ? -1 : 1;
            if (SqlTypes.of(date.getType()).kind() == TypeKind.TIMESTAMP) {
                boolean months = literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
                // Calcite holds a day-time interval in milliseconds.
                return new DateFunctions.TimestampPlusInterval(build(date),
                        months ? 0 : sign * amount.movePointRight(3).longValueExact(),
                        months ? sign * amount.longValueExact() : 0);
            }
            if (literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                return new DateFunctions.PlusInterval(build(date), 0, sign * amount.longValueExact());
            }
            BigDecimal[] days = amount.divideAndRemainder(BigDecimal.valueOf(86_400_000L));
            if (days[1].signum() != 0) {
                throw unsupported("intervals of hours, minutes or seconds on a DATE (cast it to TIMESTAMP first)");
            }
            return new DateFunctions.PlusInterval(build(date), sign * days[0].longValueExact(), 0);
        }
        if (temporal(type) || type.kind() == TypeKind.VARCHAR || type.kind() == TypeKind.CHAR) {
            throw unsupported("'" + call.getOperator().getName() + "' on " + type);
        }
        Expr left = build(a);
        Expr right = build(b);
        if (Numerics.isExact(type)) {
            left = atScale(left, Numerics.scale(type));
            right = atScale(right, Numerics.scale(type));
        }
        return new Arithmetic(type, subtract ? Arithmetic.Op.SUBTRACT : Arithmetic.Op.ADD, left, right);
    }

    /**
     * An instant moved by an interval: hours, minutes and seconds on the time line, months and years (and the days
     * of an interval literal) on the session's wall clock, so that a month later is the same time of day across a
     * change to summer time, as PostgreSQL moves a timestamp with time zone. An interval computed at run time
     * holds days as 24 hours (LocusDB's intervals do not keep days apart from time) and moves the instant by them.
     */
    private Expr zonedShift(Expr instant, RexNode interval, boolean subtract) {
        if (interval instanceof RexLiteral literal && !literal.isNull()
                && literal.getType().getIntervalQualifier() != null
                && literal.getType().getIntervalQualifier().getStartUnit() == TimeUnit.DAY) {
            // A literal with days ('3 days', '1 day 02:00'): the days move the wall clock, as in PostgreSQL, so that a
            // day later is the same time of day across a change to summer time; the rest moves the instant.
            long millis = literal.getValueAs(BigDecimal.class).longValueExact() * (subtract ? -1 : 1);
            long days = millis / 86_400_000L;
            long restMicros = (millis - days * 86_400_000L) * 1000;
            Expr moved = days == 0 ? instant : cast(ColumnType.TIMESTAMP_TZ, new DateFunctions.TimestampPlusInterval(
                    cast(ColumnType.TIMESTAMP, instant), days * Timestamps.MICROS_PER_DAY, 0));
            return restMicros == 0 ? moved : new Retyped(ColumnType.TIMESTAMP_TZ,
                    new DateFunctions.TimestampPlusInterval(new Retyped(ColumnType.TIMESTAMP, moved), restMicros, 0));
        }
        Expr step = build(interval);
        if (step.type().kind() == TypeKind.INTERVAL_DAY_TIME) {
            return new Retyped(ColumnType.TIMESTAMP_TZ, IntervalArithmetic.shift(ColumnType.TIMESTAMP,
                    new Retyped(ColumnType.TIMESTAMP, instant), step, subtract));
        }
        return cast(ColumnType.TIMESTAMP_TZ, IntervalArithmetic.shift(ColumnType.TIMESTAMP,
                cast(ColumnType.TIMESTAMP, instant), step, subtract));
    }

    /**
     * An exact literal re-expressed at a larger scale at compile time (1 in {@code 1 - l_discount} becomes 1.00),
     * so the kernel adds same-scale longs instead of rescaling the constant on every row.
     */
    private static Expr atScale(Expr e, int scale) {
        if (e instanceof Literal literal && literal.value() instanceof Long value && Numerics.isExact(e.type())
                && Numerics.scale(e.type()) < scale) {
            try {
                long rescaled = Numerics.rescale(value, Numerics.scale(e.type()), scale);
                return new Literal(ColumnType.decimal(ColumnType.MAX_DECIMAL_PRECISION, scale), rescaled);
            } catch (LocusSqlException overflow) {
                return e;
            }
        }
        return e;
    }

    private static boolean isInterval(RexNode node) {
        SqlTypeFamily family = node.getType().getSqlTypeName().getFamily();
        return family == SqlTypeFamily.INTERVAL_DAY_TIME || family == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    private Expr compare(Comparison.Op op, List<RexNode> ops) {
        // Arrays compute as their text: equal arrays have equal text, but text does not order them.
        if (op != Comparison.Op.EQ && op != Comparison.Op.NE && (ArrayCalls.isArray(ops.get(0).getType())
                || ArrayCalls.isArray(ops.get(1).getType()))) {
            throw unsupported("ordering comparisons of arrays");
        }
        Expr a = build(ops.get(0));
        Expr b = build(ops.get(1));
        boolean aString = a.type().physical() == TypeKind.Physical.STRING;
        boolean bString = b.type().physical() == TypeKind.Physical.STRING;
        if (aString != bString) {
            // Calcite lets '1995-01-01' stand for a DATE and '5' for a number: convert the string side.
            if (aString) {
                a = new Cast(b.type(), a);
            } else {
                b = new Cast(a.type(), b);
            }
        } else if (temporal(a.type()) && temporal(b.type()) && a.type().kind() != b.type().kind()) {
            // A DATE against a TIMESTAMP compares as midnight of that day, as in PostgreSQL; either against a
            // TIMESTAMP WITH TIME ZONE as that wall-clock time in the session's zone.
            ColumnType common = a.type().kind() == TypeKind.TIMESTAMP_TZ || b.type().kind() == TypeKind.TIMESTAMP_TZ
                    ? ColumnType.TIMESTAMP_TZ : ColumnType.TIMESTAMP;
            a = cast(common, a);
            b = cast(common, b);
        } else if (!aString && temporal(a.type()) != temporal(b.type())) {
            throw new LocusSqlException(SqlState.DATATYPE_MISMATCH, "cannot compare " + a.type() + " with "
                    + b.type());
        }
        if (Numerics.isExact(a.type()) && Numerics.isExact(b.type())) {
            int scale = Math.max(Numerics.scale(a.type()), Numerics.scale(b.type()));
            a = atScale(a, scale);
            b = atScale(b, scale);
        }
        return new Comparison(op, a, b);
    }

    private static boolean temporal(ColumnType type) {
        return type.kind() == TypeKind.DATE || type.kind() == TypeKind.TIMESTAMP
                || type.kind() == TypeKind.TIMESTAMP_TZ;
    }

    private Expr caseWhen(RexCall call, ColumnType type) {
        List<RexNode> ops = call.getOperands();
        List<Expr> conditions = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        for (int i = 0; i + 1 < ops.size(); i += 2) {
            conditions.add(build(ops.get(i)));
            values.add(cast(type, build(ops.get(i + 1))));
        }
        return new CaseWhen(type, conditions, values, cast(type, build(ops.getLast())));
    }

    private Expr coalesce(RexCall call, ColumnType type) {
        List<Expr> conditions = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        List<RexNode> ops = call.getOperands();
        for (int i = 0; i < ops.size() - 1; i++) {
            Expr value = build(ops.get(i));
            conditions.add(new Logic(Logic.Op.IS_NOT_NULL, List.of(value)));
            values.add(cast(type, build(ops.get(i))));
        }
        return new CaseWhen(type, conditions, values, cast(type, build(ops.getLast())));
    }

    /** A CAST unless every value of the input is already a valid value of the type, in the same representation. */
    static Expr cast(ColumnType type, Expr input) {
        ColumnType from = input.type();
        if (from.equals(type)) {
            return input;
        }
        if (widens(from, type)) {
            if (input instanceof Literal literal) {
                return new Literal(type, literal.value());
            }
            return new Retyped(type, input);
        }
        return new Cast(type, input);
    }

    /** Whether {@code to} holds every value of {@code from} unchanged (no truncation, no rescaling, no overflow). */
    private static boolean widens(ColumnType from, ColumnType to) {
        if (from.physical() != to.physical()) {
            return false;
        }
        return switch (to.kind()) {
            case VARCHAR -> (from.kind() == TypeKind.VARCHAR || from.kind() == TypeKind.CHAR)
                    && (to.length() == 0 || from.length() > 0 && from.length() <= to.length());
            case CHAR -> from.kind() == TypeKind.CHAR && from.length() <= to.length();
            case BIGINT -> from.kind() == TypeKind.INTEGER || from.kind() == TypeKind.BIGINT;
            case DECIMAL -> Numerics.isExact(from) && Numerics.scale(from) == to.scale()
                    && digits(from) - Numerics.scale(from) <= to.precision() - to.scale();
            default -> from.kind() == to.kind();
        };
    }

    /** Decimal digits a value of an exact type may have. */
    private static int digits(ColumnType type) {
        return switch (type.kind()) {
            case INTEGER -> 10;
            case BIGINT -> 19;
            default -> type.precision();
        };
    }

    private Expr like(RexCall call) {
        List<RexNode> ops = call.getOperands();
        if (!(ops.get(1) instanceof RexLiteral pattern)) {
            throw unsupported("LIKE with a pattern that is not a constant");
        }
        Character escape = null;
        if (ops.size() > 2 && ops.get(2) instanceof RexLiteral e && !e.isNull()) {
            String s = e.getValueAs(String.class);
            if (s == null || s.length() != 1) {
                throw new LocusSqlException(SqlState.SEMANTIC_ERROR, "the LIKE escape must be one character");
            }
            escape = s.charAt(0);
        }
        if (pattern.isNull()) {
            return new Literal(ColumnType.BOOLEAN, null);
        }
        String text = pattern.getValueAs(String.class);
        Expr input = build(ops.get(0));
        if (call.getOperator() instanceof SqlLikeOperator op && !op.isCaseSensitive()) {
            // ILIKE: both sides in lower case (PostgreSQL folds case the same way outside special locales).
            input = new RowFunction("LOWER", ColumnType.VARCHAR, List.of(input), false,
                    a -> ((String) a[0]).toLowerCase(Locale.ROOT));
            text = text.toLowerCase(Locale.ROOT);
            if (escape != null) {
                escape = Character.toLowerCase(escape);
            }
        }
        Expr like = new Like(input, text, escape);
        if (call.getOperator() instanceof SqlLikeOperator op && op.isNegated()) {
            return new Logic(Logic.Op.NOT, List.of(like));
        }
        return like;
    }

    private Expr extract(RexCall call, ColumnType type) {
        TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
        Expr date = build(call.getOperands().get(1));
        if (Intervals.isInterval(date.type().kind())) {
            return IntervalArithmetic.extract(type, unit, date);
        }
        if (!temporal(date.type())) {
            throw unsupported("EXTRACT from " + date.type());
        }
        DateFunctions.Field field = switch (unit) {
            case YEAR -> DateFunctions.Field.YEAR;
            case QUARTER -> DateFunctions.Field.QUARTER;
            case MONTH -> DateFunctions.Field.MONTH;
            case WEEK -> DateFunctions.Field.WEEK;
            case DAY -> DateFunctions.Field.DAY;
            case DOW -> DateFunctions.Field.DOW;
            case DOY -> DateFunctions.Field.DOY;
            case DECADE -> DateFunctions.Field.DECADE;
            case CENTURY -> DateFunctions.Field.CENTURY;
            case MILLENNIUM -> DateFunctions.Field.MILLENNIUM;
            case EPOCH -> DateFunctions.Field.EPOCH;
            case HOUR -> DateFunctions.Field.HOUR;
            case MINUTE -> DateFunctions.Field.MINUTE;
            case SECOND -> DateFunctions.Field.SECOND;
            case MILLISECOND -> DateFunctions.Field.MILLISECOND;
            case MICROSECOND -> DateFunctions.Field.MICROSECOND;
            case ISODOW -> DateFunctions.Field.ISODOW;
            case ISOYEAR -> DateFunctions.Field.ISOYEAR;
            default -> throw unsupported("EXTRACT(" + unit + ") from a " + date.type());
        };
        if (date.type().kind() == TypeKind.TIMESTAMP_TZ) {
            // The epoch is the instant's; every other field is read off the session's wall clock.
            date = field == DateFunctions.Field.EPOCH ? new Retyped(ColumnType.TIMESTAMP, date)
                    : cast(ColumnType.TIMESTAMP, date);
        }
        return new DateFunctions.Extract(type, field, date);
    }

    /**
     * {@code value AT TIME ZONE zone}: a TIMESTAMP (or DATE) read as wall-clock time in the zone gives the instant, an
     * instant (or text, read as one) gives its wall-clock time in the zone. The zone is parsed once when it is a
     * constant, else per row.
     */
    private Expr atTimeZone(String name, ColumnType type, List<RexNode> ops) {
        boolean toInstant = type.kind() == TypeKind.TIMESTAMP_TZ;
        Expr value = build(ops.get(0));
        Expr input = toInstant ? cast(ColumnType.TIMESTAMP, value) : cast(ColumnType.TIMESTAMP_TZ, value);
        Expr zone = cast(ColumnType.VARCHAR, build(ops.get(1)));
        if (zone instanceof Literal literal && literal.value() instanceof String text) {
            ZoneId id = zoneNamed(text);
            return new RowFunction(name, type, List.of(input), false, a -> convert((Long) a[0], id, toInstant));
        }
        return new RowFunction(name, type, List.of(input, zone), false,
                a -> convert((Long) a[0], zoneNamed((String) a[1]), toInstant));
    }

    private static long convert(long value, ZoneId zone, boolean toInstant) {
        return toInstant ? ZonedTimestamps.fromLocal(value, zone) : ZonedTimestamps.toLocal(value, zone);
    }

    private static ZoneId zoneNamed(String text) {
        try {
            return TimeZones.setting(text);
        } catch (ValueFormatException e) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "AT TIME ZONE: " + e.getMessage());
        }
    }

    /** to_char of a date or timestamp (DateTimeFormat) or of a number (NumberFormat). */
    private Expr toChar(String name, ColumnType type, List<RexNode> ops) {
        Expr value = build(ops.get(0));
        Expr template = cast(ColumnType.VARCHAR, build(ops.get(1)));
        if (temporal(value.type())) {
            return new RowFunction(name, type, List.of(cast(ColumnType.TIMESTAMP, value), template), false,
                    a -> DateTimeFormat.format((String) a[1], (Long) a[0]));
        }
        boolean doubles = value.type().kind() == TypeKind.DOUBLE;
        int scale = Numerics.isExact(value.type()) ? Numerics.scale(value.type()) : 0;
        return new RowFunction(name, type, List.of(value, template), false, a -> {
            if (doubles && (((Double) a[0]).isNaN() || ((Double) a[0]).isInfinite())) {
                return String.valueOf(a[0]);
            }
            return doubles ? NumberFormat.formatDouble((Double) a[0], (String) a[1])
                    : NumberFormat.format(BigDecimal.valueOf((Long) a[0], scale), (String) a[1]);
        });
    }

    /**
     * {@code date_part('field', value)}: EXTRACT with the field named by a text; the field must be a constant, as
     * every query that uses it writes it.
     */
    private Expr datePart(RexCall call, ColumnType type) {
        if (!(call.getOperands().get(0) instanceof RexLiteral field) || field.getValueAs(String.class) == null) {
            throw unsupported("date_part with a field that is not a constant");
        }
        String name = field.getValueAs(String.class).strip().toUpperCase(Locale.ROOT);
        TimeUnitRange unit = switch (name) {
            case "YEARS" -> TimeUnitRange.YEAR;
            case "MONTHS", "MON" -> TimeUnitRange.MONTH;
            case "DAYS" -> TimeUnitRange.DAY;
            case "HOURS" -> TimeUnitRange.HOUR;
            case "MINUTES", "MIN" -> TimeUnitRange.MINUTE;
            case "SECONDS", "SEC" -> TimeUnitRange.SECOND;
            case "WEEKS" -> TimeUnitRange.WEEK;
            case "DAYOFWEEK" -> TimeUnitRange.DOW;
            case "DAYOFYEAR" -> TimeUnitRange.DOY;
            default -> {
                try {
                    yield TimeUnitRange.valueOf(name);
                } catch (IllegalArgumentException e) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "date_part: unit '"
                            + field.getValueAs(String.class) + "' not recognized");
                }
            }
        };
        RexCall extract = (RexCall) rex.makeCall(call.getType(), SqlStdOperatorTable.EXTRACT,
                List.of(rex.makeFlag(unit), call.getOperands().get(1)));
        return extract(extract, type);
    }

    private Expr function(RexCall call, ColumnType type) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<RexNode> ops = call.getOperands();
        return switch (name) {
            case "ABS" -> {
                Expr x = build(ops.getFirst());
                yield new RowFunction("ABS", type, List.of(cast(type, x)), false, a -> a[0] instanceof Double d
                        ? (Object) Math.abs(d) : (Object) Math.abs((Long) a[0]));
            }
            case "UPPER" -> new RowFunction(name, type, buildAll(ops), false,
                    a -> ((String) a[0]).toUpperCase(Locale.ROOT));
            case "LOWER" -> new RowFunction(name, type, buildAll(ops), false,
                    a -> ((String) a[0]).toLowerCase(Locale.ROOT));
            case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH" -> new RowFunction(name, type, buildAll(ops), false,
                    a -> (long) ((String) a[0]).codePointCount(0, ((String) a[0]).length()));
            case "CONCAT" -> new RowFunction(name, type, stringArgs(ops), true, TextFunctions::concat);
            case "||" -> new RowFunction("CONCAT", type, stringArgs(ops), false, a -> {
                StringBuilder s = new StringBuilder();
                for (Object o : a) {
                    s.append(o);
                }
                return s.toString();
            });
            case "SUBSTRING", "SUBSTR" -> new RowFunction("SUBSTRING", type, buildAll(ops), false, a -> substring(a));
            // PostgreSQL's replace: every occurrence; an empty search string leaves the text as it is.
            case "REPLACE" -> new RowFunction(name, type, stringArgs(ops), false, a -> ((String) a[1]).isEmpty()
                    ? a[0] : ((String) a[0]).replace((String) a[1], (String) a[2]));
            // POSITION(s IN t): where s first starts in t, counted in characters from 1; 0 when it does not occur.
            case "POSITION" -> new RowFunction(name, type, stringArgs(ops.subList(0, 2)), false, a -> {
                String text = (String) a[1];
                int at = text.indexOf((String) a[0]);
                return at < 0 ? 0L : (long) text.codePointCount(0, at) + 1;
            });
            case "STARTS_WITH" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> ((String) a[0]).startsWith((String) a[1]) ? 1L : 0L);
            case "ENDS_WITH" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> ((String) a[0]).endsWith((String) a[1]) ? 1L : 0L);
            case "LEFT", "RIGHT" -> {
                boolean left = name.equals("LEFT");
                yield new RowFunction(name, type, List.of(cast(ColumnType.VARCHAR, build(ops.get(0))),
                        cast(ColumnType.BIGINT, build(ops.get(1)))), false, a -> left
                        ? TextFunctions.left((String) a[0], (Long) a[1])
                        : TextFunctions.right((String) a[0], (Long) a[1]));
            }
            case "LPAD", "RPAD" -> {
                boolean onTheLeft = name.equals("LPAD");
                List<Expr> args = new ArrayList<>(List.of(cast(ColumnType.VARCHAR, build(ops.get(0))),
                        cast(ColumnType.BIGINT, build(ops.get(1)))));
                args.add(ops.size() > 2 ? cast(ColumnType.VARCHAR, build(ops.get(2)))
                        : new Literal(ColumnType.VARCHAR, " "));
                yield new RowFunction(name, type, args, false,
                        a -> TextFunctions.pad((String) a[0], (Long) a[1], (String) a[2], onTheLeft));
            }
            case "LTRIM", "RTRIM", "BTRIM" -> {
                boolean leading = !name.equals("RTRIM");
                boolean trailing = !name.equals("LTRIM");
                List<Expr> args = new ArrayList<>(stringArgs(ops));
                if (args.size() == 1) {
                    args.add(new Literal(ColumnType.VARCHAR, " "));
                }
                yield new RowFunction(name, type, args, false,
                        a -> TextFunctions.trim((String) a[0], (String) a[1], leading, trailing));
            }
            case "REVERSE" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> TextFunctions.reverse((String) a[0]));
            case "MD5" -> new RowFunction(name, type, stringArgs(ops), false, a -> TextFunctions.md5((String) a[0]));
            case "CHR" -> new RowFunction(name, type, List.of(cast(ColumnType.BIGINT, build(ops.getFirst()))), false,
                    a -> TextFunctions.chr((Long) a[0]));
            case "STRPOS" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> TextFunctions.strpos((String) a[0], (String) a[1]));
            case "CONCAT_WS" -> new RowFunction(name, type, stringArgs(ops), true, TextFunctions::concatWithSeparator);
            case "TRANSLATE3" -> new RowFunction("TRANSLATE", type, stringArgs(ops), false,
                    a -> TextFunctions.translate((String) a[0], (String) a[1], (String) a[2]));
            case "TO_HEX" -> {
                Expr x = build(ops.getFirst());
                boolean thirtyTwoBits = x.type().kind() == TypeKind.INTEGER;
                yield new RowFunction(name, type, List.of(cast(ColumnType.BIGINT, x)), false,
                        a -> TextFunctions.toHex((Long) a[0], thirtyTwoBits));
            }
            case "MAKE_DATE" -> new RowFunction(name, type, List.of(cast(ColumnType.BIGINT, build(ops.get(0))),
                    cast(ColumnType.BIGINT, build(ops.get(1))), cast(ColumnType.BIGINT, build(ops.get(2)))), false,
                    a -> TextFunctions.makeDate((Long) a[0], (Long) a[1], (Long) a[2]));
            case "DATE_PART" -> datePart(call, type);
            case "PI" -> new Literal(type, Math.PI);
            case "CBRT" -> doubleFunction(name, type, ops, Math::cbrt);
            case "DEGREES" -> doubleFunction(name, type, ops, Math::toDegrees);
            case "RADIANS" -> doubleFunction(name, type, ops, Math::toRadians);
            case "SIN" -> doubleFunction(name, type, ops, Math::sin);
            case "COS" -> doubleFunction(name, type, ops, Math::cos);
            case "TAN" -> doubleFunction(name, type, ops, Math::tan);
            case "COT" -> doubleFunction(name, type, ops, x -> 1 / Math.tan(x));
            case "ATAN" -> doubleFunction(name, type, ops, Math::atan);
            case "ASIN" -> doubleFunction(name, type, ops, x -> NumberFunctions.inverseTrigonometric(x, true));
            case "ACOS" -> doubleFunction(name, type, ops, x -> NumberFunctions.inverseTrigonometric(x, false));
            case "ATAN2" -> new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.get(0))),
                    cast(ColumnType.DOUBLE, build(ops.get(1)))), false, a -> Math.atan2((Double) a[0], (Double) a[1]));
            case "LOG" -> ops.size() == 1 ? doubleFunction(name, type, ops, x -> NumberFunctions.logarithm(10, x))
                    : new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.get(0))),
                    cast(ColumnType.DOUBLE, build(ops.get(1)))), false,
                    a -> NumberFunctions.logarithm((Double) a[0], (Double) a[1]));
            case "GCD", "LCM" -> {
                boolean gcd = name.equals("GCD");
                yield new RowFunction(name, type, List.of(cast(ColumnType.BIGINT, build(ops.get(0))),
                        cast(ColumnType.BIGINT, build(ops.get(1)))), false, a -> gcd
                        ? NumberFunctions.gcd((Long) a[0], (Long) a[1])
                        : NumberFunctions.lcm((Long) a[0], (Long) a[1]));
            }
            case "FACTORIAL" -> new RowFunction(name, type, List.of(cast(ColumnType.BIGINT, build(ops.getFirst()))),
                    false, a -> NumberFunctions.factorial((Long) a[0]));
            case "WIDTH_BUCKET" -> new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.get(0))),
                    cast(ColumnType.DOUBLE, build(ops.get(1))), cast(ColumnType.DOUBLE, build(ops.get(2))),
                    cast(ColumnType.BIGINT, build(ops.get(3)))), false, a -> NumberFunctions.widthBucket(
                    (Double) a[0], (Double) a[1], (Double) a[2], (Long) a[3]));
            case "RANDOM" -> new RowFunction(name, type, List.of(), false,
                    a -> ThreadLocalRandom.current().nextDouble());
            case "INITCAP" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> TextFunctions.initcap((String) a[0]));
            case "REPEAT" -> new RowFunction(name, type, List.of(cast(ColumnType.VARCHAR, build(ops.get(0))),
                    cast(ColumnType.BIGINT, build(ops.get(1)))), false,
                    a -> TextFunctions.repeat((String) a[0], (Long) a[1]));
            case "QUOTE_LITERAL" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> TextFunctions.quoteLiteral((String) a[0]));
            case "BIT_LENGTH" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> 8L * ((String) a[0]).getBytes(StandardCharsets.UTF_8).length);
            case "OCTET_LENGTH" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> (long) ((String) a[0]).getBytes(StandardCharsets.UTF_8).length);
            case "OVERLAY" -> {
                List<Expr> args = new ArrayList<>(stringArgs(ops.subList(0, 2)));
                for (RexNode bound : ops.subList(2, ops.size())) {
                    args.add(cast(ColumnType.BIGINT, build(bound)));
                }
                yield new RowFunction(name, type, args, false, a -> TextFunctions.overlay((String) a[0],
                        (String) a[1], (Long) a[2], a.length > 3 ? (Long) a[3] : null));
            }
            case "REGEXP_LIKE" -> regexpLike(name, type, ops);
            case "TO_DATE" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> DateTimeParse.toDate((String) a[0], (String) a[1]));
            case "TRUNC" -> rounding(name, call, type);
            case "TRIM" -> trim(call, type);
            case "SQRT" -> new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.getFirst()))),
                    false, a -> (Double) a[0] < 0 ? null : (Object) Math.sqrt((Double) a[0]));
            case "POWER" -> new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.get(0))),
                    cast(ColumnType.DOUBLE, build(ops.get(1)))), false,
                    a -> Math.pow((Double) a[0], (Double) a[1]));
            case "ROUND", "FLOOR", "CEIL", "CEILING" -> rounding(name, call, type);
            // Out of the domain (a logarithm of zero or less) is NULL.
            case "LN" -> doubleFunction(name, type, ops, x -> x > 0 ? Math.log(x) : null);
            case "LOG10" -> doubleFunction(name, type, ops, x -> x > 0 ? Math.log10(x) : null);
            case "EXP" -> doubleFunction(name, type, ops, Math::exp);
            case "SIGN" -> {
                Expr x = build(ops.getFirst());
                yield new RowFunction(name, type, List.of(cast(type, x)), false, a -> a[0] instanceof Double d
                        ? (Object) Math.signum(d) : (Object) ((long) Long.signum((Long) a[0]) * unit(type)));
            }
            case "GREATEST", "LEAST" -> extreme(name, type, ops);
            case "SPLIT_PART" -> new RowFunction(name, type, List.of(cast(ColumnType.VARCHAR, build(ops.get(0))),
                    cast(ColumnType.VARCHAR, build(ops.get(1))), build(ops.get(2))), false,
                    a -> splitPart((String) a[0], (String) a[1], ((Number) a[2]).longValue()));
            case "REGEXP_REPLACE" -> regexpReplace(name, type, ops);
            case "DATE_TRUNC" -> {
                Expr value = build(ops.get(1));
                boolean zoned = value.type().kind() == TypeKind.TIMESTAMP_TZ;
                if (zoned) {
                    // Truncated on the session's wall clock (midnight there, not at UTC), as PostgreSQL does.
                    value = cast(ColumnType.TIMESTAMP, value);
                }
                boolean timestamp = value.type().kind() == TypeKind.TIMESTAMP;
                Expr truncated = new RowFunction(name, value.type(), List.of(cast(ColumnType.VARCHAR,
                        build(ops.get(0))), value), false, a -> timestamp
                        ? DateFunctions.truncateTimestamp((String) a[0], (Long) a[1])
                        : DateFunctions.truncate((String) a[0], (Long) a[1]));
                yield zoned ? cast(ColumnType.TIMESTAMP_TZ, truncated) : truncated;
            }
            case "CURRENT_DATE" -> new Literal(type, LocalDate.now(SessionTimeZone.get()).toEpochDay());
            // The binder puts the statement's time in place of these; compiled on their own, they read the clock.
            case "NOW", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "TRANSACTION_TIMESTAMP", "STATEMENT_TIMESTAMP" ->
                    new Literal(ColumnType.TIMESTAMP, Timestamps.of(LocalDateTime.now(SessionTimeZone.get())));
            case "DATE_PLUS_DAYS", "DATE_MINUS_DAYS", "DATE_DIFFERENCE" -> dayArithmetic(name, type, ops);
            case "TIMESTAMP_DIFFERENCE" -> {
                Expr a = build(ops.get(0));
                Expr b = build(ops.get(1));
                // Between instants when either is one (a TIMESTAMP is then read in the session's zone).
                ColumnType common = a.type().kind() == TypeKind.TIMESTAMP_TZ
                        || b.type().kind() == TypeKind.TIMESTAMP_TZ ? ColumnType.TIMESTAMP_TZ : ColumnType.TIMESTAMP;
                yield IntervalArithmetic.difference(type, new Retyped(ColumnType.TIMESTAMP, cast(common, a)),
                        new Retyped(ColumnType.TIMESTAMP, cast(common, b)));
            }
            case "TO_CHAR" -> toChar(name, type, ops);
            case "AT_TIME_ZONE" -> atTimeZone(name, type, ops);
            case "TO_TIMESTAMP" -> new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.getFirst()))),
                    false, a -> {
                        double seconds = (Double) a[0];
                        if (!Double.isFinite(seconds) || Math.abs(seconds) > 9.2e12) {
                            throw new LocusSqlException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: "
                                    + seconds + " seconds since the epoch");
                        }
                        long micros = Math.round(seconds * 1e6);
                        return Timestamps.checked(micros, seconds);
                    });
            case "DATE_DIFF_UNITS" -> new RowFunction("DATE_DIFF", type, List.of(cast(ColumnType.VARCHAR,
                    build(ops.get(0))), cast(ColumnType.TIMESTAMP, build(ops.get(1))),
                    cast(ColumnType.TIMESTAMP, build(ops.get(2)))), false,
                    a -> DateFunctions.difference((String) a[0], (Long) a[1], (Long) a[2]));
            case "DECIMAL_TEXT" -> new Cast(type, build(ops.getFirst()));
            case "POSIX REGEX CASE SENSITIVE", "POSIX REGEX CASE INSENSITIVE", "NEGATED POSIX REGEX CASE SENSITIVE",
                 "NEGATED POSIX REGEX CASE INSENSITIVE" -> regex(name, type, ops);
            case "SIMILAR TO", "NOT SIMILAR TO" -> similarTo(name, type, ops);
            default -> catalogFunction(name, call, type);
        };
    }

    /**
     * PostgreSQL's date arithmetic on whole days: a DATE is its epoch day, so a day count is added or subtracted as a
     * BIGINT and the sum read as a DATE again; the difference of two dates is their epoch days' difference.
     */
    private Expr dayArithmetic(String name, ColumnType type, List<RexNode> ops) {
        Expr a = build(ops.get(0));
        Expr b = build(ops.get(1));
        if (name.equals("DATE_DIFFERENCE")) {
            return cast(type, new Arithmetic(ColumnType.BIGINT, Arithmetic.Op.SUBTRACT,
                    new Retyped(ColumnType.BIGINT, a), new Retyped(ColumnType.BIGINT, b)));
        }
        Expr date = a.type().kind() == TypeKind.DATE ? a : b;
        Expr days = cast(ColumnType.BIGINT, date == a ? b : a);
        Arithmetic.Op op = name.equals("DATE_PLUS_DAYS") ? Arithmetic.Op.ADD : Arithmetic.Op.SUBTRACT;
        return new Retyped(type, new Arithmetic(ColumnType.BIGINT, op, new Retyped(ColumnType.BIGINT, date), days));
    }

    private interface DoubleBody {
        Double apply(double x);
    }

    private Expr doubleFunction(String name, ColumnType type, List<RexNode> ops, DoubleBody body) {
        return new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, build(ops.getFirst()))), false,
                a -> body.apply((Double) a[0]));
    }

    /** 1 in a DECIMAL's scaled representation, so that SIGN of a DECIMAL reads as -1, 0 or 1. */
    private static long unit(ColumnType type) {
        return Numerics.isExact(type) ? BigDecimal.ONE.scaleByPowerOfTen(Numerics.scale(type)).longValueExact() : 1;
    }

    /** GREATEST and LEAST as PostgreSQL has them: NULL arguments are skipped; NULL only when all are NULL. */
    private Expr extreme(String name, ColumnType type, List<RexNode> ops) {
        List<Expr> args = new ArrayList<>();
        for (RexNode op : ops) {
            args.add(cast(type, build(op)));
        }
        boolean greatest = name.equals("GREATEST");
        return new RowFunction(name, type, args, true, a -> {
            Object best = null;
            for (Object v : a) {
                if (v != null && (best == null || compareValues(v, best) * (greatest ? 1 : -1) > 0)) {
                    best = v;
                }
            }
            return best;
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }

    /** PostgreSQL's split_part: the n-th field (from 1; from the end when negative), empty past the last. */
    static String splitPart(String text, String delimiter, long n) {
        if (n == 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "split_part: the field position must not be zero");
        }
        List<String> fields = new ArrayList<>();
        if (delimiter.isEmpty()) {
            fields.add(text);
        } else {
            int from = 0;
            for (int at = text.indexOf(delimiter); at >= 0; at = text.indexOf(delimiter, from)) {
                fields.add(text.substring(from, at));
                from = at + delimiter.length();
            }
            fields.add(text.substring(from));
        }
        long index = n > 0 ? n - 1 : fields.size() + n;
        return index < 0 || index >= fields.size() ? "" : fields.get((int) index);
    }

    /**
     * PostgreSQL's regexp_replace: the first match replaced, or every match with flag {@code g}; {@code i} ignores
     * case. {@code \1}..{@code \9} in the replacement name groups (Java's {@code $1}), {@code \&} the match.
     */
    private Expr regexpReplace(String name, ColumnType type, List<RexNode> ops) {
        List<Expr> args = new ArrayList<>();
        for (RexNode op : ops) {
            args.add(cast(ColumnType.VARCHAR, build(op)));
        }
        return new RowFunction(name, type, args, false, a -> {
            String flags = a.length > 3 ? (String) a[3] : "";
            for (char f : flags.toCharArray()) {
                if (f != 'g' && f != 'i') {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "regexp_replace: unknown flag '" + f
                            + "' (LocusDB knows g and i)");
                }
            }
            Pattern pattern;
            try {
                pattern = Pattern.compile((String) a[1], flags.indexOf('i') >= 0
                        ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
            } catch (PatternSyntaxException e) {
                throw new LocusSqlException(SqlState.INVALID_PARAMETER, "invalid regular expression '" + a[1]
                        + "': " + e.getDescription());
            }
            String replacement = javaReplacement((String) a[2]);
            Matcher m = pattern.matcher((String) a[0]);
            return flags.indexOf('g') >= 0 ? m.replaceAll(replacement) : m.replaceFirst(replacement);
        });
    }

    /** PostgreSQL's regexp_like(s, pattern[, flags]): whether the pattern matches anywhere in s (flag i: any case). */
    private Expr regexpLike(String name, ColumnType type, List<RexNode> ops) {
        return new RowFunction(name, type, stringArgs(ops), false, a -> {
            String flags = a.length > 2 ? (String) a[2] : "";
            for (char f : flags.toCharArray()) {
                if (f != 'i' && f != 'c') {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "regexp_like: unknown flag '" + f
                            + "' (LocusDB knows i and c)");
                }
            }
            try {
                return Pattern.compile((String) a[1], flags.lastIndexOf('i') > flags.lastIndexOf('c')
                        ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0).matcher((String) a[0]).find() ? 1L : 0L;
            } catch (PatternSyntaxException e) {
                throw new LocusSqlException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression '"
                        + a[1] + "': " + e.getDescription());
            }
        });
    }

    /** A PostgreSQL replacement string in Java's syntax: {@code \n} is {@code $n}, {@code \&} the whole match. */
    private static String javaReplacement(String pg) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < pg.length(); i++) {
            char c = pg.charAt(i);
            if (c == '\\' && i + 1 < pg.length()) {
                char next = pg.charAt(++i);
                if (next >= '0' && next <= '9') {
                    s.append('$').append(next);
                } else if (next == '&') {
                    s.append("$0");
                } else {
                    s.append(Matcher.quoteReplacement(String.valueOf(next)));
                }
            } else {
                s.append(Matcher.quoteReplacement(String.valueOf(c)));
            }
        }
        return s.toString();
    }

    /**
     * PostgreSQL's {@code ~}, {@code ~*}, {@code !~}, {@code !~*}: whether the pattern (Java's regular expressions,
     * which read PostgreSQL's common ones alike) matches somewhere in the text. A constant pattern is compiled once.
     */
    private Expr regex(String name, ColumnType type, List<RexNode> ops) {
        boolean negated = name.startsWith("NEGATED");
        int flags = name.endsWith("INSENSITIVE") ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
        Pattern[] last = new Pattern[1];
        return new RowFunction(name, type, stringArgs(ops.subList(0, 2)), false, a -> {
            Pattern p = last[0];
            if (p == null || !p.pattern().equals(a[1])) {
                try {
                    p = Pattern.compile((String) a[1], flags);
                } catch (PatternSyntaxException e) {
                    throw new LocusSqlException(SqlState.INVALID_PARAMETER, "invalid regular expression: "
                            + e.getDescription());
                }
                last[0] = p;
            }
            return p.matcher((String) a[0]).find() != negated ? 1L : 0L;
        });
    }

    /**
     * {@code s [NOT] SIMILAR TO pattern [ESCAPE e]}: the standard's regular expressions ({@code %}, {@code _},
     * {@code |}, {@code *}, {@code +}, {@code ?}, {@code {m,n}}, groups and brackets) matched against the whole
     * text, read as PostgreSQL reads them; the last pattern's translation is kept.
     */
    private Expr similarTo(String name, ColumnType type, List<RexNode> ops) {
        boolean negated = name.startsWith("NOT");
        // One immutable entry, replaced whole: tasks on other threads read either the old one or the new one.
        AtomicReference<CompiledSimilar> last = new AtomicReference<>();
        return new RowFunction(name, type, stringArgs(ops), false, a -> {
            String escape = a.length > 2 ? (String) a[2] : "\\";
            CompiledSimilar seen = last.get();
            if (seen == null || !seen.pattern().equals(a[1]) || !seen.escape().equals(escape)) {
                seen = new CompiledSimilar((String) a[1], escape, SimilarPattern.compile((String) a[1], escape));
                last.set(seen);
            }
            return seen.regex().matcher((String) a[0]).matches() != negated ? 1L : 0L;
        });
    }

    private record CompiledSimilar(String pattern, String escape, Pattern regex) {
    }

    /**
     * PostgreSQL's catalog functions, answered from what LocusDB has: no comments, stored expressions, privileges
     * or owners, so descriptions are NULL, every object is visible and every privilege granted.
     */
    private Expr catalogFunction(String name, RexCall call, ColumnType type) {
        List<RexNode> ops = call.getOperands();
        return switch (name) {
            case "FORMAT_TYPE" -> new RowFunction(name, type, buildAll(ops), true, a -> a[0] == null ? null
                    : PgTypeInfo.formatType(((Number) a[0]).longValue(), a.length > 1 && a[1] != null
                    ? ((Number) a[1]).intValue() : -1));
            case "PG_GET_USERBYID" -> new RowFunction(name, type, buildAll(ops), false, a -> PgOids.OWNER_NAME);
            case "OBJ_DESCRIPTION", "COL_DESCRIPTION", "SHOBJ_DESCRIPTION", "PG_GET_VIEWDEF", "PG_GET_INDEXDEF",
                 "PG_GET_CONSTRAINTDEF", "PG_GET_FUNCTIONDEF", "PG_ADVISORY_UNLOCK_ALL",
                 "PG_GET_STATISTICSOBJDEF_COLUMNS", "PG_GET_TRIGGERDEF", "PG_GET_RULEDEF", "PG_GET_PARTKEYDEF",
                 "PG_GET_SERIAL_SEQUENCE" ->
                    new RowFunction(name, type, buildAll(ops), true, a -> null);
            // LocusDB has no stored expressions and no arrays: what the catalogs hold in those columns is NULL or
            // text, which reads back as it is.
            case "PG_GET_EXPR", "ARRAY_TO_STRING" -> new RowFunction(name, type, stringArgs(ops.subList(0, 1)), false,
                    a -> a[0]);
            case "PG_ENCODING_TO_CHAR" -> new RowFunction(name, type, buildAll(ops), false,
                    a -> ((Number) a[0]).intValue() == 6 ? "UTF8" : ((Number) a[0]).intValue() == 0 ? "SQL_ASCII"
                            : "");
            case "PG_TABLE_IS_VISIBLE", "PG_TYPE_IS_VISIBLE", "PG_FUNCTION_IS_VISIBLE", "HAS_TABLE_PRIVILEGE",
                 "HAS_SCHEMA_PRIVILEGE", "HAS_DATABASE_PRIVILEGE", "HAS_COLUMN_PRIVILEGE", "HAS_ANY_COLUMN_PRIVILEGE",
                 "HAS_FUNCTION_PRIVILEGE", "HAS_SEQUENCE_PRIVILEGE" ->
                    new RowFunction(name, type, buildAll(ops), false, a -> 1L);
            // PostgreSQL's quote_ident: double quotes unless the name is lower-case letters, digits and '_'.
            case "QUOTE_IDENT" -> new RowFunction(name, type, stringArgs(ops), false,
                    a -> PgFormat.quoteIdent((String) a[0]));
            case "TO_REGTYPE" -> new RowFunction(name, type, stringArgs(ops), false, a -> {
                PgTypeInfo t = PgTypeInfo.byName((String) a[0]);
                return t == null ? null : (Object) t.oid();
            });
            case "PG_IS_IN_RECOVERY" -> new RowFunction(name, type, List.of(), false, a -> 0L);
            case "PG_REGCLASS" -> new RowFunction(name, type, buildAll(ops), false, a -> a[0] instanceof String s
                    ? (Object) regclassOid(s) : (Object) ((Number) a[0]).longValue());
            case "FORMAT" -> {
                if (ops.isEmpty()) {
                    throw new LocusSqlException(SqlState.UNDEFINED_FUNCTION, "format() needs a format string");
                }
                yield new RowFunction(name, type, stringArgs(ops), true, PgFormat::format);
            }
            // LocusDB has no logical replication: no relation is published.
            case "PG_RELATION_IS_PUBLISHABLE" -> new RowFunction(name, type, List.of(), false, a -> 0L);
            case "CURRENT_SCHEMA" -> new RowFunction(name, type, List.of(), false, a -> "public");
            default -> throw unsupported("the function " + call.getOperator().getName());
        };
    }

    /** A relation's OID from its name, or the OID itself written as digits. */
    private static long regclassOid(String text) {
        String t = text.strip();
        if (!t.matches("\\d+")) {
            return PgOids.regclass(t);
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new LocusSqlException(SqlState.NUMERIC_OUT_OF_RANGE, "OID out of range: " + t);
        }
    }

    private List<Expr> stringArgs(List<RexNode> ops) {
        List<Expr> args = new ArrayList<>();
        for (RexNode op : ops) {
            Expr e = build(op);
            args.add(e.type().physical() == TypeKind.Physical.STRING ? e : new Cast(ColumnType.VARCHAR, e));
        }
        return args;
    }

    private static Object substring(Object[] a) {
        String s = (String) a[0];
        long start = (Long) a[1];
        long end = a.length > 2 ? start + (Long) a[2] : Long.MAX_VALUE;
        if (a.length > 2 && (Long) a[2] < 0) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "negative SUBSTRING length " + a[2]);
        }
        long from = Math.max(1, start);
        long to = Math.min(s.length() + 1L, end);
        return from >= to ? "" : s.substring((int) from - 1, (int) to - 1);
    }

    private Expr trim(RexCall call, ColumnType type) {
        List<RexNode> ops = call.getOperands();
        SqlTrimFunction.Flag flag = ((RexLiteral) ops.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        Expr chars = build(ops.get(1));
        Expr input = build(ops.get(2));
        return new RowFunction("TRIM", type, List.of(chars, input), false, a -> {
            String c = (String) a[0];
            String s = (String) a[1];
            int from = 0;
            int to = s.length();
            if (flag != SqlTrimFunction.Flag.TRAILING) {
                while (from < to && c.indexOf(s.charAt(from)) >= 0) {
                    from++;
                }
            }
            if (flag != SqlTrimFunction.Flag.LEADING) {
                while (to > from && c.indexOf(s.charAt(to - 1)) >= 0) {
                    to--;
                }
            }
            return s.substring(from, to);
        });
    }

    private Expr rounding(String name, RexCall call, ColumnType type) {
        List<RexNode> ops = call.getOperands();
        Expr x = build(ops.getFirst());
        Expr digits = ops.size() > 1 ? build(ops.get(1)) : new Literal(ColumnType.INTEGER, 0L);
        RoundingMode mode = switch (name) {
            case "ROUND" -> RoundingMode.HALF_UP;
            case "TRUNC" -> RoundingMode.DOWN;
            case "FLOOR" -> RoundingMode.FLOOR;
            default -> RoundingMode.CEILING;
        };
        if (type.kind() == TypeKind.DOUBLE) {
            return new RowFunction(name, type, List.of(cast(ColumnType.DOUBLE, x), digits), false, a -> {
                double d = (Double) a[0];
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    return d;
                }
                return BigDecimal.valueOf(d).setScale((int) (long) (Long) a[1], mode).doubleValue();
            });
        }
        if (!Numerics.isExact(type) || !Numerics.isExact(x.type())) {
            throw unsupported(name + " of " + x.type());
        }
        int inScale = Numerics.scale(x.type());
        int outScale = Numerics.scale(type);
        return new RowFunction(name, type, List.of(x, digits), false, a -> {
            BigDecimal d = BigDecimal.valueOf((Long) a[0], inScale).setScale((int) (long) (Long) a[1], mode)
                    .setScale(outScale, RoundingMode.HALF_UP);
            return d.unscaledValue().longValueExact();
        });
    }

    private static LocusSqlException unsupported(String what) {
        return new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported yet");
    }
}
