package io.locusdb.bench.sim;

import io.locusdb.core.placer.UtilizationHistory;
import java.util.ArrayList;
import java.util.List;

/** A simulated benchmark table: its parts, where each part's memory is, and each part's utilization histories. */
final class SimTable {
    /** COL1..COL8 have bitcases 17..24; ID needs as many bits as rows. */
    static final int FIRST_BITCASE = 17;
    static final int COLUMNS = 8;

    final String name;
    final long rows;
    final boolean placerPartitioned;
    /** Where the table's tasks are queued (see {@link Scenario.TableSpec#threadsOn()}). */
    final int threadsOn;
    List<Part> parts = new ArrayList<>();

    /** One table part: memory on one node, histories the tasks on that node add to. */
    static final class Part {
        final int index;
        int node;
        final long rows;
        final long pages;
        final UtilizationHistory threads = new UtilizationHistory();
        final UtilizationHistory memory = new UtilizationHistory();

        Part(int index, int node, long rows) {
            this.index = index;
            this.node = node;
            this.rows = rows;
            this.pages = pagesOf(rows);
        }
    }

    SimTable(String name, long rows, List<Integer> nodes, boolean placerPartitioned, int threadsOn) {
        this.name = name;
        this.rows = rows;
        this.placerPartitioned = placerPartitioned;
        this.threadsOn = threadsOn;
        for (int p = 0; p < nodes.size(); p++) {
            parts.add(new Part(p, nodes.get(p), share(rows, p, nodes.size())));
        }
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
        return "table " + name;
    }
}
