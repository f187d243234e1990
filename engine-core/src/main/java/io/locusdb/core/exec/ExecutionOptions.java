package io.locusdb.core.exec;

import io.locusdb.core.exec.QueryContext.Priority;
import io.locusdb.core.storage.type.TimeZones;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/**
 * Per-execution limits a caller (the server, for each statement of a session) puts on a query: how much memory its
 * operators may hold, its scheduling priority, and the table parts it reads where it reads one part of a table
 * instead of all (empty: whole tables), and the session's time zone (text and wall-clock operations of TIMESTAMP WITH
 * TIME ZONE).
 */
public record ExecutionOptions(long memoryBudgetBytes, int priority, List<PartSelection> parts, ZoneId timeZone) {
    public static final ExecutionOptions DEFAULTS = new ExecutionOptions(Long.MAX_VALUE, Priority.NORMAL);

    public ExecutionOptions(long memoryBudgetBytes, int priority) {
        this(memoryBudgetBytes, priority, List.of(), TimeZones.DEFAULT);
    }

    public ExecutionOptions(long memoryBudgetBytes, int priority, List<PartSelection> parts) {
        this(memoryBudgetBytes, priority, parts, TimeZones.DEFAULT);
    }

    public ExecutionOptions {
        parts = List.copyOf(parts);
        Objects.requireNonNull(timeZone, "timeZone");
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
        return new ExecutionOptions(bytes, priority, parts, timeZone);
    }

    public ExecutionOptions withPriority(int value) {
        return new ExecutionOptions(memoryBudgetBytes, value, parts, timeZone);
    }

    public ExecutionOptions withParts(List<PartSelection> selected) {
        return new ExecutionOptions(memoryBudgetBytes, priority, selected, timeZone);
    }

    public ExecutionOptions withTimeZone(ZoneId zone) {
        return new ExecutionOptions(memoryBudgetBytes, priority, parts, zone);
    }

}
