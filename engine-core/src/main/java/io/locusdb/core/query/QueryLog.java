package io.locusdb.core.query;

import io.locusdb.core.sql.PlanningTime;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The last statements this database ran, with where their time went: planning (by phase), physical planning, and
 * running until the result ended. {@code locus_query_log} shows it. Bounded: the oldest entries go first.
 */
public final class QueryLog {
    /** {@code -Dlocus.query-log=N}: entries kept (0 keeps none). */
    public static final int DEFAULT_CAPACITY = Math.max(0, Integer.getInteger("locus.query-log", 1000));

    /** How a statement got its plan. */
    public enum PlanSource {
        /** Parsed, validated and optimized for this execution. */
        PLANNED,
        /** Taken from the plan cache by its text: no front-end work. */
        CACHED,
        /** A prepared statement, planned once when it was prepared. */
        PREPARED,
        /** DDL, DML and the other statements LocusDB runs without the query planner. */
        STATEMENT;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One statement.
     *
     * @param planning      the front end's phases (zero when the plan was cached or prepared)
     * @param physicalNanos physical planning: binding parameters, choosing operators, building the task graph
     * @param runNanos      from the start of execution until the result ended (read to the end or closed): through
     *                      the server this includes the time the client took to read the rows
     * @param rows          rows delivered, or the update count of DML
     * @param error         why it failed, or null
     */
    public record Entry(long sequence, Instant started, String sql, PlanSource source, PlanningTime planning,
                        long physicalNanos, long runNanos, long rows, String error) {
    }

    private final int capacity;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long sequence;

    public QueryLog(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
    }

    /** Keeps an entry (its sequence number is assigned here). */
    public void add(Instant started, String sql, PlanSource source, PlanningTime planning, long physicalNanos,
                    long runNanos, long rows, String error) {
        synchronized (this) {
            sequence++;
            if (capacity == 0) {
                return;
            }
            if (entries.size() == capacity) {
                entries.removeFirst();
            }
            entries.addLast(new Entry(sequence, started, sql, source, planning, physicalNanos, runNanos, rows,
                    error));
        }
    }

    /** The kept entries, oldest first. */
    public synchronized List<Entry> entries() {
        return new ArrayList<>(entries);
    }
}
