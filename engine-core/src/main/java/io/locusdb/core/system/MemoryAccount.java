package io.locusdb.core.system;

import io.locusdb.core.storage.table.Catalog;
import io.locusdb.core.storage.table.Table;
import io.locusdb.core.storage.table.TablePart;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the server's memory is, at one moment: the tables' bytes per node (column codes and dictionaries off the
 * heap, key indexes, delta rows and decoded-value caches on it), the JVM's areas (heap committed and in use,
 * metaspace, class space, code cache, direct and mapped buffers, thread stacks) and the process's resident memory,
 * with what none of these explains. Exact where the engine or the JVM counts bytes, an estimate where it does not
 * ({@link Line#measure}).
 */
public record MemoryAccount(List<Line> lines) {
    /** Areas, as they appear in {@code locus_memory} and the {@code locus_memory_bytes} metric. */
    public static final String CODES = "column codes";
    public static final String DICTIONARIES = "column dictionaries";
    public static final String MAPPING_SLACK = "column mapping slack";
    public static final String KEY_INDEXES = "key indexes";
    public static final String DELTA_ROWS = "delta rows";
    public static final String DECODED_VALUES = "decoded dictionary values";
    public static final String HEAP_COMMITTED = "java heap committed";
    public static final String HEAP_USED = "java heap used";
    public static final String HEAP_LIVE = "java heap live after the last collection";
    public static final String NON_HEAP = "jvm non-heap";
    public static final String BUFFERS = "jvm buffers";
    public static final String THREAD_STACKS = "thread stacks";
    public static final String RESIDENT = "process resident";
    public static final String UNACCOUNTED = "resident, not accounted above";

    /**
     * One area: {@code node} for table memory placed on a node (else -1), {@code measure} how the bytes were
     * counted: "mapped", "exact", "estimate", "committed", "used", "reserved" or "resident".
     */
    public record Line(String area, int node, String detail, long bytes, String measure) {
    }

    /** The account now (no locks held while it counts). */
    public static MemoryAccount now(Catalog catalog) {
        List<Line> lines = new ArrayList<>();
        long mapped = tables(catalog, lines);
        long jvm = jvm(lines);
        ProcessResident rss = ProcessResident.read();
        if (rss != null) {
            lines.add(new Line(RESIDENT, -1, String.format(Locale.ROOT, "VmRSS: %d anonymous, %d file-backed",
                    rss.anonymous(), rss.file()), rss.total(), "resident"));
            lines.add(new Line(UNACCOUNTED, -1, "resident minus table memory, heap and non-heap committed and"
                    + " buffers: GC structures, class archive, native libraries, malloc arenas (negative where"
                    + " committed memory is not all resident)", rss.total() - mapped - jvm, "estimate"));
        }
        return new MemoryAccount(List.copyOf(lines));
    }

    /** The bytes of every line of {@code area}, summed. */
    public long total(String area) {
        return lines.stream().filter(l -> l.area().equals(area)).mapToLong(Line::bytes).sum();
    }

    /** The bytes of {@code area} on {@code node}. */
    public long total(String area, int node) {
        return lines.stream().filter(l -> l.area().equals(area) && l.node() == node).mapToLong(Line::bytes).sum();
    }

    /** Adds the tables' lines per node; returns their off-heap (mapped) bytes. */
    private static long tables(Catalog catalog, List<Line> lines) {
        int nodes = catalog.memory().topology().nodeCount();
        long[] codes = new long[nodes];
        long[] dictionaries = new long[nodes];
        long[] mapped = new long[nodes];
        long[] indexes = new long[nodes];
        long[] delta = new long[nodes];
        long[] decoded = new long[nodes];
        for (Table table : catalog.tables()) {
            // The table's current parts, not a snapshot: a table dropped meanwhile (DROP, ALTER, COPY) is counted
            // as it was rather than failing the account. Sizes only: a restarted part's columns still being read
            // are not waited for.
            for (TablePart part : table.version().parts()) {
                int node = Math.clamp(part.homeNode(), 0, nodes - 1);
                codes[node] += part.codeBytes();
                dictionaries[node] += part.dictionaryBytes();
                decoded[node] += part.decodedValueBytes();
                mapped[node] += part.memory().mappedBytes();
                indexes[node] += part.keyIndexBytes();
                delta[node] += part.delta().estimatedHeapBytes();
            }
        }
        long total = 0;
        for (int n = 0; n < nodes; n++) {
            lines.add(new Line(CODES, n, "bit-packed value IDs, off the heap", codes[n], "exact"));
            lines.add(new Line(DICTIONARIES, n, "sorted distinct values, off the heap", dictionaries[n], "exact"));
            lines.add(new Line(MAPPING_SLACK, n, "mapped for the columns beyond their bytes (page rounding)",
                    Math.max(0, mapped[n] - codes[n] - dictionaries[n]), "mapped"));
            lines.add(new Line(KEY_INDEXES, n, "value ID to rows, on the heap", indexes[n], "exact"));
            lines.add(new Line(DELTA_ROWS, n, "rows written since the last merge, with their deletions and key"
                    + " indexes, on the heap", delta[n], "estimate"));
            lines.add(new Line(DECODED_VALUES, n, "strings of small dictionaries kept decoded, on the heap",
                    decoded[n], "estimate"));
            total += Math.max(mapped[n], codes[n] + dictionaries[n]);
        }
        return total;
    }

    /** Adds the JVM's lines; returns what it has committed (heap, non-heap, buffers). */
    private static long jvm(List<Line> lines) {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        lines.add(new Line(HEAP_COMMITTED, -1, "of at most " + heap.getMax(), heap.getCommitted(), "committed"));
        lines.add(new Line(HEAP_USED, -1, "live data and garbage not yet collected", heap.getUsed(), "used"));
        long live = 0;
        long committed = heap.getCommitted();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                MemoryUsage afterGc = pool.getCollectionUsage();
                live += afterGc == null ? 0 : afterGc.getUsed();
            } else {
                MemoryUsage usage = pool.getUsage();
                lines.add(new Line(NON_HEAP, -1, pool.getName(), usage.getCommitted(), "committed"));
                committed += usage.getCommitted();
            }
        }
        lines.add(new Line(HEAP_LIVE, -1, "in use right after the last collection of each heap pool", live, "used"));
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            lines.add(new Line(BUFFERS, -1, pool.getName(), pool.getMemoryUsed(), "exact"));
            committed += pool.getMemoryUsed();
        }
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        lines.add(new Line(THREAD_STACKS, -1, threads + " threads; mostly not resident", threads * stackBytes(),
                "reserved"));
        return committed;
    }

    /** The reserved stack of a Java thread: -Xss or -XX:ThreadStackSize when given, else x86-64 Linux's 1 MiB. */
    private static long stackBytes() {
        long bytes = 1L << 20;
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            try {
                if (argument.startsWith("-Xss")) {
                    bytes = parseSize(argument.substring(4));
                } else if (argument.startsWith("-XX:ThreadStackSize=")) {
                    bytes = parseSize(argument.substring(20)) * 1024;
                }
            } catch (NumberFormatException e) {
                // The JVM accepted it, so it is a form this reading does not know: keep the default.
            }
        }
        return bytes;
    }

    private static long parseSize(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        long unit = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }

    /** The process's resident memory from {@code /proc/self/status} (Linux), in bytes. */
    record ProcessResident(long total, long anonymous, long file) {
        static ProcessResident read() {
            try {
                long total = -1;
                long anonymous = 0;
                long file = 0;
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        total = kib(line);
                    } else if (line.startsWith("RssAnon:")) {
                        anonymous = kib(line);
                    } else if (line.startsWith("RssFile:")) {
                        file = kib(line);
                    }
                }
                return total < 0 ? null : new ProcessResident(total, anonymous, file);
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        private static long kib(String line) {
            return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
    }
}
