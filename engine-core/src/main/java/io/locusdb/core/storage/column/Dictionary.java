package io.locusdb.core.storage.column;

/**
 * A column part's sorted dictionary of distinct non-null values. Value ID {@code i} (1-based) is the i-th smallest
 * value; ID 0 is NULL. Because the order of IDs is the order of values, a range predicate on values is a range of
 * IDs, found with two binary searches.
 */
public sealed interface Dictionary permits LongDictionary, DoubleDictionary, StringDictionary {
    /** Number of distinct non-null values (the largest value ID). */
    int size();

    /** Off-heap bytes held. */
    long byteSize();

    /** The value of an ID as a Java object (Long, Double or String), for tools and tests — not for hot loops. */
    Object boxedValue(int id);
}
