package io.locusdb.core.query.planner;

import io.locusdb.core.query.expr.SessionTimeZone;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.Timestamps;
import io.locusdb.core.storage.type.ValueFormatException;
import io.locusdb.core.storage.type.ZonedTimestamps;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Replaces {@code ?} parameters with literals of the bound values before physical planning, so a bound range
 * is pushed down to the packed-code scan exactly like a literal one. Values keep their own precision (0.055 bound
 * to a DECIMAL(15,2) comparison stays 0.055); a value that cannot stand for the parameter's type is an error naming
 * the parameter.
 */
public final class ParameterBinder {
    private final RexBuilder rex;
    private final Object[] values;
    /**
     * The statement's time for now(), CURRENT_TIMESTAMP and LOCALTIMESTAMP: one value for the whole statement, as in
     * PostgreSQL, taken when the statement is bound (a binder serves one execution): the wall-clock time in the
     * session's zone, a TIMESTAMP (PostgreSQL types now() WITH TIME ZONE; compared with one, this is the same
     * instant, as the comparison reads a TIMESTAMP in the session's zone).
     */
    private final long statementTime = Timestamps.of(LocalDateTime.now(SessionTimeZone.get()));

    /** Functions whose value is the statement's time (PostgreSQL's transaction time: one statement here). */
    private static final Set<String> STATEMENT_TIME_FUNCTIONS = Set.of("CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "NOW",
            "TRANSACTION_TIMESTAMP", "STATEMENT_TIMESTAMP");

    public ParameterBinder(RexBuilder rex, Object[] values) {
        this.rex = rex;
        this.values = values;
    }

    public static ParameterBinder none(RexBuilder rex) {
        return new ParameterBinder(rex, new Object[0]);
    }

