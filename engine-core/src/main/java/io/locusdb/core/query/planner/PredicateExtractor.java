package io.locusdb.core.query.planner;

import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import io.locusdb.core.query.scan.ScanPredicate;
import io.locusdb.core.query.scan.ValueRange;
import io.locusdb.core.query.scan.ValueRangeUnion;
import io.locusdb.core.query.scan.ValueSet;
import io.locusdb.core.storage.table.Schema;
import io.locusdb.core.storage.type.ColumnType;
import io.locusdb.core.storage.type.Timestamps;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimestampString;

/**
 * Splits a filter condition over a table scan into the conjuncts the packed-code scan evaluates (a column compared
 * with a constant; a SEARCH, i.e. BETWEEN, an IN list or an OR of ranges on one column; an OR of such comparisons on
 * one column, as a bound {@code k IN (?, ?)} is) and a residual for the rest, which later operators
 * evaluate on materialized rows. Constants become the column's physical values: scaled longs for DECIMAL (a bound
 * with more fractional digits than the column rounds inward and becomes inclusive), epoch days for DATE.
 */
public final class PredicateExtractor {
    private PredicateExtractor() {
    }

    /** The pushed-down ranges and what is left ({@code residual} null when everything was pushed). */
    public record Extracted(List<ScanPredicate> ranges, RexNode residual) {
    }

