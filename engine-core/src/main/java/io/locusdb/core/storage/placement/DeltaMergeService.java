package io.locusdb.core.storage.placement;

import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.PartDelta;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import io.locusdb.core.storage.table.TableVersion;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The background delta merge: periodically folds each part's delta into its main part once the delta holds more
 * than {@code minRows} rows and {@code fraction} of the main, or deletions past the same limits. Queries keep
 * running on the parts they hold; writers to that table wait while one part is rebuilt.
 */
public final class DeltaMergeService implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DeltaMergeService.class.getName());

    private final Catalog catalog;
    private final TablePlacementOps ops;
    private final long minRows;
    private final double fraction;
    private final ScheduledExecutorService timer;
    private final AtomicLong merges = new AtomicLong();
    private final Runnable afterMerges;

    public DeltaMergeService(Catalog catalog, TablePlacementOps ops, long minRows, double fraction,
                             long intervalMillis) {
        this(catalog, ops, minRows, fraction, intervalMillis, () -> { });
    }

    /** As above; {@code afterMerges} runs after a round that merged anything (a checkpoint request, say). */
    public DeltaMergeService(Catalog catalog, TablePlacementOps ops, long minRows, double fraction,
                             long intervalMillis, Runnable afterMerges) {
        this.afterMerges = afterMerges;
        this.catalog = catalog;
        this.ops = ops;
        this.minRows = minRows;
        this.fraction = fraction;
        this.timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("locus-delta-merge").daemon().factory());
        timer.scheduleWithFixedDelay(this::mergeDue, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** Merges every part whose delta is past the limits; returns how many were merged. Also the timer's task. */
    public int mergeDue() {
        int merged = 0;
        for (Table table : catalog.tables()) {
            if (table.isDropped()) {
                continue;
            }
            TableVersion version = table.version();
            for (TablePart part : version.parts()) {
                if (isDue(part, table.committed())) {
                    try {
                        ops.mergeDelta(table, part.index());
                        merged++;
                        merges.incrementAndGet();
                    } catch (RuntimeException e) {
                        // A concurrent placement operation or drop won: the next round looks again.
                        LOG.log(System.Logger.Level.DEBUG, "delta merge of " + table.name() + " part "
                                + part.index() + " skipped: " + e.getMessage());
                    }
                }
            }
        }
        if (merged > 0) {
            afterMerges.run();
        }
        return merged;
    }

    public long mergesDone() {
        return merges.get();
    }

    private boolean isDue(TablePart part, long commit) {
        PartDelta delta = part.delta();
        long changes = delta.visibleRows(commit) + delta.deletionCount();
        return changes >= minRows && changes >= fraction * part.rows();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
