package io.locusdb.core.placer;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The placer of one database: a refresher per node samples the utilization histories every {@code sampleMillis}
 * (each sample the mean of {@value #READINGS_PER_SAMPLE} readings),
 * and every period the policy decides on the latest snapshot. Moves and partitions run on their own thread, one at a
 * time, while queries and inserts go on; no new move or partition is decided while one runs (its unit's utilization
 * is about to change), and an owner being changed is left alone. Merges are background work on idle owners (the
 * adaptive-placement paper's Algorithm 3 starts them as background requests): they run concurrently, on their own
 * threads, so that merging several cold tables neither waits table after table nor holds up a move.
 *
 * <p>The histories are kept when placing is off, so the system tables and metrics show the utilization either way.
 */
public final class PlacerService implements AutoCloseable {
    private static final Logger LOG = System.getLogger(PlacerService.class.getName());
    /** Readings of the absolute values per sample: a sample is their mean, not one instant. */
    static final int READINGS_PER_SAMPLE = 10;

    private final UtilizationTracker tracker;
    private final PlacementPolicy policy;
    private final PlacementActions actions;
    private final AtomicBoolean enabled;
    private final ScheduledExecutorService timers;
    private final ExecutorService actuator;
    private final ExecutorService merger;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    /** Owners the placer split from one part: the only ones it merges back (see {@link #placeOnce}). */
    private final Set<String> partitionedByPlacer = ConcurrentHashMap.newKeySet();
    private final AtomicInteger movesInFlight = new AtomicInteger();
    private final AtomicLong periods = new AtomicLong();
    private final AtomicLong decisions = new AtomicLong();

    public PlacerService(UtilizationTracker tracker, PlacementPolicy policy, PlacementActions actions,
                         PlacerSettings settings) {
        this.tracker = tracker;
        this.policy = policy;
        this.actions = actions;
        this.enabled = new AtomicBoolean(settings.enabled());
        AtomicInteger threadNumber = new AtomicInteger();
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "locus-placer-refresh-"
                + threadNumber.incrementAndGet()));
        this.actuator = Executors.newSingleThreadExecutor(r -> daemon(r, "locus-placer-actions"));
        AtomicInteger mergerNumber = new AtomicInteger();
        this.merger = Executors.newFixedThreadPool(Math.max(1, tracker.nodes()), r -> daemon(r,
                "locus-placer-merge-" + mergerNumber.incrementAndGet()));
        long tickMicros = Math.max(1, settings.sampleMillis() * 1000 / READINGS_PER_SAMPLE);
        for (int n = 0; n < tracker.nodes(); n++) {
            int node = n;
            AtomicLong ticks = new AtomicLong();
            timers.scheduleAtFixedRate(() -> refresh(node, ticks.incrementAndGet() % READINGS_PER_SAMPLE == 0),
                    tickMicros, tickMicros, TimeUnit.MICROSECONDS);
        }
        timers.scheduleWithFixedDelay(this::placeSafely, settings.periodMillis(), settings.periodMillis(),
                TimeUnit.MILLISECONDS);
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private void refresh(int node, boolean sample) {
        try {
            if (sample) {
                tracker.sampleNode(node, System.nanoTime() / 1000);
            } else {
                tracker.observeNode(node);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "utilization refresher of node " + node + " failed; it keeps sampling", e);
        }
    }

    private void placeSafely() {
        try {
            placeOnce();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "placer period failed; the placer keeps running", e);
        }
    }

    /**
     * One placer period: decide on the latest histories and hand moves and partitions to the actuator thread, merges
     * to the merge threads; returns the decisions taken. Merges are taken only for owners the placer itself split
     * from one part.
     */
    public synchronized List<PlacerDecision> placeOnce() {
        periods.incrementAndGet();
        if (!enabled.get() || movesInFlight.get() > 0) {
            return List.of();
        }
        List<PlacerDecision> decided = policy.decide(tracker.placementUnits(), tracker.nodes(), Set.copyOf(inFlight));
        List<PlacerDecision> taken = new ArrayList<>();
        for (PlacerDecision decision : decided) {
            String owner = ownerKey(decision);
            // A layout the user declared (PARTITION BY ... PARTITIONS n, ALTER ... PARTITION INTO) is theirs: the
            // placer only merges back what it split itself.
            if (decision instanceof PlacerDecision.Merge && !partitionedByPlacer.contains(owner)) {
                continue;
            }
            if (!inFlight.add(owner)) {
                continue;
            }
            taken.add(decision);
            boolean move = !(decision instanceof PlacerDecision.Merge);
            if (move) {
                movesInFlight.incrementAndGet();
            }
            decisions.incrementAndGet();
            (move ? actuator : merger).execute(() -> {
                try {
                    actions.apply(decision);
                    if (decision instanceof PlacerDecision.Partition p && p.unit().parts() == 1) {
                        partitionedByPlacer.add(owner);
                    } else if (decision instanceof PlacerDecision.Merge) {
                        partitionedByPlacer.remove(owner);
                    }
                } catch (RuntimeException e) {
                    // The event says why; the placer decides again next period on fresh histories.
                    LOG.log(Level.DEBUG, "placer decision failed", e);
                } finally {
                    inFlight.remove(owner);
                    if (move) {
                        movesInFlight.decrementAndGet();
                    }
                }
            });
        }
        return taken;
    }

    private static String ownerKey(PlacerDecision decision) {
        return switch (decision) {
            case PlacerDecision.Move m -> m.unit().ownerKey();
            case PlacerDecision.Partition p -> p.unit().ownerKey();
            case PlacerDecision.Merge m -> (m.group() ? "group " : "table ") + m.owner();
        };
    }

    public boolean enabled() {
        return enabled.get();
    }

    /** Turns placing on or off while the database runs; the histories are kept either way. */
    public void setEnabled(boolean on) {
        enabled.set(on);
    }

    /**
     * Turns placing off and waits until no change is under way (so that what the catalog and the events show stays
     * as it is); false if one was still running after {@code timeout}.
     */
    public boolean quiesce(Duration timeout) throws InterruptedException {
        // Under the period's lock: a period deciding right now has handed its decisions over when this returns.
        synchronized (this) {
            enabled.set(false);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!inFlight.isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    public UtilizationTracker tracker() {
        return tracker;
    }

    public PlacementActions actions() {
        return actions;
    }

    public PlacerEventLog events() {
        return actions.events();
    }

    /** Periods run so far (placing or not). */
    public long periods() {
        return periods.get();
    }

    /** Decisions handed to the actuator so far. */
    public long decisions() {
        return decisions.get();
    }

    /** Stops sampling and deciding; a change under way finishes first (it is never left half done). */
    @Override
    public void close() {
        timers.shutdownNow();
        actuator.shutdown();
        merger.shutdown();
        try {
            if (!actuator.awaitTermination(60, TimeUnit.SECONDS) || !merger.awaitTermination(60, TimeUnit.SECONDS)) {
                LOG.log(Level.WARNING, "a placement change did not finish within 60 s of closing");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
