package io.locusdb.core.query.planner;

import io.locusdb.core.query.expr.ArrayText;
import io.locusdb.core.query.expr.Cast;
import io.locusdb.core.query.expr.Comparison;
import io.locusdb.core.query.expr.Expr;
import io.locusdb.core.query.expr.Numerics;
import io.locusdb.core.query.expr.RowFunction;
import io.locusdb.core.sql.LocusSqlException;
import io.locusdb.core.sql.SqlState;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The calls that make, convert or read arrays, compiled over {@link ArrayText}'s representation: ARRAY[...],
 * CAST to an array type, subscripts ({@code a[i]}, from 1; out of range is NULL), CARDINALITY, PostgreSQL's
 * {@code array_length}, {@code array_lower}, {@code array_upper} (dimension 1; other dimensions and empty arrays give
 * NULL), {@code string_to_array} and {@code array_to_string}.
 */
final class ArrayCalls {
    private final Function<RexNode, Expr> build;

    ArrayCalls(Function<RexNode, Expr> build) {
        this.build = build;
    }

    /** Whether {@code call} is one of the calls this class compiles. */
    static boolean handles(RexCall call) {
        return switch (call.getKind()) {
            case ARRAY_VALUE_CONSTRUCTOR -> true;
            case CAST -> isArray(call.getType());
            case ITEM -> isArray(call.getOperands().getFirst().getType());
            case SOME, ALL -> call.getOperands().size() == 2 && isArray(call.getOperands().get(1).getType());
            default -> switch (call.getOperator().getName().toUpperCase(Locale.ROOT)) {
                case "CARDINALITY", "ARRAY_LENGTH", "ARRAY_LOWER", "ARRAY_UPPER", "STRING_TO_ARRAY",
                     "ARRAY_TO_STRING" -> true;
                default -> false;
            };
        };
    }

    static boolean isArray(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.ARRAY;
    }

    Expr compile(RexCall call) {
        ColumnType type = SqlTypes.of(call.getType());
        List<RexNode> ops = call.getOperands();
        if (call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
            return construct(call, type);
        }
        if (call.getKind() == SqlKind.CAST) {
            return castTo(call.getType(), ops.getFirst(), type);
        }
        if (call.getKind() == SqlKind.ITEM) {
            return item(call, type);
        }
        if (call.getKind() == SqlKind.SOME || call.getKind() == SqlKind.ALL) {
            return quantified(call, type);
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "CARDINALITY" -> new RowFunction(name, type, List.of(array(ops.getFirst())), false,
                    a -> (long) ArrayText.length((String) a[0]));
            case "ARRAY_LENGTH", "ARRAY_UPPER" -> new RowFunction(name, type, List.of(array(ops.get(0)),
                    integer(ops.get(1))), false, a -> {
                int n = ArrayText.length((String) a[0]);
                return n == 0 || (Long) a[1] != 1 ? null : (Object) (long) n;
            });
            case "ARRAY_LOWER" -> new RowFunction(name, type, List.of(array(ops.get(0)), integer(ops.get(1))), false,
                    a -> ArrayText.length((String) a[0]) == 0 || (Long) a[1] != 1 ? null : (Object) 1L);
            case "STRING_TO_ARRAY" -> stringToArray(ops, type);
            case "ARRAY_TO_STRING" -> arrayToString(ops, type);
            default -> throw new IllegalStateException("not an array call: " + call);
        };
    }

    /** ARRAY[a, b, ...]: the elements converted to the array's element type, written as array text. */
    private Expr construct(RexCall call, ColumnType type) {
        ColumnType element = SqlTypes.of(call.getType().getComponentType());
        List<Expr> args = new ArrayList<>();
        for (RexNode op : call.getOperands()) {
            args.add(ExprCompiler.cast(element, build.apply(op)));
        }
        return new RowFunction("ARRAY", type, args, true, a -> {
            List<String> elements = new ArrayList<>(a.length);
            for (Object value : a) {
                elements.add(ArrayText.elementText(value, element));
            }
            return ArrayText.format(elements);
        });
    }