    public RexNode bind(RexNode node) {
        if (node == null) {
            return null;
        }
        return node.accept(new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam param) {
                return literal(param);
            }

            @Override
            public RexNode visitCall(RexCall call) {
                if (call.getOperands().isEmpty() && STATEMENT_TIME_FUNCTIONS.contains(
                        call.getOperator().getName().toUpperCase(Locale.ROOT))) {
                    return timestamp(rex, statementTime);
                }
                RexNode visited = super.visitCall(call);
                return visited instanceof RexCall cast ? instantConstant(cast) : visited;
            }
        });
    }

    private static boolean isInstant(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /** A TIMESTAMP or DATE literal as the instant its wall-clock time is in the session's zone; else null. */
    private RexNode asInstant(RexNode node) {
        if (!(node instanceof RexLiteral value) || value.isNull()) {
            return null;
        }
        try {
            long local = switch (value.getTypeName()) {
                case TIMESTAMP -> Timestamps.parse(value.getValueAs(TimestampString.class).toString());
                case DATE -> Timestamps.ofDate(value.getValueAs(DateString.class).getDaysSinceEpoch());
                default -> Long.MIN_VALUE;
            };
            if (local == Long.MIN_VALUE) {
                return null;
            }
            return rex.makeTimestampWithLocalTimeZoneLiteral(new TimestampString(Timestamps.format(Timestamps.checked(
                    ZonedTimestamps.fromLocal(local, SessionTimeZone.get()), value))), Timestamps.PRECISION);
        } catch (ValueFormatException | ArithmeticException e) {
            return null;
        }
    }

    /**
     * A constant cast to an instant ({@code '2024-03-01 10:00'} or a TIMESTAMP literal compared with a TIMESTAMP WITH
     * TIME ZONE column) as an instant literal, now that the session's zone is known: the scan can then range on it.
     * Text that does not parse is left to the cast, which reports it when it runs.
     */
    private RexNode instantConstant(RexCall call) {
        if (SqlKind.COMPARISON.contains(call.getKind()) && call.getOperands().size() == 2) {
            // An instant compared with a TIMESTAMP or DATE constant: the constant read in the session's zone.
            RexNode a = call.getOperands().get(0);
            RexNode b = call.getOperands().get(1);
            if (isInstant(a) != isInstant(b)) {
                RexNode a2 = isInstant(a) ? a : asInstant(a);
                RexNode b2 = isInstant(b) ? b : asInstant(b);
                if (a2 != null && b2 != null) {
                    return call.clone(call.getType(), List.of(a2, b2));
                }
            }
            return call;
        }
        if (call.getKind() != SqlKind.CAST
                || call.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                || !(call.getOperands().getFirst() instanceof RexLiteral value) || value.isNull()) {
            return call;
        }
        try {
            long micros;
            if (value.getTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
                micros = ZonedTimestamps.parse(value.getValueAs(String.class), SessionTimeZone.get());
            } else if (value.getTypeName() == SqlTypeName.TIMESTAMP) {
                micros = ZonedTimestamps.fromLocal(Timestamps.parse(value.getValueAs(TimestampString.class)
                        .toString()), SessionTimeZone.get());
            } else {
                return call;
            }
            return rex.makeTimestampWithLocalTimeZoneLiteral(new TimestampString(Timestamps.format(
                    Timestamps.checked(micros, value))), Timestamps.PRECISION);
        } catch (ValueFormatException | ArithmeticException e) {
            return call;
        }
    }

    public List<RexNode> bindAll(List<RexNode> nodes) {
        return nodes.stream().map(this::bind).toList();
    }

    private RexNode literal(RexDynamicParam param) {
        int index = param.getIndex();
        if (index >= values.length) {
            throw new LocusSqlException(SqlState.INVALID_PARAMETER, "parameter " + (index + 1) + " is not set");
        }
        Object value = values[index];
        RelDataType type = param.getType();
        if (value == null) {
            return rex.makeNullLiteral(type);
        }
        SqlTypeFamily family = type.getSqlTypeName().getFamily();
        try {
            if (family == SqlTypeFamily.NUMERIC) {
                return switch (type.getSqlTypeName()) {
                    case DOUBLE, FLOAT, REAL -> rex.makeApproxLiteral(decimal(value, index));
                    default -> value instanceof Double || value instanceof Float
                            ? rex.makeApproxLiteral(decimal(value, index))
                            : rex.makeExactLiteral(decimal(value, index));
                };
            }
            if (family == SqlTypeFamily.DATE) {
                LocalDate date = value instanceof LocalDate d ? d
                        : value instanceof java.sql.Date d ? d.toLocalDate() : LocalDate.parse(value.toString());
                return rex.makeDateLiteral(new DateString(date.getYear(), date.getMonthValue(),
                        date.getDayOfMonth()));
            }
            if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                ZoneId zone = SessionTimeZone.get();
                long micros = switch (value) {
                    case OffsetDateTime t -> ZonedTimestamps.of(t);
                    case ZonedDateTime t -> ZonedTimestamps.of(t.toOffsetDateTime());
                    case Instant t -> ZonedTimestamps.of(t.atOffset(ZoneOffset.UTC));
                    case Timestamp t -> ZonedTimestamps.of(t.toInstant().atOffset(ZoneOffset.UTC));
                    case LocalDateTime t -> ZonedTimestamps.fromLocal(Timestamps.of(t), zone);
                    case LocalDate d -> ZonedTimestamps.fromLocal(Timestamps.ofDate(d.toEpochDay()), zone);
                    default -> ZonedTimestamps.parse(value.toString(), zone);
                };
                return rex.makeTimestampWithLocalTimeZoneLiteral(new TimestampString(Timestamps.format(
                        Timestamps.checked(micros, value))), Timestamps.PRECISION);
            }
            if (family == SqlTypeFamily.TIMESTAMP) {
                long micros = switch (value) {
                    case OffsetDateTime t -> ZonedTimestamps.toLocal(ZonedTimestamps.of(t), SessionTimeZone.get());
                    case LocalDateTime t -> Timestamps.of(t);
                    case Timestamp t -> Timestamps.of(t.toLocalDateTime());
                    case LocalDate d -> Timestamps.ofDate(d.toEpochDay());
                    case java.sql.Date d -> Timestamps.ofDate(d.toLocalDate().toEpochDay());
                    default -> Timestamps.parse(value.toString());
                };
                return timestamp(rex, micros);
            }
            if (family == SqlTypeFamily.CHARACTER) {
                return rex.makeLiteral(value.toString());
            }
            if (family == SqlTypeFamily.BOOLEAN) {
                if (value instanceof Boolean b) {
                    return rex.makeLiteral(b);
                }
                return rex.makeLiteral(Boolean.parseBoolean(value.toString()));
            }
        } catch (DateTimeParseException | NumberFormatException | ValueFormatException | ArithmeticException e) {
            throw mismatch(index, value, type);
        }
        throw new LocusSqlException(SqlState.INVALID_PARAMETER, "parameter " + (index + 1) + " has type "
                + type.getFullTypeString() + ", which cannot be bound");
    }

    /** A TIMESTAMP(6) literal of {@code micros}. */
    static RexNode timestamp(RexBuilder rex, long micros) {
        return rex.makeTimestampLiteral(new TimestampString(Timestamps.format(micros)), Timestamps.PRECISION);
    }

    private static BigDecimal decimal(Object value, int index) {
        return switch (value) {
            case BigDecimal d -> d;
            case Double d -> BigDecimal.valueOf(d);
            case Float f -> BigDecimal.valueOf(f);
            case Number n -> BigDecimal.valueOf(n.longValue());
            case String s -> new BigDecimal(s.strip());
            default -> throw new NumberFormatException("parameter " + (index + 1));
        };
    }

    private static LocusSqlException mismatch(int index, Object value, RelDataType type) {
        return new LocusSqlException(SqlState.INVALID_PARAMETER, "parameter " + (index + 1) + " is "
                + value.getClass().getSimpleName() + " '" + value + "', which does not fit "
                + type.getFullTypeString());
    }
}
