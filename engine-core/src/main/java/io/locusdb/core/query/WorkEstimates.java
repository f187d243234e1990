package io.locusdb.core.query;

import io.locusdb.core.exec.QueryContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How much task time a query will take, learned from the queries that ran: per statement shape (see
 * {@link StatementShape}) a moving average of its runs' work, and for a shape not seen yet, the rows its scans read
 * times the task time per scanned row over all recent queries. The executor starts short queries' pipelines first
 * by these estimates, so they only need to tell a 3 ms query from a 1 s one, not be exact. Thread-safe; the shapes
 * remembered are bounded (least recently used go first).
 */
final class WorkEstimates {
    /** Weight of the newest run in a shape's average: a few runs settle it, one odd run does not swing it. */
    private static final double NEWEST_WEIGHT = 0.3;
    /** Per query, how much the older queries' rows and work still count in the nanoseconds per row. */
    private static final double RATE_DECAY = 0.98;

    private final Map<String, double[]> byShape;
    private double decayedWork;
    private double decayedRows;

    WorkEstimates(int shapes) {
        this.byShape = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                return size() > shapes;
            }
        };
    }

    /** The expected task time of a query of {@code shape} reading {@code scannedRows}, or unknown. */
    synchronized long expectedNanos(String shape, long scannedRows) {
        double[] average = byShape.get(shape);
        if (average != null) {
            return Math.max(1, (long) average[0]);
        }
        if (scannedRows > 0 && decayedRows > 0) {
            return Math.max(1, (long) (scannedRows * (decayedWork / decayedRows)));
        }
        return QueryContext.UNKNOWN_WORK;
    }

    /** What a finished query of {@code shape} took. */
    synchronized void record(String shape, long scannedRows, long workNanos) {
        if (workNanos <= 0) {
            return;
        }
        double[] average = byShape.get(shape);
        if (average == null) {
            byShape.put(shape, new double[] {workNanos});
        } else {
            average[0] += NEWEST_WEIGHT * (workNanos - average[0]);
        }
        if (scannedRows > 0) {
            decayedWork = decayedWork * RATE_DECAY + workNanos;
            decayedRows = decayedRows * RATE_DECAY + scannedRows;
        }
    }
}
