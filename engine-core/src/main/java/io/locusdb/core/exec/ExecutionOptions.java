package io.locusdb.core.exec;

import io.locusdb.core.exec.QueryContext.Priority;

/**
 * Per-execution limits a caller (the server, for each statement of a session) puts on a query: how much memory its
 * operators may hold, and its scheduling priority.
 */
public record ExecutionOptions(long memoryBudgetBytes, int priority) {
    public static final ExecutionOptions DEFAULTS = new ExecutionOptions(Long.MAX_VALUE, Priority.NORMAL);

    public ExecutionOptions {
        if (memoryBudgetBytes <= 0) {
            throw new IllegalArgumentException("memoryBudgetBytes must be positive, got " + memoryBudgetBytes);
        }
        if (priority < Priority.LOWEST || priority > Priority.HIGHEST) {
            throw new IllegalArgumentException("priority must be in " + Priority.LOWEST + ".." + Priority.HIGHEST
                    + ", got " + priority);
        }
    }

    public ExecutionOptions withMemoryBudget(long bytes) {
        return new ExecutionOptions(bytes, priority);
    }

    public ExecutionOptions withPriority(int value) {
        return new ExecutionOptions(memoryBudgetBytes, value);
    }
}
