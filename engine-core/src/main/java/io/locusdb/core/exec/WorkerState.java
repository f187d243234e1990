package io.locusdb.core.exec;

/** What a worker is doing, as far as the active concurrency level is concerned. */
public enum WorkerState {
    /** Running a task or looking for one. */
    ACTIVE,
    /** Blocked in one of the executor's primitives; repaired by the watchdog. */
    BLOCKED,
    /** Waiting for another task graph; replaced at once. */
    WAITING_FOR_GRAPH,
    /** In a region its code declared inactive (e.g. I/O); replaced at once. */
    INACTIVE,
    /** Parked: no work, too many active workers, or its core withdrawn. */
    PARKED
}