    /**
     * CAST to T ARRAY, from array text or from a string ({@code '{1,2}'::int[]}): every element is converted to T
     * (an element that is not a T is an error naming it) and written in T's form.
     */
    private Expr castTo(RelDataType arrayType, RexNode operand, ColumnType type) {
        ColumnType element = SqlTypes.of(arrayType.getComponentType());
        Expr input = build.apply(operand);
        if (input.type().physical() != TypeKind.Physical.STRING) {
            throw new LocusSqlException(SqlState.INVALID_CAST, "cannot cast " + input.type() + " to "
                    + arrayType.getFullTypeString());
        }
        return new RowFunction("CAST", type, List.of(input), false, a -> {
            List<String> elements = ArrayText.parse((String) a[0]);
            List<String> converted = new ArrayList<>(elements.size());
            for (String e : elements) {
                converted.add(ArrayText.canonical(e, element));
            }
            return ArrayText.format(converted);
        });
    }

    /** {@code a[i]}: the i-th element (from 1) as a value of the element type; NULL outside the array. */
    private Expr item(RexCall call, ColumnType type) {
        List<RexNode> ops = call.getOperands();
        return new RowFunction("ITEM", type, List.of(array(ops.get(0)), integer(ops.get(1))), false, a -> {
            List<String> elements = ArrayText.parse((String) a[0]);
            long index = (Long) a[1];
            if (index < 1 || index > elements.size()) {
                return null;
            }
            return ArrayText.value(elements.get((int) index - 1), type);
        });
    }

    /**
     * {@code x op ANY (array)} and {@code x op ALL (array)}: the comparison with every element (converted to x's
     * type). ANY is true if one comparison is, else NULL if one is NULL, else false; ALL is false if one comparison
     * is, else NULL if one is NULL, else true.
     */
    private Expr quantified(RexCall call, ColumnType type) {
        Comparison.Op comparison = switch (((SqlQuantifyOperator) call.getOperator()).comparisonKind) {
            case EQUALS -> Comparison.Op.EQ;
            case NOT_EQUALS -> Comparison.Op.NE;
            case LESS_THAN -> Comparison.Op.LT;
            case LESS_THAN_OR_EQUAL -> Comparison.Op.LE;
            case GREATER_THAN -> Comparison.Op.GT;
            case GREATER_THAN_OR_EQUAL -> Comparison.Op.GE;
            default -> throw new LocusSqlException(SqlState.FEATURE_NOT_SUPPORTED, call.getOperator().getName()
                    + " over an array is not supported");
        };
        boolean all = call.getKind() == SqlKind.ALL;
        Expr left = build.apply(call.getOperands().get(0));
        ColumnType leftType = left.type();
        ColumnType elementType = SqlTypes.of(call.getOperands().get(1).getType().getComponentType());
        return new RowFunction(all ? "ALL" : "ANY", type, List.of(left, array(call.getOperands().get(1))), true,
                a -> {
                    if (a[1] == null) {
                        return null;
                    }
                    boolean sawNull = false;
                    for (String element : ArrayText.parse((String) a[1])) {
                        Object value = ArrayText.value(element, elementType);
                        if (a[0] == null || value == null) {
                            sawNull = true;
                            continue;
                        }
                        boolean holds = comparison.test(compare(comparable(a[0], leftType),
                                comparable(value, elementType)));
                        if (holds != all) {
                            return all ? 0L : 1L;
                        }
                    }
                    return sawNull ? null : (Object) (all ? 1L : 0L);
                });
    }

