package io.locusdb.core.query.scan;

import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.column.DoubleDictionary;
import io.locusdb.core.storage.column.LongDictionary;
import io.locusdb.core.storage.column.StringDictionary;
import io.locusdb.core.storage.scan.IdRange;
import java.util.List;
import java.util.Objects;

/**
 * A comparison predicate on one column in the storage's physical values (Long for integers, scaled decimals and
 * days since the epoch; Double; String): {@code lo <(=) v <(=) hi}, either bound open-ended when null. NULL never
 * matches. On a table part it becomes an {@link IdRange} with two binary searches in that part's dictionary.
 */
public record ValueRange(int column, Comparable<?> lo, boolean loInclusive, Comparable<?> hi, boolean hiInclusive)
        implements ScanPredicate {

    public static ValueRange between(int column, Comparable<?> lo, Comparable<?> hi) {
        return new ValueRange(column, lo, true, hi, true);
    }

    public static ValueRange lessThan(int column, Comparable<?> hi) {
        return new ValueRange(column, null, true, hi, false);
    }

    public static ValueRange atLeast(int column, Comparable<?> lo) {
        return new ValueRange(column, lo, true, null, true);
    }

    public static ValueRange equalTo(int column, Comparable<?> value) {
        return new ValueRange(column, value, true, value, true);
    }

    @Override
    public List<IdRange> idRanges(Dictionary dictionary) {
        IdRange ids = idRange(dictionary);
        return ids.isEmpty() ? List.of() : List.of(ids);
    }

    /** The IDs of the part's dictionary that satisfy this range. */
    public IdRange idRange(Dictionary dictionary) {
        int size = dictionary.size();
        if (size == 0) {
            return IdRange.EMPTY;
        }
        int loId = 1;
        int hiId = size;
        switch (dictionary) {
            case LongDictionary d -> {
                if (lo != null) {
                    // A fractional bound on integers: v > 2.5 and v >= 2.5 both mean v >= 3.
                    boolean fractional = isFractional(lo);
                    long v = fractional ? (long) Math.ceil(((Number) lo).doubleValue()) : ((Number) lo).longValue();
                    loId = d.ceilingId(v);
                    if (!loInclusive && !fractional && loId <= size && d.value(loId) == v) {
                        loId++;
                    }
                }
                if (hi != null) {
                    boolean fractional = isFractional(hi);
                    long v = fractional ? (long) Math.floor(((Number) hi).doubleValue()) : ((Number) hi).longValue();
                    hiId = d.floorId(v);
                    if (!hiInclusive && !fractional && hiId >= 1 && d.value(hiId) == v) {
                        hiId--;
                    }
                }
            }
            case DoubleDictionary d -> {
                if (lo != null) {
                    double v = ((Number) lo).doubleValue() + 0.0; // -0.0 is stored as 0.0
                    loId = d.ceilingId(v);
                    if (!loInclusive && loId <= size && d.value(loId) == v) {
                        loId++;
                    }
                }
                if (hi != null) {
                    double v = ((Number) hi).doubleValue() + 0.0;
                    hiId = d.floorId(v);
                    if (!hiInclusive && hiId >= 1 && d.value(hiId) == v) {
                        hiId--;
                    }
                }
            }
            case StringDictionary d -> {
                if (lo != null) {
                    String v = (String) lo;
                    loId = d.ceilingId(v);
                    if (!loInclusive && loId <= size && d.value(loId).equals(v)) {
                        loId++;
                    }
                }
                if (hi != null) {
                    String v = (String) hi;
                    hiId = d.floorId(v);
                    if (!hiInclusive && hiId >= 1 && d.value(hiId).equals(v)) {
                        hiId--;
                    }
                }
            }
        }
        loId = Math.max(loId, 1);
        hiId = Math.min(hiId, size);
        return loId > hiId ? IdRange.EMPTY : new IdRange(loId, hiId);
    }

    private static boolean isFractional(Comparable<?> bound) {
        if (bound instanceof Double || bound instanceof Float) {
            double v = ((Number) bound).doubleValue();
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("bound " + v + " on an integer column");
            }
            return v != Math.rint(v);
        }
        return false;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public boolean matches(Object value) {
        if (value == null) {
            return false;
        }
        if (lo != null) {
            int c = compare(value, lo);
            if (c < 0 || (c == 0 && !loInclusive)) {
                return false;
            }
        }
        if (hi != null) {
            int c = compare(value, hi);
            return c < 0 || (c == 0 && hiInclusive);
        }
        return true;
    }

    private static int compare(Object value, Comparable<?> bound) {
        if (value instanceof Number a && bound instanceof Number b) {
            return value instanceof Double || bound instanceof Double
                    ? Double.compare(a.doubleValue(), b.doubleValue()) : Long.compare(a.longValue(), b.longValue());
        }
        return ((String) value).compareTo((String) Objects.requireNonNull(bound));
    }
}
