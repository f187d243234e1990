package io.locusdb.core.exec.elastic;

/** The elastic-allocation paper's performance states, from the average load of the allocated cores. */
public enum LoadState {
    /** Load below the minimum threshold: a core can go. */
    IDLE,
    /** Load between the thresholds: the allocation fits the work. */
    STABLE,
    /** Load above the maximum threshold: the work needs another core. */
    OVERLOAD
}
