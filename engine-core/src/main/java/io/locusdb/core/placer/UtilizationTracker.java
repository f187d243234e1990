package io.locusdb.core.placer;

import io.locusdb.core.exec.UtilizationTarget;
import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TableGroup;
import io.locusdb.core.storage.table.TablePart;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resource utilization histories of a database (adaptive-placement paper, §5): one pair (threads, memory
 * throughput) for every table part and every table-group part, and one for every node.
 *
 * <p>Query code asks for a part's {@link UtilizationTarget} when it builds the part's tasks; the executor adjusts it
 * as those tasks start and stop. A table in a group is accounted to its group's part, since the group's parts move
 * together. Histories follow a part through moves (same owner, same part index, same part count) and start anew when
 * the owner is repartitioned or merged: the old parts' utilization says nothing about the new ones.
 *
 * <p>{@link #sampleNode} is the refresher of one node: it samples the units placed on the node and records their
 * sum as the node's own history, so tasks never touch a node-wide counter. Between samples {@link #observeNode}
 * reads the units' values, so that each sample is the mean of several readings rather than one instant.
 */
public final class UtilizationTracker {
    private final Catalog catalog;
    private final int nodes;
    private final long recentWindowMicros;
    private final int capacity;
    private final ConcurrentHashMap<String, OwnerUsage> owners = new ConcurrentHashMap<>();
    private final UtilizationHistory[] nodeThreads;
    private final UtilizationHistory[] nodeMemory;

    /**
     * @param recentWindowMicros the window of each sample's recent average (the placer's period)
     * @param capacity           samples kept per history
     */
    public UtilizationTracker(Catalog catalog, long recentWindowMicros, int capacity) {
        this.catalog = catalog;
        this.nodes = catalog.memory().topology().nodeCount();
        this.recentWindowMicros = recentWindowMicros;
        this.capacity = capacity;
        this.nodeThreads = new UtilizationHistory[nodes];
        this.nodeMemory = new UtilizationHistory[nodes];
        for (int n = 0; n < nodes; n++) {
            nodeThreads[n] = new UtilizationHistory(capacity);
            nodeMemory[n] = new UtilizationHistory(capacity);
        }
    }

    /** One part's histories; the executor's handle on them. */
    public static final class PartUsage implements UtilizationTarget {
        private final UtilizationHistory threads;
        private final UtilizationHistory memory;

        PartUsage(int capacity) {
            this.threads = new UtilizationHistory(capacity);
            this.memory = new UtilizationHistory(capacity);
        }

        @Override
        public void adjust(int threadDelta, long bytesPerSecond) {
            threads.add(threadDelta);
            if (bytesPerSecond != 0) {
                memory.add(bytesPerSecond);
            }
        }

        public UtilizationHistory threads() {
            return threads;
        }

        public UtilizationHistory memory() {
            return memory;
        }
    }

    /** The histories of one owner's parts, for one part count. */
    private record OwnerUsage(PartUsage[] parts) {
    }

    /** The owner key of a table: its group's when it has one (the same keys as {@link PlacementUnit#ownerKey()}). */
    public static String ownerKey(Table table) {
        return table.group() != null ? "group " + table.group() : "table " + table.name();
    }

    /** What the tasks reading part {@code part} of {@code table} (out of {@code parts}) are accounted to. */
    public PartUsage target(Table table, int part, int parts) {
        return usage(ownerKey(table), part, parts);
    }

    /** The histories of part {@code part} of an owner that has {@code parts} parts now. */
    public PartUsage usage(String ownerKey, int part, int parts) {
        OwnerUsage owner = owners.get(ownerKey);
        if (owner == null || owner.parts().length != parts) {
            owner = owners.compute(ownerKey, (k, old) -> old != null && old.parts().length == parts ? old
                    : newOwner(parts));
        }
        return owner.parts()[part];
    }

    private OwnerUsage newOwner(int parts) {
        PartUsage[] usages = new PartUsage[parts];
        for (int p = 0; p < parts; p++) {
            usages[p] = new PartUsage(capacity);
        }
        return new OwnerUsage(usages);
    }

    /** The node's threads in use by tasks on their own data, as sampled by its refresher. */
    public UtilizationHistory nodeThreads(int node) {
        return nodeThreads[node];
    }

    /** The node's estimated memory throughput (bytes per second), as sampled by its refresher. */
    public UtilizationHistory nodeMemory(int node) {
        return nodeMemory[node];
    }

    public int nodes() {
        return nodes;
    }

    public long recentWindowMicros() {
        return recentWindowMicros;
    }

    /**
     * The refresher of {@code node}: samples every unit whose memory is on the node now, then records their sum as
     * the node's sample. Owners that no longer exist are forgotten here.
     */
    public void sampleNode(int node, long nowMicros) {
        double threads = 0;
        double memory = 0;
        Set<String> live = new HashSet<>();
        for (UnitPlacement unit : units()) {
            live.add(unit.ownerKey());
            if (unit.node() != node) {
                continue;
            }
            PartUsage usage = usage(unit.ownerKey(), unit.part(), unit.parts());
            threads += usage.threads().sample(nowMicros, recentWindowMicros);
            memory += usage.memory().sample(nowMicros, recentWindowMicros);
        }
        nodeThreads[node].record(nowMicros, threads, recentWindowMicros);
        nodeMemory[node].record(nowMicros, memory, recentWindowMicros);
        owners.keySet().retainAll(live);
    }

    /** A reading between samples of every unit on {@code node} (see {@link UtilizationHistory#observe()}). */
    public void observeNode(int node) {
        for (UnitPlacement unit : units()) {
            if (unit.node() == node) {
                PartUsage usage = usage(unit.ownerKey(), unit.part(), unit.parts());
                usage.threads().observe();
                usage.memory().observe();
            }
        }
    }

    /** Where an owner's part is now: the unit the placer sees, without histories. */
    public record UnitPlacement(String owner, boolean group, int part, int node, long pages, int parts) {
        public String ownerKey() {
            return (group ? "group " : "table ") + owner;
        }
    }

    /**
     * Every placement unit of the catalog now: the parts of ungrouped tables, and the parts of table groups (a
     * group part sits on the node of its first table's part; its pages are the most of any table's part, since the
     * tables move in parallel). A group whose tables disagree on their part count (mid-repartition) is left out.
     */
    public List<UnitPlacement> units() {
        List<UnitPlacement> out = new ArrayList<>();
        for (Table table : catalog.tables()) {
            if (table.group() != null || table.isDropped()) {
                continue;
            }
            List<TablePart> parts = table.version().parts();
            for (TablePart part : parts) {
                out.add(new UnitPlacement(table.name(), false, part.index(), part.homeNode(), pages(part),
                        parts.size()));
            }
        }
        for (TableGroup group : catalog.groups()) {
            List<Table> tables = group.tables();
            if (tables.isEmpty()) {
                continue;
            }
            int parts = tables.getFirst().version().parts().size();
            if (tables.stream().anyMatch(t -> t.version().parts().size() != parts)) {
                continue;
            }
            for (int p = 0; p < parts; p++) {
                long pages = 0;
                for (Table table : tables) {
                    pages = Math.max(pages, pages(table.version().parts().get(p)));
                }
                out.add(new UnitPlacement(group.name(), true, p,
                        tables.getFirst().version().parts().get(p).homeNode(), pages, parts));
            }
        }
        return out;
    }

    /** The placer's view: every unit with its histories. */
    public List<PlacementUnit> placementUnits() {
        List<PlacementUnit> out = new ArrayList<>();
        for (UnitPlacement u : units()) {
            PartUsage usage = usage(u.ownerKey(), u.part(), u.parts());
            out.add(new PlacementUnit(u.owner(), u.group(), u.part(), u.node(), u.pages(), u.parts(),
                    usage.threads(), usage.memory()));
        }
        return out;
    }

    private static long pages(TablePart part) {
        return (part.memory().mappedBytes() + 4095) / 4096;
    }
}
