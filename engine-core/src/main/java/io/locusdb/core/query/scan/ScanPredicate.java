package io.locusdb.core.query.scan;

import io.locusdb.core.storage.column.Dictionary;
import io.locusdb.core.storage.scan.IdRange;
import java.util.List;

/**
 * A predicate on one column that the packed-code scan evaluates: one range of values ({@link ValueRange}), a
 * union of them ({@link ValueRangeUnion}: {@code IN} lists, ORs of ranges) or a set of integers ({@link ValueSet}:
 * a join's build keys). On a table part it becomes ranges of
 * the part's dictionary IDs, disjoint and ascending; the scan selects the first and ORs in the others.
 */
public sealed interface ScanPredicate permits ValueRange, ValueRangeUnion, ValueSet {

    int column();

    /** The part's dictionary IDs that satisfy the predicate: disjoint, ascending, none empty (no range: none). */
    List<IdRange> idRanges(Dictionary dictionary);

    /** Row-at-a-time form, for delta rows (boxed values as the delta keeps them). */
    boolean matches(Object value);
}
