package io.locusdb.core.placer;

import io.locusdb.core.storage.placement.PlacementJournal;
import io.locusdb.core.storage.placement.PlacementReport;
import io.locusdb.core.storage.placement.TableChange;
import io.locusdb.core.storage.placement.TablePlacementOps;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableGroup;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Placement changes of tables and table groups, for the placer and for the operator's {@code ALTER TABLE}: each
 * goes through {@link TablePlacementOps} (online: queries keep their snapshots) and becomes a {@link PlacerEvent},
 * failed ones included. A table group changes as a whole: every table's part moves, splits or merges the same way,
 * so its parts stay co-located.
 */
public final class PlacementActions {
    private static final Logger LOG = System.getLogger(PlacementActions.class.getName());

    private final Catalog catalog;
    private final TablePlacementOps ops;
    private final PlacerEventLog events;
    private final Clock clock;
    private final PlacementJournal journal;

    public PlacementActions(Catalog catalog, TablePlacementOps ops, PlacerEventLog events, Clock clock) {
        this(catalog, ops, events, clock, PlacementJournal.NONE);
    }

    /** @param journal where each operation's changes are recorded (a data directory's log) */
    public PlacementActions(Catalog catalog, TablePlacementOps ops, PlacerEventLog events, Clock clock,
                            PlacementJournal journal) {
        this.catalog = catalog;
        this.ops = ops;
        this.events = events;
        this.clock = clock;
        this.journal = journal;
    }

    public PlacerEventLog events() {
        return events;
    }

    /** Moves part {@code part} (-1: every part) of the owner to {@code toNode}. */
    public PlacerEvent move(String owner, boolean group, int part, int toNode, String source, String reason) {
        List<Table> tables = tables(owner, group);
        int parts = partsOf(tables);
        int from = part >= 0 && part < parts ? tables.getFirst().version().parts().get(part).homeNode() : -1;
        return run(PlacerEvent.Action.MOVE, source, owner, group, parts, part, from, toNode, reason, changes -> {
            Outcome outcome = new Outcome(parts, changes);
            for (Table table : tables) {
                for (int p = 0; p < parts; p++) {
                    if (part < 0 || p == part) {
                        outcome.add(ops.move(table, p, toNode));
                    }
                }
            }
            return outcome;
        });
    }

    /**
     * Doubles the owner's parts {@code doublings} times. With {@code part} ≥ 0 (the placer's partition) one of the
     * parts that part {@code part} became then moves to {@code toNode}; the other stays where it was.
     */
    public PlacerEvent partition(String owner, boolean group, int doublings, int part, int toNode, String source,
                                 String reason) {
        List<Table> tables = tables(owner, group);
        int parts = partsOf(tables);
        int from = part >= 0 && part < parts ? tables.getFirst().version().parts().get(part).homeNode() : -1;
        return run(PlacerEvent.Action.PARTITION, source, owner, group, parts, part, from, toNode, reason, changes -> {
            int n = parts;
            Outcome outcome = new Outcome(n << doublings, changes);
            for (int d = 0; d < doublings; d++, n *= 2) {
                if (group) {
                    ops.repartitionGroup(catalog.group(owner), outcome::add);
                } else {
                    outcome.add(ops.repartition(tables.getFirst()));
                }
            }
            if (part >= 0 && toNode >= 0) {
                int[] children = TablePlacementOps.childIndices(tables.getFirst().spec(), part, parts);
                for (Table table : tables) {
                    outcome.add(ops.move(table, children[1], toNode));
                }
            }
            return outcome;
        });
    }

    /** Merges the owner into one part on {@code toNode}. */
    public PlacerEvent merge(String owner, boolean group, int toNode, String source, String reason) {
        List<Table> tables = tables(owner, group);
        int parts = partsOf(tables);
        return run(PlacerEvent.Action.MERGE, source, owner, group, parts, -1, -1, toNode, reason, changes -> {
            Outcome outcome = new Outcome(1, changes);
            for (Table table : tables) {
                outcome.add(ops.merge(table, toNode));
            }
            return outcome;
        });
    }

