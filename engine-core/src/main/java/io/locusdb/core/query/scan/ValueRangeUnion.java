package io.locusdb.core.query.scan;

import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.scan.IdRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Values in any of {@code ranges} (all on {@code column}): what an {@code IN} list or an OR of ranges on one column
 * becomes. Ranges whose IDs touch in a part's dictionary (values in between absent there) merge into one.
 */
public record ValueRangeUnion(int column, List<ValueRange> ranges) implements ScanPredicate {

    public ValueRangeUnion {
        ranges = List.copyOf(ranges);
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a union of no ranges");
        }
        for (ValueRange r : ranges) {
            if (r.column() != column) {
                throw new IllegalArgumentException("range on column " + r.column() + " in a union on " + column);
            }
        }
    }

    @Override
    public List<IdRange> idRanges(Dictionary dictionary) {
        List<IdRange> ids = new ArrayList<>();
        for (ValueRange r : ranges) {
            IdRange id = r.idRange(dictionary);
            if (!id.isEmpty()) {
                ids.add(id);
            }
        }
        ids.sort(Comparator.comparingInt(IdRange::lo));
        List<IdRange> merged = new ArrayList<>();
        for (IdRange id : ids) {
            IdRange last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && id.lo() <= last.hi() + 1) {
                merged.set(merged.size() - 1, new IdRange(last.lo(), Math.max(last.hi(), id.hi())));
            } else {
                merged.add(id);
            }
        }
        return merged;
    }

    @Override
    public boolean matches(Object value) {
        for (ValueRange r : ranges) {
            if (r.matches(value)) {
                return true;
            }
        }
        return false;
    }
}
