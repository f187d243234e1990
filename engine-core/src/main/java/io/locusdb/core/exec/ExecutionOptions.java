package io.locusdb.core.exec;

import io.locusdb.core.exec.QueryContext.Priority;
import java.util.List;

/**
 * Per-execution limits a caller (the server, for each statement of a session) puts on a query: how much memory its
 * operators may hold, its scheduling priority, and the table parts it reads where it reads one part of a table
 * instead of all (empty: whole tables).
 */
public record ExecutionOptions(long memoryBudgetBytes, int priority, List<PartSelection> parts) {
    public static final ExecutionOptions DEFAULTS = new ExecutionOptions(Long.MAX_VALUE, Priority.NORMAL);

    public ExecutionOptions(long memoryBudgetBytes, int priority) {
        this(memoryBudgetBytes, priority, List.of());
    }

    public ExecutionOptions {
        parts = List.copyOf(parts);
        if (parts.stream().map(PartSelection::table).distinct().count() != parts.size()) {
            throw new IllegalArgumentException("one part per table: " + parts);
        }
        if (memoryBudgetBytes <= 0) {
            throw new IllegalArgumentException("memoryBudgetBytes must be positive, got " + memoryBudgetBytes);
        }
        if (priority < Priority.LOWEST || priority > Priority.HIGHEST) {
            throw new IllegalArgumentException("priority must be in " + Priority.LOWEST + ".." + Priority.HIGHEST
                    + ", got " + priority);
        }
    }

    public ExecutionOptions withMemoryBudget(long bytes) {
        return new ExecutionOptions(bytes, priority, parts);
    }

    public ExecutionOptions withPriority(int value) {
        return new ExecutionOptions(memoryBudgetBytes, value, parts);
    }

    public ExecutionOptions withParts(List<PartSelection> selected) {
        return new ExecutionOptions(memoryBudgetBytes, priority, selected);
    }

}