    /** Carries out one of the placer's decisions. */
    public PlacerEvent apply(PlacerDecision decision) {
        return switch (decision) {
            case PlacerDecision.Move m -> move(m.unit().owner(), m.unit().group(), m.unit().part(), m.toNode(),
                    PlacerEvent.PLACER, describe(m.reason()));
            case PlacerDecision.Partition p -> partition(p.unit().owner(), p.unit().group(),
                    Integer.numberOfTrailingZeros(p.newParts() / p.unit().parts()), p.unit().part(), p.toNode(),
                    PlacerEvent.PLACER, describe(p.reason()));
            case PlacerDecision.Merge m -> merge(m.owner(), m.group(), m.toNode(), PlacerEvent.PLACER,
                    describe(m.reason()));
        };
    }

    /** The reason as the events table shows it. */
    public static String describe(PlacerDecision.Reason r) {
        if (r.hotNode() < 0) {
            return r.rule();
        }
        return String.format(Locale.ROOT, "%s (node %d: %.2f threads, node %d: %.2f threads, imbalance"
                        + " %.2f; unit: %.2f threads, %.1f MB/s)", r.rule(), r.hotNode(), r.hotCpu(), r.coldNode(),
                r.coldCpu(), r.imbalance(), r.unitCpu(), r.unitMemory() / 1e6);
    }

    /**
     * What the tables' reports add up to: pages written, and how (each method once, in order); each report's change
     * goes to the journal's list as it comes in.
     */
    private static final class Outcome {
        private final int partsAfter;
        private final List<TableChange> changes;
        private final Set<String> methods = new LinkedHashSet<>();
        private long pages;

        Outcome(int partsAfter, List<TableChange> changes) {
            this.partsAfter = partsAfter;
            this.changes = changes;
        }

        void add(PlacementReport report) {
            pages += report.pages();
            methods.add(report.method());
            if (report.change() != null) {
                changes.add(new TableChange(report.table(), report.change()));
            }
        }

        String method() {
            return String.join(", ", methods);
        }
    }

    @FunctionalInterface
    private interface Work {
        Outcome run(List<TableChange> changes);
    }

    private PlacerEvent run(PlacerEvent.Action action, String source, String owner, boolean group, int parts,
                            int part, int from, int to, String reason, Work work) {
        long start = System.nanoTime();
        Outcome outcome = null;
        RuntimeException failure = null;
        try {
            outcome = journal.record(work::run);
        } catch (RuntimeException e) {
            failure = e;
        }
        double millis = (System.nanoTime() - start) / 1e6;
        PlacerEvent event = events.append(new PlacerEvent(0, clock.instant(), action, source, owner, group, parts,
                outcome == null ? partsOf(tables(owner, group)) : outcome.partsAfter, part, from, to, reason,
                millis, outcome == null ? 0 : outcome.pages, outcome == null ? null : outcome.method(),
                failure == null ? null : String.valueOf(failure.getMessage())));
        LOG.log(failure == null ? Level.INFO : Level.WARNING, () -> describe(event));
        if (failure != null) {
            throw failure;
        }
        return event;
    }

    /** One line for the log and the bench output. */
    public static String describe(PlacerEvent e) {
        return String.format(Locale.ROOT, "placer event %d: %s %s %s%s %s%s→node %d (%d→%d parts,"
                        + " %d pages, %.1f ms%s)%s%s", e.sequence(), e.source(), e.action().label(),
                e.group() ? "group " : "", e.owner(), e.part() >= 0 ? "part " + e.part() + " " : "",
                e.fromNode() >= 0 ? "node " + e.fromNode() : "", e.toNode(), e.partsBefore(), e.partsAfter(),
                e.pages(), e.millis(), e.method() == null ? "" : ", " + e.method(), e.reason() == null || e.reason().isEmpty() ? "" : ": " + e.reason(),
                e.error() == null ? "" : " FAILED: " + e.error());
    }

    private List<Table> tables(String owner, boolean group) {
        if (group) {
            TableGroup g = catalog.findGroup(owner).orElseThrow(() -> new NoSuchElementException(
                    "table group '" + owner + "' does not exist"));
            return g.tables();
        }
        return List.of(catalog.find(owner).orElseThrow(() -> new NoSuchElementException(
                "table '" + owner + "' does not exist")));
    }

    private static int partsOf(List<Table> tables) {
        return tables.isEmpty() ? 0 : tables.getFirst().version().parts().size();
    }
}
