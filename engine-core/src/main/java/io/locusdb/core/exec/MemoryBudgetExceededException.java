package io.locusdb.core.exec;

/** A query asked for more memory than its budget allows. */
public final class MemoryBudgetExceededException extends RuntimeException {
    public MemoryBudgetExceededException(long requested, long reserved, long limit) {
        super("query memory budget exceeded: asked for " + requested + " bytes with " + reserved + " of " + limit
                + " already reserved");
    }
}
