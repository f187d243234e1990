package io.locusdb.core.exec;

/** How a task pool orders its ready tasks. */
public enum PoolOrder {
    /** Deepest graph node first: resource-hungry queries build deep graphs, and finishing them frees memory. */
    DEPTH,
    /** Oldest query first (first in, first out within a query): fairer latencies for concurrent queries. */
    QUERY_START
}