    /** {@code condition} may be null (no filter): then nothing is pushed and nothing is left. */
    public static Extracted extract(RexNode condition, Schema schema, RexBuilder rex) {
        if (condition == null) {
            return new Extracted(List.of(), null);
        }
        List<ScanPredicate> ranges = new ArrayList<>();
        List<RexNode> rest = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            ScanPredicate range = toRange(conjunct, schema);
            if (range != null) {
                ranges.add(range);
            } else {
                rest.add(conjunct);
            }
        }
        return new Extracted(List.copyOf(ranges), rest.isEmpty() ? null : RexUtil.composeConjunction(rex, rest));
    }

    /**
     * An OR whose every branch is a range on one and the same column (what {@code k IN (?, ?)} becomes once its
     * parameters are bound: Calcite folds only literals into a SEARCH) as one union; null otherwise.
     */
    private static ScanPredicate union(RexCall or, Schema schema) {
        List<ValueRange> ranges = new ArrayList<>();
        int column = -1;
        for (RexNode disjunct : RelOptUtil.disjunctions(or)) {
            ScanPredicate branch = toRange(disjunct, schema);
            if (branch == null || column >= 0 && branch.column() != column) {
                return null;
            }
            column = branch.column();
            switch (branch) {
                case ValueRange r -> ranges.add(r);
                case ValueRangeUnion u -> ranges.addAll(u.ranges());
                case ValueSet set -> {
                    return null;
                }
            }
        }
        return ranges.size() == 1 ? ranges.getFirst() : new ValueRangeUnion(column, ranges);
    }

    private static ScanPredicate toRange(RexNode node, Schema schema) {
        if (!(node instanceof RexCall call)) {
            return null;
        }
        if (call.getKind() == SqlKind.SEARCH && call.operands.get(0) instanceof RexInputRef ref
                && call.operands.get(1) instanceof RexLiteral literal) {
            Sarg<?> sarg = literal.getValueAs(Sarg.class);
            if (sarg == null || sarg.nullAs != RexUnknownAs.UNKNOWN && sarg.nullAs != RexUnknownAs.FALSE
                    || sarg.rangeSet.isEmpty()) {
                return null;
            }
            ColumnType type = schema.column(ref.getIndex()).type();
            // An IN list or an OR of ranges on one column: a union the scan evaluates range by range.
            List<ValueRange> ranges = new ArrayList<>();
            for (Range<?> range : sarg.rangeSet.asRanges()) {
                ValueRange r = toValueRange(ref.getIndex(), range, type);
                if (r == null) {
                    return null;
                }
                ranges.add(r);
            }
            return ranges.size() == 1 ? ranges.getFirst() : new ValueRangeUnion(ref.getIndex(), ranges);
        }
        if (call.getKind() == SqlKind.OR) {
            return union(call, schema);
        }
        SqlKind kind = call.getKind();
        if (!(kind == SqlKind.EQUALS || kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL
                || kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL)) {
            return null;
        }
        RexNode left = call.operands.get(0);
        RexNode right = call.operands.get(1);
        if (left instanceof RexLiteral && right instanceof RexInputRef) {
            RexNode swap = left;
            left = right;
            right = swap;
            kind = kind.reverse();
        }
        if (!(left instanceof RexInputRef ref) || !(right instanceof RexLiteral literal)) {
            return null;
        }
        ColumnType type = schema.column(ref.getIndex()).type();
        Comparable<?> value = literalValue(literal);
        if (value == null) {
            return null;
        }
        int column = ref.getIndex();
        return switch (kind) {
            case EQUALS -> {
                Bound lo = physical(value, type, true, true);
                Bound hi = physical(value, type, false, true);
                yield lo == null || hi == null ? null : new ValueRange(column, lo.value, lo.inclusive, hi.value,
                        hi.inclusive);
            }
            case LESS_THAN, LESS_THAN_OR_EQUAL -> {
                Bound hi = physical(value, type, false, kind == SqlKind.LESS_THAN_OR_EQUAL);
                yield hi == null ? null : new ValueRange(column, null, true, hi.value, hi.inclusive);
            }
            default -> {
                Bound lo = physical(value, type, true, kind == SqlKind.GREATER_THAN_OR_EQUAL);
                yield lo == null ? null : new ValueRange(column, lo.value, lo.inclusive, null, true);
            }
        };
    }

    private static ValueRange toValueRange(int column, Range<?> range, ColumnType type) {
        Comparable<?> lo = null;
        boolean loInclusive = true;
        Comparable<?> hi = null;
        boolean hiInclusive = true;
        if (range.hasLowerBound()) {
            Bound b = physical(range.lowerEndpoint(), type, true, range.lowerBoundType() == BoundType.CLOSED);
            if (b == null) {
                return null;
            }
            lo = b.value;
            loInclusive = b.inclusive;
        }
        if (range.hasUpperBound()) {
            Bound b = physical(range.upperEndpoint(), type, false, range.upperBoundType() == BoundType.CLOSED);
            if (b == null) {
                return null;
            }
            hi = b.value;
            hiInclusive = b.inclusive;
        }
        return new ValueRange(column, lo, loInclusive, hi, hiInclusive);
    }

    private static Comparable<?> literalValue(RexLiteral literal) {
        if (literal.isNull()) {
            return null;
        }
        if (literal.getTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            return new Instant(Timestamps.parse(literal.getValueAs(TimestampString.class).toString()));
        }
        return switch (literal.getTypeName().getFamily()) {
            case NUMERIC -> literal.getValueAs(BigDecimal.class);
            case DATE -> literal.getValueAs(DateString.class);
            case TIMESTAMP -> literal.getValueAs(TimestampString.class);
            case CHARACTER -> literal.getValueAs(String.class);
            default -> null;
        };
    }

    private record Bound(Comparable<?> value, boolean inclusive) {
    }

    /** A TIMESTAMP WITH TIME ZONE constant: microseconds since the epoch at UTC. */
    private record Instant(long micros) implements Comparable<Instant> {
        @Override
        public int compareTo(Instant other) {
            return Long.compare(micros, other.micros);
        }
    }

    /** A constant as the column's physical value; null when the column's type does not take it. */
    private static Bound physical(Object value, ColumnType type, boolean lower, boolean inclusive) {
        switch (type.kind()) {
            case DECIMAL, INTEGER, BIGINT -> {
                if (!(value instanceof BigDecimal d)) {
                    return null;
                }
                int scale = type.kind() == io.locusdb.core.storage.type.TypeKind.DECIMAL ? type.scale() : 0;
                BigDecimal scaled = d.movePointRight(scale);
                BigDecimal rounded = scaled.setScale(0, lower ? RoundingMode.CEILING : RoundingMode.FLOOR);
                // Rounded inward past the constant: the new bound itself satisfies the original comparison.
                boolean exact = rounded.compareTo(scaled) == 0;
                try {
                    return new Bound(rounded.longValueExact(), exact ? inclusive : true);
                } catch (ArithmeticException overflow) {
                    return null;
                }
            }
            case DOUBLE -> {
                return value instanceof BigDecimal d ? new Bound(d.doubleValue(), inclusive) : null;
            }
            case DATE -> {
                return value instanceof DateString date ? new Bound((long) date.getDaysSinceEpoch(), inclusive) : null;
            }
            case TIMESTAMP -> {
                return value instanceof TimestampString t ? new Bound(Timestamps.parse(t.toString()), inclusive)
                        : null;
            }
            case TIMESTAMP_TZ -> {
                return value instanceof Instant i ? new Bound(i.micros(), inclusive) : null;
            }
            case VARCHAR -> {
                return value instanceof String s ? new Bound(s, inclusive) : value instanceof NlsString n
                        ? new Bound(n.getValue(), inclusive) : null;
            }
            default -> {
                // CHAR comparisons pad; BOOLEAN is not a range: both stay in the residual.
                return null;
            }
        }
    }
}
