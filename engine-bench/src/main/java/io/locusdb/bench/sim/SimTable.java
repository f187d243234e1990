package io.locusdb.bench.sim;

import io.locusdb.core.placer.UtilizationHistory;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated table: its parts, where each part's memory is, and each part's utilization histories. A table in a
 * group shares the histories of its group's parts (part k of every table in the group is one placement unit).
 */
final class SimTable {
    /** COL1..COL8 have bitcases 17..24; ID needs as many bits as rows. */
    static final int FIRST_BITCASE = 17;
    static final int COLUMNS = 8;

    final String name;
    final long rows;
    final boolean placerPartitioned;
    /** Memory per row; 0 for the benchmark's own layout of ID and COL1..COL8. */
    final double rowBytes;
    /** The table group it belongs to, or null. */
    final String group;
    /** Where the table's tasks are queued (see {@link Scenario.TableSpec#threadsOn()}). */
    final int threadsOn;
    List<Part> parts = new ArrayList<>();

    /** One table part: memory on one node, histories the tasks on that node add to. */
    static final class Part {
        final int index;
        int node;
        final long rows;
        final long pages;
        final UtilizationHistory threads;
        final UtilizationHistory memory;

        Part(int index, int node, long rows, long pages, UtilizationHistory threads, UtilizationHistory memory) {
            this.index = index;
            this.node = node;
            this.rows = rows;
            this.pages = pages;
            this.threads = threads;
            this.memory = memory;
        }
    }

    SimTable(String name, long rows, List<Integer> nodes, boolean placerPartitioned, int threadsOn) {
        this(name, rows, 0, null, nodes, placerPartitioned, threadsOn);
    }

    SimTable(String name, long rows, double rowBytes, String group, List<Integer> nodes, boolean placerPartitioned,
             int threadsOn) {
        this.name = name;
        this.rows = rows;
        this.rowBytes = rowBytes;
        this.group = group;
        this.placerPartitioned = placerPartitioned;
        this.threadsOn = threadsOn;
        for (int p = 0; p < nodes.size(); p++) {
            parts.add(newPart(p, nodes.get(p), share(rows, p, nodes.size())));
        }
    }

    /** A part with histories of its own. */
    Part newPart(int index, int node, long partRows) {
        return new Part(index, node, partRows, pages(partRows), new UtilizationHistory(), new UtilizationHistory());
    }

    /** Part k takes the histories of {@code leader}'s part k: the two tables' parts are one placement unit. */
    void shareHistoriesOf(SimTable leader) {
        if (leader == this) {
            return;
        }
        List<Part> shared = new ArrayList<>();
        for (Part p : parts) {
            Part l = leader.parts.get(p.index);
            shared.add(new Part(p.index, p.node, p.rows, p.pages, l.threads, l.memory));
        }
        parts = shared;
    }

    private long pages(long partRows) {
        return rowBytes > 0 ? (long) Math.ceil(partRows * rowBytes / 4096) : pagesOf(partRows);
    }

    static long share(long rows, int part, int parts) {
        return rows / parts + (part < rows % parts ? 1 : 0);
    }

    /** Memory of a part: bit-packed codes of ID and the eight columns, plus their dictionaries (4 bytes a value). */
    static long pagesOf(long rows) {
        int idBits = 64 - Long.numberOfLeadingZeros(Math.max(1, rows));
        double bytes = rows * (idBits + bitsOfAllColumns()) / 8.0 + rows * 4.0;
        for (int c = 0; c < COLUMNS; c++) {
            bytes += Math.min(rows, 1L << (FIRST_BITCASE + c)) * 4.0;
        }
        return (long) Math.ceil(bytes / 4096);
    }

    private static int bitsOfAllColumns() {
        int sum = 0;
        for (int c = 0; c < COLUMNS; c++) {
            sum += FIRST_BITCASE + c;
        }
        return sum;
    }

    long pages() {
        return parts.stream().mapToLong(p -> p.pages).sum();
    }

    String ownerKey() {
        return group != null ? "group " + group : "table " + name;
    }
}