    /** A value as it compares across types: exact and approximate numbers as BigDecimal, others as they are. */
    private static Object comparable(Object value, ColumnType type) {
        if (value instanceof Long l && Numerics.isExact(type)) {
            return BigDecimal.valueOf(l, Numerics.scale(type));
        }
        if (value instanceof Double d && Double.isFinite(d)) {
            return BigDecimal.valueOf(d);
        }
        return value;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a.getClass() != b.getClass()) {
            throw new LocusSqlException(SqlState.DATATYPE_MISMATCH, "cannot compare " + a.getClass().getSimpleName()
                    + " values with the elements of an array of another type");
        }
        return ((Comparable) a).compareTo(b);
    }

    /**
     * PostgreSQL's {@code string_to_array(text, delimiter [, null_string])}: a NULL delimiter splits into
     * characters, an empty one gives the whole text as one element, an empty text gives an empty array; elements
     * equal to {@code null_string} are NULL.
     */
    private Expr stringToArray(List<RexNode> ops, ColumnType type) {
        List<Expr> args = new ArrayList<>();
        for (RexNode op : ops) {
            args.add(text(op));
        }
        return new RowFunction("STRING_TO_ARRAY", type, args, true, a -> {
            String s = (String) a[0];
            if (s == null) {
                return null;
            }
            String delimiter = (String) a[1];
            String nullString = a.length > 2 ? (String) a[2] : null;
            List<String> parts;
            if (s.isEmpty()) {
                parts = List.of();
            } else if (delimiter == null) {
                parts = s.codePoints().mapToObj(Character::toString).toList();
            } else if (delimiter.isEmpty()) {
                parts = List.of(s);
            } else {
                parts = splitOn(s, delimiter);
            }
            List<String> elements = new ArrayList<>(parts.size());
            for (String p : parts) {
                elements.add(p.equals(nullString) ? null : p);
            }
            return ArrayText.format(elements);
        });
    }

    private static List<String> splitOn(String s, String delimiter) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int at = s.indexOf(delimiter); at >= 0; at = s.indexOf(delimiter, from)) {
            parts.add(s.substring(from, at));
            from = at + delimiter.length();
        }
        parts.add(s.substring(from));
        return parts;
    }

    /**
     * {@code array_to_string(array, delimiter [, null_string])}: NULL elements are left out unless
     * {@code null_string} is given. A text that is not an array (a catalog column LocusDB keeps as text) reads back
     * as it is.
     */
    private Expr arrayToString(List<RexNode> ops, ColumnType type) {
        if (ops.size() < 2 || ops.size() > 3) {
            throw new LocusSqlException(SqlState.UNDEFINED_FUNCTION, "array_to_string takes an array, a delimiter"
                    + " and optionally a null string, not " + ops.size() + " argument(s)");
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode op : ops) {
            args.add(text(op));
        }
        return new RowFunction("ARRAY_TO_STRING", type, args, true, a -> {
            String array = (String) a[0];
            if (array == null || a.length > 1 && a[1] == null) {
                return null;
            }
            if (!array.strip().startsWith("{") && !isArray(ops.getFirst().getType())) {
                return array;
            }
            String delimiter = a.length > 1 ? (String) a[1] : ",";
            String nullString = a.length > 2 ? (String) a[2] : null;
            StringBuilder out = new StringBuilder();
            boolean first = true;
            for (String e : ArrayText.parse(array)) {
                String shown = e != null ? e : nullString;
                if (shown == null) {
                    continue;
                }
                if (!first) {
                    out.append(delimiter);
                }
                out.append(shown);
                first = false;
            }
            return out.toString();
        });
    }

    private Expr array(RexNode op) {
        return text(op);
    }

    private Expr text(RexNode op) {
        Expr e = build.apply(op);
        return e.type().physical() == TypeKind.Physical.STRING ? e : new Cast(ColumnType.VARCHAR, e);
    }

    private Expr integer(RexNode op) {
        Expr e = build.apply(op);
        if (e.type().kind() != TypeKind.INTEGER && e.type().kind() != TypeKind.BIGINT) {
            throw new LocusSqlException(SqlState.DATATYPE_MISMATCH, "an array subscript or dimension must be an"
                    + " integer, not " + e.type());
        }
        return e;
    }
}
